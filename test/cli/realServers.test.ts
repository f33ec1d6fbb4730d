/**
 * Real MCP servers nobody on this project wrote, from npm as dev dependencies and
 * started over stdio, no network: @modelcontextprotocol/server-filesystem (on a temp folder),
 * server-memory (its file in a temp folder) and server-everything. `watch` passes a scripted session
 * through byte for byte — compared end to end with what the server itself read and wrote (tee.js
 * between watch and the server) — and `probe` reports what each does with a bad call.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
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

/** What each real server does with the probe's bad calls (pinned: these servers at 2026.8.31). */
const PROBED: Record<string, { calls: number; tools: number; skipped: number }> = {
  filesystem: { calls: 20, tools: 14, skipped: 5 },
  memory: { calls: 5, tools: 9, skipped: 7 },
  everything: { calls: 14, tools: 13, skipped: 6 },
};

for (const [name, want] of Object.entries(PROBED))
  test(`probe: server-${name} reports every bad call as a failure (isError true), as text only; its data untouched`, async () => {
    const dir = tempFor();
    try {
      const before = snapshot(dir);
      const r = await run(['probe', '--format', 'json', '--', ...SERVERS[name]!(dir)], dir);
      assert.equal(r.code, 0, r.err);
      const report = JSON.parse(r.out) as { diagnostics: { line: number; code: string; message: string }[] }[];
      const ds = report.flatMap(f => f.diagnostics);
      assert.deepEqual(
        ds.map(d => `${d.line} ${d.code}`),
        Array.from({ length: want.calls }, (_, i) => `${2 * i + 2} runtime.text-only-error`),
      );
      for (const d of ds)
        assert.match(
          d.message,
          /reported a failure as text only \("MCP error -32602: (Input validation error|Tool mcp_aql_probe_no_such_tool not found)/,
        );
      assert.equal(
        r.err,
        `mcp-aql-errors probe: ${want.calls} of ${want.calls} calls sent to ${want.tools} tools (${want.skipped} skipped: --list shows why)\n`,
      );
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
