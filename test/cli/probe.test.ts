/**
 * `probe`: the example MCP-AQL server (examples/server) clean and with each
 * of its slips, and a misbehaving server (no answer, a crash, bad calls accepted). Each server is a
 * real child process on the SDK; the CLI runs in-process.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, run, tempTree } from './helpers';
import { alive, eventually } from '../processes';

const EXAMPLE = ['--contract', 'examples/server', '--', process.execPath, 'examples/server/server.mjs'];
const BAD = join(ROOT, 'test/fixtures/runtime/badServer.mjs');

interface JsonReport {
  file: string;
  diagnostics: { line: number; code: string; severity: string; message: string }[];
}
/** The findings, without the session's hint (`runtime.session`, pinned in probeEras.test.ts). */
const findings = (out: string) =>
  (JSON.parse(out) as JsonReport[]).flatMap(f => f.diagnostics.filter(d => d.code !== 'runtime.session').map(d => `${d.line} ${d.code}`));

test('--list prints the plan: reads through mcp_aql_read, writes skipped, one unknown tool', async () => {
  const r = await run(['probe', '--list', '--format', 'json', ...EXAMPLE]);
  assert.equal(r.code, 0, r.err);
  const plan = JSON.parse(r.out) as {
    calls: { tool: string; operation?: string; case: { kind: string } }[];
    skipped: { tool: string; operation?: string }[];
  };
  assert.deepEqual(
    plan.calls.map(c => `${c.tool} ${c.operation ?? ''} ${c.case.kind}`),
    [
      'mcp_aql_read mcp_aql_probe_no_such_operation unknown-operation',
      'mcp_aql_read get_note missing-required',
      'mcp_aql_read get_note wrong-type',
      'mcp_aql_read get_note bad-enum',
      'mcp_aql_read get_note not-found',
      'mcp_aql_read list_notes wrong-type',
      'mcp_aql_probe_no_such_tool  unknown-tool',
    ],
  );
  assert.deepEqual(
    plan.skipped.map(s => `${s.tool} ${s.operation ?? ''}`),
    ['mcp_aql_create ', 'mcp_aql_read list_notes', 'mcp_aql_create add_note'],
  );
});

test('the example server answers every bad call by its contract: exit 0, no finding', async () => {
  const r = await run(['probe', '--format', 'json', ...EXAMPLE]);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(findings(r.out), []);
  assert.equal(
    r.err,
    'mcp-aql-errors probe: MCP 2025-11-25 (handshake era); 7 of 7 calls sent, to 1 of 2 listed tools and an unknown tool; 1 tool not called, 3 kinds of call left out (the coverage says why)\n',
  );
});

// Each answer is on an even line of the transcript (the request above it).
const SLIPS: Record<string, { code: number; found: string[] }> = {
  'is-error': { code: 1, found: [2, 4, 6, 8, 10, 12].map(l => `${l} runtime.unflagged-failure`) },
  'undeclared-code': { code: 1, found: [2, 4, 6, 8, 10, 12].map(l => `${l} verify.unknown-code`) },
  drift: {
    code: 0,
    found: [
      '2 verify.message-localized',
      '4 verify.message-localized',
      '6 verify.message-mismatch',
      '8 verify.message-mismatch',
      '10 verify.message-localized', // the missing note: the server's own not-found path
      '12 verify.message-mismatch',
    ],
  },
  'missing-detail': { code: 1, found: [2, 4, 6, 8, 10, 12].map(l => `${l} verify.missing-detail`) },
};
for (const [slip, want] of Object.entries(SLIPS))
  test(`the example server's slip '${slip}' is caught`, async () => {
    const r = await run(['probe', '--format', 'json', ...EXAMPLE, '--slip', slip]);
    assert.equal(r.code, want.code, r.err);
    assert.deepEqual(findings(r.out), want.found);
  });

test('a call not answered within --timeout, then a crash: both reported, the calls after the crash not sent', async () => {
  const r = await run(['probe', '--timeout', '1500', '--format', 'json', '--', process.execPath, BAD]);
  assert.equal(r.code, 1, r.err);
  assert.deepEqual(findings(r.out), [
    '2 runtime.accepted-call', // quiet, missing id: answered "ok"
    '4 runtime.accepted-call', // quiet, wrong type
    '6 runtime.accepted-call', // quiet, a missing id
    '7 runtime.no-answer', // hang, missing id (the request line)
    '8 runtime.no-answer', // hang, wrong type
    '9 runtime.no-answer', // hang, a missing id
    '10 runtime.server-exited', // crash
  ]);
  assert.equal(
    r.err,
    'mcp-aql-errors probe: MCP 2025-11-25 (handshake era); 7 of 10 calls sent, to 3 of 3 listed tools; 0 tools not called, 0 kinds of call left out (the coverage says why); the server exited\n',
  );
});

test('the text report: findings grouped by rule with one example, its request and a command that sends it again; the coverage; no file that was not written', async () => {
  const r = await run(['probe', '--', process.execPath, BAD, 'quiet']);
  assert.equal(r.code, 0, 'an accepted call is a warning');
  const lines = r.out.split('\n').slice(1);
  assert.match(r.out, /^MCP 2025-11-25, the handshake era \(initialize\), over stdio, with bad 1\.0\.0\.\n/);
  assert.equal(lines[0], '4 findings (4 warnings) on 4 calls');
  assert.equal(lines[1], 'warning  runtime.accepted-call  ×4, on 2 tools: quiet, mcp_aql_probe_no_such_tool');
  assert.match(
    lines[2]!,
    /^ {2}e\.g\. 'quiet' accepted a call built to fail \(a missing required parameter 'id'\) and answered a success with 'isError' absent \(false\) and the text "ok"/,
  );
  assert.match(
    lines[3]!,
    /^ {4}request: \{"method":"tools\/call","params":\{"name":"quiet","arguments":\{\}\},"jsonrpc":"2\.0","id":\d+\}$/,
  );
  assert.match(
    lines[4]!,
    /^ {4}again: {3}printf '%s\\n' '\{"method":"initialize",.*'\{"jsonrpc":"2\.0","method":"notifications\/initialized"\}' '\{"method":"tools\/call".*\}' \| \S+ \S+badServer\.mjs quiet$/,
  );
  assert.ok(!r.out.includes('probe.responses.jsonl'), 'no reference to a transcript that was not written');
  assert.match(r.out, /^Coverage \(per tool/m);
  assert.match(r.out, /^ {2}quiet {2,}3 planned, 3 sent, 3 answered: missing-required, wrong-type, not-found$/m);
});

test('the command that sends a call again reproduces its answer', async () => {
  const r = await run(['probe', '--format', 'json', '--', process.execPath, BAD, 'quiet']);
  const [file] = JSON.parse(r.out) as {
    diagnostics: { call: number }[];
    probe: { calls: { n: number; replay: string; request: string }[] };
  }[];
  const call = file!.probe.calls.find(c => c.n === file!.diagnostics.find(d => d.call !== undefined)!.call)!;
  const { execSync } = await import('node:child_process');
  const out = execSync(call.replay, { cwd: ROOT, encoding: 'utf8', shell: '/bin/sh', timeout: 20_000 });
  const answer = out
    .trim()
    .split('\n')
    .map(l => JSON.parse(l) as { id?: unknown; result?: unknown })
    .find(m => m.id === JSON.parse(call.request).id);
  assert.deepEqual(answer?.result, { content: [{ type: 'text', text: 'ok' }] });
});

test('--record: the text report cites positions in the file it wrote', async () => {
  const dir = tempTree({});
  try {
    const r = await run(['probe', '--record', 't.jsonl', '--', process.execPath, BAD, 'quiet'], dir);
    assert.match(r.out, /^ {4}in t\.jsonl at 2:\d+, 4:\d+, 6:\d+, 8:\d+$/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a command that is no MCP server, or none at all: exit 2, one line', async () => {
  const none = await run(['probe', '--timeout', '2000', '--', join(ROOT, 'no-such-server-binary')]);
  assert.equal(none.code, 2);
  assert.match(none.err, /^mcp-aql-errors probe: cannot start '.*no-such-server-binary' as an MCP server: .*ENOENT.*\n$/);
  const notMcp = await run(['probe', '--timeout', '2000', '--', process.execPath, '-e', 'process.stderr.write("hello\\n")']);
  assert.equal(notMcp.code, 2);
  assert.match(notMcp.err, /^mcp-aql-errors probe: cannot start '.*' as an MCP server: .*\nthe server's last stderr lines:\n {2}hello\n$/);
});

test('usage errors: exit 2', async () => {
  for (const [args, message] of [
    [['probe', '--timeout', '0', '--', 'x'], '--timeout takes milliseconds, 1 to 600000'],
    [['probe', '--allow', '--', 'x'], "probe: unknown option '--allow'"],
    [['probe', '--contract', 'README.md', '--', 'x'], "--contract: 'README.md' is not an adapter file"],
    [['probe', '--format', 'pdf', '--', 'x'], "unknown format 'pdf'"],
  ] as const) {
    const r = await run([...args]);
    assert.equal(r.code, 2, args.join(' '));
    assert.ok(r.err.startsWith(`mcp-aql-errors: ${message}`), r.err);
  }
});

test('--record writes the transcript, which verify reads as is; the report points into it', async () => {
  const dir = tempTree({});
  try {
    const r = await run(['probe', '--record', 'out/quiet.responses.jsonl', '--format', 'json', '--', process.execPath, BAD, 'quiet'], dir);
    assert.equal(r.code, 0, r.err);
    const report = JSON.parse(r.out) as JsonReport[];
    assert.equal(report[0]!.file, 'out/quiet.responses.jsonl');
    const text = readFileSync(join(dir, 'out/quiet.responses.jsonl'), 'utf8');
    const lines = text.split('\n');
    assert.equal(lines.length, 9, 'four requests, four answers, a final newline');
    assert.deepEqual(JSON.parse(lines[1]!), {
      jsonrpc: '2.0',
      id: JSON.parse(lines[0]!).id,
      result: { content: [{ type: 'text', text: 'ok' }] },
    });
    assert.deepEqual(findings(r.out), [
      '2 runtime.accepted-call',
      '4 runtime.accepted-call',
      '6 runtime.accepted-call',
      '8 runtime.accepted-call',
    ]);
    const v = await run(['verify', join(ROOT, 'examples/server/notes.adapter.yaml'), 'out/quiet.responses.jsonl'], dir);
    assert.equal(v.code, 0, v.out + v.err);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a server that lists hundreds of tools: at most 1,000 calls are sent', async () => {
  const r = await run(['probe', '--format', 'json', '--', process.execPath, BAD, 'many']);
  assert.equal(r.code, 0);
  assert.equal(findings(r.out).length, 1000);
  assert.equal(
    r.err,
    'mcp-aql-errors probe: MCP 2025-11-25 (handshake era); 1000 of 1801 calls sent, to 334 of 600 listed tools; 266 tools not called, 0 kinds of call left out (the coverage says why); stopped at 1000 calls\n',
  );
});

const STUBBORN = join(ROOT, 'test/fixtures/runtime/stubbornServer.js');

test("SIGTERM to probe (the editor's Cancel) stops the server too, even one that ignores it and its input's end; probe ends by that signal", async () => {
  const dir = tempTree({});
  const pidFile = join(dir, 'pid');
  let pid = 0;
  try {
    const p = spawn(process.execPath, [join(ROOT, 'dist/cli.js'), 'probe', '--', process.execPath, STUBBORN], {
      env: { ...process.env, STUBBORN_PID: pidFile },
      stdio: 'ignore',
    });
    const ended = new Promise<NodeJS.Signals | null>(r => p.on('close', (_code, signal) => r(signal)));
    assert.ok(await eventually(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '', 30_000), 'the server started');
    pid = Number(readFileSync(pidFile, 'utf8'));
    p.kill('SIGTERM');
    const bound = setTimeout(() => p.kill('SIGKILL'), 30_000);
    assert.equal(await ended, 'SIGTERM');
    clearTimeout(bound);
    assert.ok(await eventually(() => !alive(pid), 10_000), `the server (pid ${pid}) is still running`);
  } finally {
    if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
