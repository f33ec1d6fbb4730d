/**
 * Real MCP servers nobody on this project wrote, from npm as dev dependencies and
 * started over stdio, no network: @modelcontextprotocol/server-filesystem (on a temp folder),
 * server-memory (its file in a temp folder) and server-everything. `watch` passes a scripted session
 * through byte for byte — compared end to end with what the server itself read and wrote (tee.js
 * between watch and the server) — and `probe` reports what each does with a bad call.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, run, tempTree } from './helpers';

const CLI = join(ROOT, 'dist/cli.js');
const TEE = join(ROOT, 'test/fixtures/runtime/tee.js');
const PKG = join(ROOT, 'node_modules/@modelcontextprotocol');

/** The server's command for a temp folder `dir` (the filesystem server's root, the memory server's file). */
const SERVERS: Record<string, (dir: string) => string[]> = {
  filesystem: dir => [process.execPath, join(PKG, 'server-filesystem/dist/index.js'), join(dir, 'root')],
  memory: dir => [
    '/usr/bin/env',
    `MEMORY_FILE_PATH=${join(dir, 'memory.jsonl')}`,
    process.execPath,
    join(PKG, 'server-memory/dist/index.js'),
  ],
  everything: () => [process.execPath, join(PKG, 'server-everything/dist/index.js'), 'stdio'],
};

/** Two calls per server: one that works, one built to fail. */
const CALLS: Record<string, (dir: string) => [string, object][]> = {
  filesystem: dir => [
    ['list_directory', { path: join(dir, 'root') }],
    ['read_text_file', {}],
  ],
  memory: () => [
    ['search_nodes', { query: 'x' }],
    ['open_nodes', { names: 'not-a-list' }],
  ],
  everything: () => [
    ['echo', { message: 'hello' }],
    ['get-sum', { a: 'one', b: 2 }],
  ],
};

/** Every file under `dir` with its size, modification time and bytes. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const p = join(dir, name);
    const s = statSync(p);
    out[name] = s.isFile() ? `${s.size} ${s.mtimeMs} ${readFileSync(p, 'base64')}` : `dir ${s.mtimeMs}`;
  }
  return out;
}

const tempFor = () => tempTree({ 'root/a.txt': 'alpha\n', 'root/sub/b.md': '# b\n' });

/** A scripted client through `watch -- tee.js <server>`: each request sent once the previous one is answered. */
function session(name: string, dir: string): Promise<{ code: number | null; sent: Buffer; got: Buffer; stderr: string }> {
  const lines = [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ...CALLS[name]!(dir).map(([tool, args], i) => ({
      jsonrpc: '2.0',
      id: 3 + i,
      method: 'tools/call',
      params: { name: tool, arguments: args },
    })),
  ];
  return new Promise(done => {
    const p = spawn(process.execPath, [CLI, 'watch', '--', process.execPath, TEE, ...SERVERS[name]!(dir)], {
      env: { ...process.env, TEE_IN: join(dir, 'tee.in'), TEE_OUT: join(dir, 'tee.out') },
    });
    const sent: Buffer[] = [];
    const got: Buffer[] = [];
    let stderr = '';
    let next = 0;
    const send = () => {
      while (next < lines.length) {
        const m = lines[next++]!;
        const b = Buffer.from(JSON.stringify(m) + '\n');
        sent.push(b);
        p.stdin.write(b);
        if ('id' in m) return; // wait for its answer
      }
      p.stdin.end();
    };
    p.stdout.on('data', (c: Buffer) => {
      got.push(c);
      const answered = Buffer.concat(got)
        .toString('utf8')
        .split('\n')
        .filter(Boolean)
        .map(l => JSON.parse(l) as { id?: number });
      if (answered.some(a => a.id === (lines[next - 1] as { id?: number }).id)) send();
    });
    p.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const bound = setTimeout(() => p.kill('SIGKILL'), 60_000);
    p.on('close', code => {
      clearTimeout(bound);
      done({ code, sent: Buffer.concat(sent), got: Buffer.concat(got), stderr });
    });
    send();
  });
}

for (const name of Object.keys(SERVERS))
  test(`watch: a session with server-${name} passes through byte for byte, both ways`, async () => {
    const dir = tempFor();
    try {
      const before = snapshot(join(dir, 'root'));
      const r = await session(name, dir);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(r.sent.equals(readFileSync(join(dir, 'tee.in'))), 'the server read exactly what the client sent');
      assert.ok(r.got.equals(readFileSync(join(dir, 'tee.out'))), 'the client got exactly what the server wrote');
      assert.equal(
        r.got
          .toString('utf8')
          .split('\n')
          .filter(l => /"id":[345]\b/.test(l)).length,
        2,
        'both calls answered',
      );
      const findings = r.stderr.split('\n').filter(l => l.startsWith('mcp-aql-errors watch:'));
      assert.equal(findings.length, 2, r.stderr);
      assert.match(findings[0]!, /^mcp-aql-errors watch: \S+ \(id 4\): information runtime\.text-only-error: .*"MCP error -32602: /);
      assert.equal(findings[1], 'mcp-aql-errors watch: 2 tool calls checked, 1 finding (0 errors)');
      assert.deepEqual(snapshot(join(dir, 'root')), before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

/**
 * What each real server does with the probe's calls (pinned: these servers at 2026.8.31): the calls
 * that fail the schema are refused as text-only tool errors; the calls that name a missing thing reach
 * the tool's own code (the filesystem server's ENOENT inside its root); the everything server makes up
 * a resource for any id, which is an accepted call.
 */
const PROBED: Record<string, { calls: number; missing: number; accepted: string[]; summary: RegExp }> = {
  filesystem: {
    calls: 28,
    missing: 8,
    accepted: [],
    summary: /^28 of 28 calls sent, to 9 of 14 listed tools and an unknown tool; 5 tools not called, 7 kinds of call left out/,
  },
  memory: {
    calls: 5,
    missing: 0,
    accepted: [],
    summary: /^5 of 5 calls sent, to 2 of 9 listed tools and an unknown tool; 7 tools not called/,
  },
  everything: {
    calls: 15,
    missing: 1,
    accepted: ['get-resource-reference'],
    summary: /^15 of 15 calls sent, to \d+ of 13 listed tools and an unknown tool/,
  },
};

for (const [name, want] of Object.entries(PROBED))
  test(`probe: server-${name}: the schema's refusals as text-only tool errors, the missing things through its own code; its data untouched`, async () => {
    const dir = tempFor();
    try {
      const before = snapshot(dir);
      const r = await run(
        ['probe', '--format', 'json', '--record', join(dir, '..', `${name}.probe.jsonl`), '--', ...SERVERS[name]!(dir)],
        dir,
      );
      const transcript = readFileSync(join(dir, '..', `${name}.probe.jsonl`), 'utf8')
        .trim()
        .split('\n');
      rmSync(join(dir, '..', `${name}.probe.jsonl`));
      assert.equal(r.code, 0, r.err);
      const [file] = JSON.parse(r.out) as {
        diagnostics: { line: number; code: string; message: string; call: number }[];
        probe: { calls: { n: number; tool: string; kind: string; answered: boolean }[] };
      }[];
      assert.equal(file!.probe.calls.length, want.calls);
      assert.ok(file!.probe.calls.every(c => c.answered));
      // What it negotiated: 2025-11-25, with the handshake (the discovery refused first).
      const session = file!.diagnostics.find(d => d.code === 'runtime.session');
      assert.match(session!.message, /^MCP 2025-11-25, the handshake era \(initialize\), over stdio, with /);
      file!.diagnostics.splice(file!.diagnostics.indexOf(session!), 1);
      const accepted = file!.diagnostics.filter(d => d.code === 'runtime.accepted-call');
      assert.deepEqual(
        accepted.map(d => file!.probe.calls[d.call - 1]!.tool),
        want.accepted,
      );
      for (const d of file!.diagnostics.filter(d => d.code !== 'runtime.accepted-call')) {
        assert.equal(d.code, 'runtime.text-only-error');
        const kind = file!.probe.calls[d.call - 1]!.kind;
        if (kind !== 'not-found')
          assert.match(
            d.message,
            /reported a failure as text only \("MCP error -32602: (Input validation error|Tool mcp_aql_probe_no_such_tool not found)/,
          );
      }
      const missing = file!.probe.calls.filter(c => c.kind === 'not-found');
      assert.equal(missing.length, want.missing);
      if (name === 'filesystem')
        for (const c of missing) {
          // Each answer is the line after its request; the server's own "no such file", inside its root.
          const answer = JSON.parse(transcript[2 * c.n - 1]!) as { result: { isError: boolean; content: { text: string }[] } };
          assert.equal(answer.result.isError, true, c.tool);
          assert.match(
            answer.result.content[0]!.text,
            /^ENOENT: no such file or directory, \w+ '.*[\\/]root[\\/]mcp-aql-probe-missing/,
            c.tool,
          );
        }
      assert.match(r.err.replace(/^mcp-aql-errors probe: MCP 2025-11-25 \(handshake era\); /, ''), want.summary);
      assert.deepEqual(snapshot(dir), before, 'no file written, changed or removed');
      if (name === 'memory') assert.ok(!existsSync(join(dir, 'memory.jsonl')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

test('probe --list --allow-writes sends nothing: the memory server writes no file', async () => {
  const dir = tempFor();
  try {
    const r = await run(['probe', '--list', '--allow-writes', '--', ...SERVERS.memory!(dir)], dir);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^call {2}create_entities: a missing required parameter 'entities' \{\}$/m);
    assert.ok(!existsSync(join(dir, 'memory.jsonl')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Whether this machine makes the namespaces `probe --sandbox` needs (a container may forbid them). */
const sandboxBlocked = (() => {
  const r = spawnSync('unshare', ['--net', '--mount', '--pid', '--fork', '--map-root-user', 'true'], { encoding: 'utf8' });
  return r.status === 0 ? false : `this machine cannot make Linux namespaces with unshare (${r.error?.message ?? r.stderr.trim()})`;
})();

for (const name of ['filesystem', 'memory'])
  test(
    `probe --sandbox: server-${name} gets every tool called, write tools included, and nothing outside the sandbox changes`,
    { skip: sandboxBlocked },
    async () => {
      const dir = tempFor();
      try {
        const before = snapshot(dir);
        const r = await run(['probe', '--sandbox', '--format', 'json', '--', ...SERVERS[name]!(dir)], dir);
        assert.equal(r.code, 0, r.err);
        const [file] = JSON.parse(r.out) as { probe: { coverage: { tool: string; listed: boolean; planned: number; sent: number }[] } }[];
        const listed = file!.probe.coverage.filter(c => c.listed && c.planned > 0);
        const writes =
          name === 'filesystem' ? ['write_file', 'edit_file', 'create_directory', 'move_file'] : ['create_entities', 'delete_entities'];
        for (const w of writes)
          assert.ok(
            listed.some(c => c.tool === w && c.sent === c.planned),
            `${w} called in the sandbox`,
          );
        assert.match(r.err, /\(in the sandbox\)\n$/);
        assert.deepEqual(snapshot(dir), before, 'no file written, changed or removed');
        if (name === 'memory') assert.ok(!existsSync(join(dir, 'memory.jsonl')));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

test('probe --sandbox where the machine cannot make it: exit 2 and why, the server never started unsandboxed', async () => {
  const dir = tempTree({ 'bin/unshare': '#!/bin/sh\necho "unshare: unshare failed: Operation not permitted" >&2\nexit 1\n' });
  try {
    chmodSync(join(dir, 'bin/unshare'), 0o755);
    const marker = join(dir, 'started');
    const r = spawnSync(
      process.execPath,
      [CLI, 'probe', '--sandbox', '--', process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`],
      {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, PATH: `${join(dir, 'bin')}:${process.env.PATH}` },
      },
    );
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^mcp-aql-errors: probe --sandbox: this machine cannot make the sandbox .*Operation not permitted/);
    assert.ok(!existsSync(marker), 'the server was not started');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
