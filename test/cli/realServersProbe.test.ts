/**
 * `probe` against real MCP servers nobody on this project wrote (npm dev dependencies, pinned), offline
 * with dummy credentials, each in a fresh temp folder: the exact findings (rule, tool, count), the
 * coverage, and nothing changed outside the temp folder. A server whose tools can reach the network runs
 * only inside `--sandbox` (no network namespace), or outside it with its tools not called at all; where
 * this machine cannot make the namespaces those tests are skipped with the reason. docs/real-servers.md
 * judges every finding asserted here.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempTree } from './helpers';

const CLI = join(ROOT, 'dist/cli.js');
const NM = join(ROOT, 'node_modules');

/** Dummy credentials: every server starts, none can authenticate anywhere. */
const DUMMY = {
  GITHUB_PERSONAL_ACCESS_TOKEN: 'dummy',
  BRAVE_API_KEY: 'dummy',
  SLACK_BOT_TOKEN: 'xoxb-dummy',
  SLACK_TEAM_ID: 'T0',
  GOOGLE_MAPS_API_KEY: 'dummy',
  GITLAB_PERSONAL_ACCESS_TOKEN: 'dummy',
  TAVILY_API_KEY: 'tvly-dummy',
  NOTION_TOKEN: 'ntn_dummy',
};

/** Whether this machine makes the namespaces `probe --sandbox` needs (a container may forbid them). */
const sandboxBlocked = (() => {
  const r = spawnSync('unshare', ['--net', '--mount', '--pid', '--fork', '--map-root-user', 'true'], { encoding: 'utf8' });
  return r.status === 0 ? false : `this machine cannot make Linux namespaces with unshare (${r.error?.message ?? r.stderr.trim()})`;
})();
if (sandboxBlocked) process.stderr.write(`realServersProbe: the servers that need the network are skipped: ${sandboxBlocked}\n`);

interface Case {
  /** Test name: the package and how it runs. */
  readonly name: string;
  /** The package folder under node_modules (its files must not change). */
  readonly pkg: string;
  readonly command: (dir: string) => string[];
  readonly sandbox: boolean;
  /** Extra probe arguments (a scenario file written into the temp folder). */
  readonly extra?: (dir: string) => string[];
  readonly files?: Record<string, string>;
  readonly exit: number;
  /** The summary line, after "mcp-aql-errors probe: ". */
  readonly summary: string;
  /** Rule → tool → how many findings. */
  readonly findings: Record<string, Record<string, number>>;
  /** The unknown tool's JSON-RPC error code and the level of its `runtime.unknown-tool-code` (docs/spec-decisions.md, "The code of an unknown tool"). */
  readonly unknownTool?: string;
  /** Listed tools with no call, and why. */
  readonly notCalled?: Record<string, string>;
  /** Extra checks on the recorded transcript (request and answer lines alternate). */
  readonly transcript?: (lines: string[], calls: Call[], dir: string) => void;
}

interface Call {
  n: number;
  tool: string;
  kind: string;
  answered: boolean;
}

const node =
  (path: string, ...args: string[]) =>
  (dir: string) => [
    '/usr/bin/env',
    `HOME=${join(dir, 'home')}`,
    ...Object.entries(DUMMY).map(([k, v]) => `${k}=${v}`),
    process.execPath,
    join(NM, path),
    ...args,
  ];
const MCP = '@modelcontextprotocol';
const each = <T>(tools: string[], v: T): Record<string, T> => Object.fromEntries(tools.map(t => [t, v]));
const UNKNOWN = 'mcp_aql_probe_no_such_tool';
const NO_PARAMS = 'no parameter to get wrong';
const NOT_READ_ONLY = 'not marked read-only (annotations.readOnlyHint), not a read operation; --sandbox or --allow-writes calls it';

const GITHUB_TOOLS = [
  'create_or_update_file',
  'search_repositories',
  'create_repository',
  'get_file_contents',
  'push_files',
  'create_issue',
  'create_pull_request',
  'fork_repository',
  'create_branch',
  'list_commits',
  'list_issues',
  'update_issue',
  'add_issue_comment',
  'search_code',
  'search_issues',
  'search_users',
  'get_issue',
  'get_pull_request',
  'list_pull_requests',
  'create_pull_request_review',
  'merge_pull_request',
  'get_pull_request_files',
  'get_pull_request_status',
  'update_pull_request_branch',
  'get_pull_request_comments',
  'get_pull_request_reviews',
];

const CASES: Case[] = [
  {
    name: 'server-filesystem, read-only tools on a temp root: the missing file reaches its own ENOENT',
    pkg: `${MCP}/server-filesystem`,
    command: dir => node(`${MCP}/server-filesystem/dist/index.js`, join(dir, 'root'))(dir),
    sandbox: false,
    exit: 0,
    summary:
      'MCP 2025-11-25 (handshake era); 28 of 28 calls sent, to 9 of 14 listed tools and an unknown tool; 5 tools not called, 7 kinds of call left out (the coverage says why)',
    findings: {
      'runtime.text-only-error': {
        ...each(['read_file', 'read_text_file', 'read_media_file', 'list_directory', 'directory_tree', 'search_files', 'get_file_info'], 3),
        read_multiple_files: 2,
        list_directory_with_sizes: 4,
        [UNKNOWN]: 1,
      },
    },
    notCalled: {
      ...each(['write_file', 'edit_file', 'create_directory', 'move_file'], NOT_READ_ONLY),
      list_allowed_directories: NO_PARAMS,
    },
    transcript: (lines, calls, dir) => {
      const missing = calls.filter(c => c.kind === 'not-found');
      assert.equal(missing.length, 8);
      for (const c of missing) {
        const answer = JSON.parse(lines[2 * c.n - 1]!) as { result: { isError: boolean; content: { text: string }[] } };
        assert.equal(answer.result.isError, true, c.tool);
        assert.ok(answer.result.content[0]!.text.startsWith('ENOENT: no such file or directory'), c.tool);
        assert.ok(answer.result.content[0]!.text.includes(join(dir, 'root', 'mcp-aql-probe-missing')), c.tool);
      }
    },
  },
  {
    name: 'server-memory, its file in the temp folder',
    pkg: `${MCP}/server-memory`,
    command: dir => ['/usr/bin/env', `MEMORY_FILE_PATH=${join(dir, 'memory.jsonl')}`, ...node(`${MCP}/server-memory/dist/index.js`)(dir)],
    sandbox: false,
    exit: 0,
    summary:
      'MCP 2025-11-25 (handshake era); 5 of 5 calls sent, to 2 of 9 listed tools and an unknown tool; 7 tools not called, 10 kinds of call left out (the coverage says why)',
    findings: { 'runtime.text-only-error': { search_nodes: 2, open_nodes: 2, [UNKNOWN]: 1 } },
    notCalled: {
      ...each(
        ['create_entities', 'create_relations', 'add_observations', 'delete_entities', 'delete_observations', 'delete_relations'],
        NOT_READ_ONLY,
      ),
      read_graph: NO_PARAMS,
    },
  },
  {
    name: 'server-everything: a made-up resource id answered with a reference to it',
    pkg: `${MCP}/server-everything`,
    command: node(`${MCP}/server-everything/dist/index.js`, 'stdio'),
    sandbox: false,
    exit: 0,
    summary:
      'MCP 2025-11-25 (handshake era); 15 of 15 calls sent, to 7 of 13 listed tools and an unknown tool; 6 tools not called, 14 kinds of call left out (the coverage says why)',
    findings: {
      'runtime.text-only-error': {
        echo: 2,
        'get-annotated-message': 3,
        'get-resource-links': 1,
        'get-resource-reference': 2,
        'get-structured-content': 2,
        'get-sum': 2,
        'trigger-long-running-operation': 1,
        [UNKNOWN]: 1,
      },
      'runtime.accepted-call': { 'get-resource-reference': 1 },
    },
    notCalled: {
      'get-env': NO_PARAMS,
      'get-tiny-image': NO_PARAMS,
      ...each(['gzip-file-as-resource', 'toggle-simulated-logging', 'toggle-subscriber-updates', 'simulate-research-query'], NOT_READ_ONLY),
    },
  },
  {
    name: 'server-sequential-thinking, a lenient server: a thought number sent as a string is coerced and answered as a success',
    pkg: `${MCP}/server-sequential-thinking`,
    command: node(`${MCP}/server-sequential-thinking/dist/index.js`),
    sandbox: false,
    files: {
      'scenarios.yaml':
        'scenarios:\n  - name: a thought number sent as a string\n    tool: sequentialthinking\n    arguments: { thought: t, nextThoughtNeeded: false, thoughtNumber: "1", totalThoughts: 1 }\n    expect: failure\n',
    },
    extra: dir => ['--scenarios', join(dir, 'scenarios.yaml')],
    exit: 1,
    summary:
      'MCP 2025-11-25 (handshake era); 4 of 4 calls sent, to 1 of 1 listed tool and an unknown tool; 0 tools not called, 1 kind of call left out (the coverage says why)',
    findings: {
      'runtime.text-only-error': { sequentialthinking: 2, [UNKNOWN]: 1 },
      'runtime.scenario-mismatch': { sequentialthinking: 1 },
    },
    transcript: lines => {
      const answer = JSON.parse(lines[7]!) as { result: { isError?: boolean; structuredContent: { thoughtNumber: unknown } } };
      assert.equal(answer.result.isError, undefined);
      assert.equal(answer.result.structuredContent.thoughtNumber, 1, 'the string "1" came back as the number 1');
    },
  },
  {
    name: 'server-github outside the sandbox: no annotations, so no tool is called (nothing reaches the network)',
    pkg: `${MCP}/server-github`,
    command: node(`${MCP}/server-github/dist/index.js`),
    sandbox: false,
    exit: 0,
    summary:
      'MCP 2024-11-05 (handshake era); 1 of 1 call sent, to 0 of 26 listed tools and an unknown tool; 26 tools not called, 26 kinds of call left out (the coverage says why)',
    findings: { 'runtime.unknown-tool-code': { [UNKNOWN]: 1 } },
    unknownTool: '-32603 warning',
    notCalled: each(GITHUB_TOOLS, NOT_READ_ONLY),
  },
  {
    name: 'server-github in the sandbox: every tool, every failure a JSON-RPC error',
    pkg: `${MCP}/server-github`,
    command: node(`${MCP}/server-github/dist/index.js`),
    sandbox: true,
    exit: 0,
    summary:
      'MCP 2024-11-05 (handshake era); 75 of 75 calls sent, to 26 of 26 listed tools and an unknown tool; 0 tools not called, 12 kinds of call left out (the coverage says why) (in the sandbox)',
    findings: {
      'runtime.protocol-error': {
        ...each(GITHUB_TOOLS, 3),
        ...each(
          ['search_repositories', 'push_files', 'create_issue', 'create_pull_request', 'fork_repository', 'create_branch', 'list_commits'],
          2,
        ),
        ...each(['update_issue', 'create_pull_request_review', 'merge_pull_request'], 4),
      },
      'runtime.unknown-tool-code': { [UNKNOWN]: 1 },
    },
    unknownTool: '-32603 warning',
  },
  {
    name: 'server-brave-search in the sandbox',
    pkg: `${MCP}/server-brave-search`,
    command: node(`${MCP}/server-brave-search/dist/index.js`),
    sandbox: true,
    exit: 0,
    summary:
      'MCP 2024-11-05 (handshake era); 5 of 5 calls sent, to 2 of 2 listed tools and an unknown tool; 0 tools not called, 2 kinds of call left out (the coverage says why) (in the sandbox)',
    findings: { 'runtime.text-only-error': { brave_web_search: 2, brave_local_search: 2, [UNKNOWN]: 1 } },
  },
  {
    name: 'server-slack in the sandbox: every failure answered as a success',
    pkg: `${MCP}/server-slack`,
    command: node(`${MCP}/server-slack/dist/index.js`),
    sandbox: true,
    exit: 1,
    summary:
      'MCP 2024-11-05 (handshake era); 21 of 21 calls sent, to 8 of 8 listed tools and an unknown tool; 0 tools not called, 2 kinds of call left out (the coverage says why) (in the sandbox)',
    findings: {
      'runtime.unflagged-failure': {
        ...each(
          [
            'slack_post_message',
            'slack_reply_to_thread',
            'slack_add_reaction',
            'slack_get_channel_history',
            'slack_get_thread_replies',
            'slack_get_user_profile',
          ],
          3,
        ),
        slack_list_channels: 1,
        slack_get_users: 1,
        [UNKNOWN]: 1,
      },
    },
  },
  {
    name: 'server-google-maps in the sandbox: no input check, the request built from whatever came',
    pkg: `${MCP}/server-google-maps`,
    command: node(`${MCP}/server-google-maps/dist/index.js`),
    sandbox: true,
    exit: 0,
    summary:
      'MCP 2024-11-05 (handshake era); 19 of 19 calls sent, to 7 of 7 listed tools and an unknown tool; 0 tools not called, 5 kinds of call left out (the coverage says why) (in the sandbox)',
    findings: {
      'runtime.text-only-error': {
        maps_geocode: 2,
        maps_reverse_geocode: 2,
        maps_search_places: 2,
        maps_place_details: 3,
        maps_distance_matrix: 3,
        maps_elevation: 2,
        maps_directions: 4,
        [UNKNOWN]: 1,
      },
    },
    transcript: lines => {
      // The wrong-typed address went into the request as "12345": only the missing network stopped it.
      assert.match(lines[3]!, /geocode\/json\?address=12345&key=dummy failed, reason: getaddrinfo/);
    },
  },
  {
    name: 'server-gitlab in the sandbox',
    pkg: `${MCP}/server-gitlab`,
    command: node(`${MCP}/server-gitlab/dist/index.js`),
    sandbox: true,
    exit: 0,
    summary:
      'MCP 2024-11-05 (handshake era); 28 of 28 calls sent, to 9 of 9 listed tools and an unknown tool; 0 tools not called, 1 kind of call left out (the coverage says why) (in the sandbox)',
    findings: {
      'runtime.protocol-error': {
        ...each(
          [
            'create_or_update_file',
            'get_file_contents',
            'push_files',
            'create_issue',
            'create_merge_request',
            'fork_repository',
            'create_branch',
          ],
          3,
        ),
        search_repositories: 2,
        create_repository: 4,
      },
      'runtime.unknown-tool-code': { [UNKNOWN]: 1 },
    },
    unknownTool: '-32603 warning',
  },
  {
    name: 'server-postgres in the sandbox (a database on a loopback port nothing listens on)',
    pkg: `${MCP}/server-postgres`,
    command: node(`${MCP}/server-postgres/dist/index.js`, 'postgresql://u:p@127.0.0.1:9/db'),
    sandbox: true,
    exit: 0,
    summary:
      'MCP 2024-11-05 (handshake era); 2 of 2 calls sent, to 1 of 1 listed tool and an unknown tool; 0 tools not called, 1 kind of call left out (the coverage says why) (in the sandbox)',
    findings: { 'runtime.protocol-error': { query: 1 }, 'runtime.unknown-tool-code': { [UNKNOWN]: 1 } },
    unknownTool: '-32603 warning',
  },
  {
    name: '@notionhq/notion-mcp-server in the sandbox',
    pkg: '@notionhq/notion-mcp-server',
    command: node('@notionhq/notion-mcp-server/bin/cli.mjs'),
    sandbox: true,
    exit: 0,
    summary:
      'MCP 2025-11-25 (handshake era); 64 of 64 calls sent, to 23 of 24 listed tools and an unknown tool; 1 tool not called, 7 kinds of call left out (the coverage says why) (in the sandbox)',
    findings: {
      'runtime.protocol-error': {
        ...each(
          [
            'API-get-user',
            'API-get-block-children',
            'API-patch-block-children',
            'API-retrieve-a-block',
            'API-update-a-block',
            'API-delete-a-block',
            'API-retrieve-a-page',
            'API-patch-page',
            'API-retrieve-a-page-property',
            'API-retrieve-a-comment',
            'API-query-data-source',
            'API-retrieve-a-data-source',
            'API-update-a-data-source',
            'API-list-data-source-templates',
            'API-retrieve-a-database',
            'API-move-page',
            'API-retrieve-page-markdown',
          ],
          3,
        ),
        ...each(['API-post-page', 'API-create-a-comment', 'API-create-a-data-source'], 2),
        'API-get-users': 1,
        'API-post-search': 1,
        'API-update-page-markdown': 4,
      },
      'runtime.unknown-tool-code': { [UNKNOWN]: 1 },
    },
    unknownTool: '-32603 warning',
    notCalled: { 'API-get-self': NO_PARAMS },
  },
  {
    name: 'tavily-mcp in the sandbox',
    pkg: 'tavily-mcp',
    command: node('tavily-mcp/build/index.js'),
    sandbox: true,
    exit: 0,
    summary:
      'MCP 2025-11-25 (handshake era); 17 of 17 calls sent, to 5 of 5 listed tools and an unknown tool; 0 tools not called, 3 kinds of call left out (the coverage says why) (in the sandbox)',
    findings: {
      'runtime.text-only-error': { tavily_search: 3, tavily_extract: 3, tavily_crawl: 4, tavily_map: 3, tavily_research: 3 },
      'runtime.unknown-tool-code': { [UNKNOWN]: 1 },
    },
    unknownTool: '-32601 info',
  },
  {
    name: '@upstash/context7-mcp in the sandbox, stateless 2026-07-28',
    pkg: '@upstash/context7-mcp',
    command: node('@upstash/context7-mcp/dist/index.js'),
    sandbox: true,
    exit: 1,
    summary:
      'MCP 2026-07-28 (stateless era); 7 of 7 calls sent, to 2 of 2 listed tools and an unknown tool; 0 tools not called, 0 kinds of call left out (the coverage says why) (in the sandbox)',
    findings: {
      'runtime.text-only-error': { 'resolve-library-id': 2, 'query-docs': 2 },
      'runtime.unflagged-failure': { 'resolve-library-id': 1, 'query-docs': 1 },
    },
  },
];

/** Every file under `dir` (nested node_modules left out) with its size, modification time and bytes. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    if (/(^|\/)node_modules(\/|$)/.test(name)) continue;
    const p = join(dir, name);
    const s = statSync(p);
    out[name] = s.isFile() ? `${s.size} ${s.mtimeMs} ${readFileSync(p, 'base64')}` : `dir ${s.mtimeMs}`;
  }
  return out;
}

/** The CLI as a user runs it, with only PATH and the temp home from this process's environment. */
function cli(args: string[], cwd: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise(done => {
    const p = spawn(process.execPath, [CLI, ...args], { cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(cwd, 'home') } });
    let out = '',
      err = '';
    p.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    p.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    const bound = setTimeout(() => p.kill('SIGKILL'), 80_000);
    p.on('close', code => {
      clearTimeout(bound);
      done({ code, out, err });
    });
  });
}

describe('probe against real npm servers, offline with dummy credentials', { concurrency: 4 }, () => {
  for (const c of CASES)
    it(c.name, { skip: c.sandbox && sandboxBlocked, timeout: 85_000 }, async () => {
      const dir = tempTree({ 'root/a.txt': 'alpha\n', 'root/sub/b.md': '# b\n', 'home/.keep': '', ...c.files });
      const pkg = join(NM, c.pkg);
      try {
        const record = join(dir, 'probe.responses.jsonl');
        const before = { dir: snapshot(dir), pkg: snapshot(pkg) };
        const r = await cli(
          [
            'probe',
            ...(c.sandbox ? ['--sandbox'] : []),
            '--format',
            'json',
            '--record',
            record,
            ...(c.extra?.(dir) ?? []),
            '--',
            ...c.command(dir),
          ],
          dir,
        );
        assert.equal(r.code, c.exit, r.err);
        assert.equal(r.err, `mcp-aql-errors probe: ${c.summary}\n`);
        const [file] = JSON.parse(r.out) as {
          diagnostics: { code: string; severity: string; call?: number }[];
          probe: {
            calls: Call[];
            coverage: { tool: string; planned: number; listed: boolean; skipped: { kind?: string; reason: string }[] }[];
          };
        }[];
        assert.ok(
          file!.probe.calls.every(k => k.answered),
          'every call answered',
        );
        const got: Record<string, Record<string, number>> = {};
        for (const d of file!.diagnostics) {
          if (d.code === 'runtime.session') continue;
          const tool = file!.probe.calls[d.call! - 1]!.tool;
          (got[d.code] ??= {})[tool] = (got[d.code]![tool] ?? 0) + 1;
        }
        assert.deepEqual(got, c.findings);
        const notCalled = Object.fromEntries(
          file!.probe.coverage.filter(k => k.listed && k.planned === 0).map(k => [k.tool, k.skipped.find(s => !s.kind)?.reason]),
        );
        assert.deepEqual(notCalled, c.notCalled ?? {});
        // The record is in the temp folder: take it out before comparing, then check what it holds.
        const lines = readFileSync(record, 'utf8').trim().split('\n');
        rmSync(record);
        // Each request and its answer, tool calls first (a server with resources also gets a resources/read).
        assert.ok(lines.length % 2 === 0 && lines.length >= 2 * file!.probe.calls.length, 'each request and its answer recorded');
        c.transcript?.(lines, file!.probe.calls, dir);
        // The unknown tool's answer, read from the record, beside the level of its finding.
        const unknownCall = file!.probe.calls.find(k => k.kind === 'unknown-tool')!;
        const unknownAnswer = JSON.parse(lines[2 * unknownCall.n - 1]!) as { error?: { code: unknown } };
        const unknownFinding = file!.diagnostics.find(d => d.code === 'runtime.unknown-tool-code');
        assert.equal(
          unknownFinding ? `${String(unknownAnswer.error?.code)} ${unknownFinding.severity}` : undefined,
          c.unknownTool,
          lines[2 * unknownCall.n - 1],
        );
        assert.deepEqual(snapshot(dir), before.dir, 'nothing in the temp folder written, changed or removed');
        assert.deepEqual(snapshot(pkg), before.pkg, "nothing in the server's own package changed");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
});
