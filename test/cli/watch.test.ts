/**
 * `watch` (issue 24 item 1): the transparent stdio proxy, run as the host runs it (dist/cli.js as a
 * child process): bytes end to end, exit codes and signals, findings on stderr, --record and -o.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, run, tempTree } from './helpers';

const CLI = join(ROOT, 'dist/cli.js');
const FAKE = join(ROOT, 'test/fixtures/runtime/fakeServer.js');

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
}

/** watch as a child; each chunk written on its own turn; a hang is bounded by a kill after 30 s. */
function watch(
  args: string[],
  chunks: Buffer[],
  o: { env?: NodeJS.ProcessEnv; cwd?: string; signalWhenStarted?: NodeJS.Signals; keepStdinOpen?: boolean } = {},
): Promise<Ended> {
  return new Promise(done => {
    const p = spawn(process.execPath, [CLI, 'watch', ...args], { cwd: o.cwd ?? ROOT, env: { ...process.env, ...o.env } });
    const out: Buffer[] = [];
    let err = '';
    p.stdout.on('data', (c: Buffer) => out.push(c));
    let signalled = false;
    p.stderr.on('data', (c: Buffer) => {
      err += c.toString('utf8');
      // The server is up (its first stderr line): now the signal has someone to reach.
      if (o.signalWhenStarted && !signalled && err.includes('fake server: started\n')) {
        signalled = true;
        p.kill(o.signalWhenStarted);
      }
    });
    const bound = setTimeout(() => p.kill('SIGKILL'), 30_000);
    p.on('close', (code, signal) => {
      clearTimeout(bound);
      done({ code, signal, stdout: Buffer.concat(out), stderr: err });
    });
    let i = 0;
    const next = () => {
      if (i < chunks.length) {
        p.stdin.write(chunks[i++]!, () => setTimeout(next, 2));
        return;
      }
      if (!o.signalWhenStarted && !o.keepStdinOpen) p.stdin.end();
    };
    next();
  });
}

const msg = (o: object) => JSON.stringify(o) + '\n';

test('bytes pass through unchanged: split messages, several in a chunk, non-JSON, invalid UTF-8, a 3 MB message; exit code passed on', async () => {
  const huge = msg({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'x', arguments: { blob: 'é'.repeat(1_500_000) } } });
  const whole = Buffer.concat([
    Buffer.from(msg({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} })),
    Buffer.from(
      msg({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) + msg({ jsonrpc: '2.0', method: 'notifications/x' }) + 'not json at all\n',
    ),
    Buffer.from([0xff, 0xfe, 0x7b, 0x0a, 0xe2, 0x82]), // invalid UTF-8, then half of a three-byte character…
    Buffer.from([0xac, 0x0a]), // …finished in the next chunk
    Buffer.from(huge),
    Buffer.from('{"jsonrpc":"2.0","id":3,"meth'),
    Buffer.from('od":"ping"}\r\n'),
    Buffer.from('no final newline'),
  ]);
  // Cut into irregular chunks, none on a line boundary on purpose.
  const chunks: Buffer[] = [];
  for (let at = 0, k = 0; at < whole.length; k++) {
    const n = [1, 7, 300, 65_537, 3][k % 5]!;
    chunks.push(whole.subarray(at, at + n));
    at += n;
  }
  const r = await watch(['--', process.execPath, FAKE, 'echo'], chunks, { env: { FAKE_EXIT: '3' } });
  assert.equal(r.code, 3);
  assert.ok(r.stdout.equals(whole), `stdout differs (${r.stdout.length} bytes vs ${whole.length})`);
  assert.match(r.stderr, /^fake server: started\n/m, "the server's stderr is passed on");
  assert.match(r.stderr, /mcp-aql-errors watch: 0 tool calls checked, 0 findings \(0 errors\)\n$/);
});

test('SIGTERM to watch reaches the server, and watch ends by that signal', async () => {
  const dir = tempTree({});
  try {
    const mark = join(dir, 'mark');
    const r = await watch(['--', process.execPath, FAKE, 'echo'], [Buffer.from(msg({ jsonrpc: '2.0', id: 1, method: 'ping' }))], {
      env: { FAKE_MARK: mark },
      signalWhenStarted: 'SIGTERM',
    });
    assert.equal(r.signal, 'SIGTERM');
    assert.equal(readFileSync(mark, 'utf8'), 'SIGTERM');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a server that cannot start: exit 2, one line, even while the host keeps stdin open', async () => {
  const r = await watch(['--', join(ROOT, 'no-such-server-binary')], [], { keepStdinOpen: true });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^mcp-aql-errors watch: cannot start '.*no-such-server-binary': spawn .* ENOENT\n$/);
});

test('usage: the command after --, known options only', async () => {
  for (const [args, message] of [
    [['node', 'x.js'], "watch needs the server's command after '--'"],
    [['--bogus', '--', 'node'], "watch: unknown option '--bogus'"],
    [['--timeout', '5', '--', 'node'], "watch: unknown option '--timeout'"],
  ] as const) {
    const r = await watch([...args], []);
    assert.equal(r.code, 2, args.join(' '));
    assert.ok(r.stderr.startsWith(`mcp-aql-errors: ${message}`), r.stderr);
  }
});

const ADAPTER = [
  'name: shop',
  'type: adapter',
  'error_codes:',
  '  NOT_FOUND_ORDER:',
  '    category: NOT_FOUND',
  '    message_template: "Order \'{order_id}\' not found"',
  '    details:',
  '      order_id: { type: string, required: true }',
  '',
].join('\n');

test('findings: one line each on stderr; --record holds every response; -o writes the report', async () => {
  const dir = tempTree({ 'shop.adapter.yaml': ADAPTER });
  try {
    const calls = ['quiet_failure', 'good_failure', 'protocol', 'envelope_mismatch', 'fine', 'nope'];
    const input = [
      msg({ jsonrpc: '2.0', id: 0, method: 'tools/list' }),
      ...calls.map((name, i) => msg({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name, arguments: {} } })),
    ].join('');
    const r = await watch(
      [
        '--contract',
        'shop.adapter.yaml',
        '--record',
        'session.responses.jsonl',
        '--format',
        'json',
        '-o',
        'report.json',
        '--',
        process.execPath,
        FAKE,
        'tools',
      ],
      [Buffer.from(input)],
      { cwd: dir },
    );
    assert.equal(r.code, 0);
    const lines = r.stderr.split('\n').filter(l => l.startsWith('mcp-aql-errors watch:'));
    assert.deepEqual(lines, [
      `mcp-aql-errors watch: quiet_failure (id 1): warning runtime.unflagged-failure: 'quiet_failure' answered with 'isError' false but its text reads as a failure ("Error: repository not found"): set isError true, or send an MCP-AQL envelope.`,
      `mcp-aql-errors watch: good_failure (id 2): warning runtime.text-only-error: 'good_failure' reported a failure as text only ("repository not found"): no MCP-AQL envelope, no code a client can branch on.`,
      `mcp-aql-errors watch: protocol (id 3): warning runtime.protocol-error: 'protocol' is a listed tool, but its failure came as JSON-RPC error -32602: a host may hide it from the model; send a tool result with isError true (MCP 2025-11-25, Tools: error handling).`,
      `mcp-aql-errors watch: envelope_mismatch (id 4): error verify.is-error: 'isError' is false but should be true: NOT_FOUND_ORDER is not one of the recoverable codes (mcp-integration.md s4.1): a client must see a failed call.`,
      'mcp-aql-errors watch: 6 tool calls checked, 4 findings (1 error)',
    ]);
    const stdoutLines = r.stdout.toString('utf8').split('\n').filter(Boolean);
    assert.equal(stdoutLines.length, 7);
    assert.equal(
      readFileSync(join(dir, 'session.responses.jsonl'), 'utf8'),
      stdoutLines.join('\n') + '\n',
      'every response recorded as sent',
    );
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
      file: string;
      diagnostics: { code: string; line: number }[];
    }[];
    assert.deepEqual(
      report.flatMap(f => f.diagnostics.map(d => [f.file, d.code, d.line])),
      [
        ['watch.responses.jsonl', 'runtime.unflagged-failure', 1],
        ['watch.responses.jsonl', 'runtime.text-only-error', 2],
        ['watch.responses.jsonl', 'runtime.protocol-error', 3],
        ['watch.responses.jsonl', 'verify.is-error', 4],
      ],
    );
    assert.ok(!existsSync(join(dir, 'watch.responses.jsonl')), 'the report names the transcript; it writes no such file');
    // The record is read by verify as it is: the same envelope finding, on the record's line 5.
    const v = await run(['verify', 'shop.adapter.yaml', 'session.responses.jsonl', '--format', 'json'], dir);
    assert.deepEqual(
      (JSON.parse(v.out) as { diagnostics: { code: string; line: number }[] }[]).flatMap(f =>
        f.diagnostics.map(d => `${d.line} ${d.code}`),
      ),
      ['3 verify.unknown-shape', '5 verify.is-error'],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a --record that cannot be written is logged once; the session goes on', async () => {
  const dir = tempTree({});
  try {
    writeFileSync(join(dir, 'ro'), '');
    const input = msg({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'fine', arguments: {} } });
    const r = await watch(['--record', 'ro/x.jsonl', '--', process.execPath, FAKE, 'tools'], [Buffer.from(input)], { cwd: dir });
    assert.equal(r.code, 0);
    assert.equal(
      r.stdout.toString('utf8'),
      msg({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: '42 open issues' }] } }),
    );
    assert.equal(r.stderr.match(/cannot write --record 'ro\/x.jsonl'/g)?.length, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--rule sets a finding level or turns it off, as in check', async () => {
  const input = ['quiet_failure', 'good_failure']
    .map((name, i) => msg({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name, arguments: {} } }))
    .join('');
  const r = await watch(
    ['--rule', 'runtime.unflagged-failure=error', '--rule', 'runtime.text-only-error=off', '--', process.execPath, FAKE, 'tools'],
    [Buffer.from(input)],
  );
  assert.equal(r.code, 0, 'the exit code is the server’s, whatever the findings');
  assert.deepEqual(
    r.stderr
      .split('\n')
      .filter(l => l.startsWith('mcp-aql-errors watch:'))
      .map(l => l.replace(/: '.*$/, '')),
    [
      'mcp-aql-errors watch: quiet_failure (id 1): error runtime.unflagged-failure',
      'mcp-aql-errors watch: 2 tool calls checked, 1 finding (1 error)',
    ],
  );
});

test('the judge never holds the traffic: a message sent while a 20 MB answer is judged comes back before that finding is written', async () => {
  const p = spawn(process.execPath, [CLI, 'watch', '--', process.execPath, FAKE, 'echo'], { cwd: ROOT });
  const bound = setTimeout(() => p.kill('SIGKILL'), 60_000);
  let err = '';
  p.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const request = msg({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'export', arguments: {} } });
  // The echo server sends it back: to watch, the answer to call 1 (its text reads as a failure, isError false).
  const answer = msg({
    jsonrpc: '2.0',
    id: 1,
    result: { content: [{ type: 'text', text: 'Error: ' + 'x'.repeat(20_000_000) }], isError: false },
  });
  const ping = msg({ jsonrpc: '2.0', method: 'notifications/ping' });
  let out = Buffer.alloc(0);
  let findingBeforePing: boolean | undefined;
  const ended = new Promise<number | null>(res => p.on('close', code => res(code)));
  p.stdout.on('data', (c: Buffer) => {
    const before = out.length;
    out = Buffer.concat([out, c]);
    const whole = Buffer.byteLength(request) + Buffer.byteLength(answer);
    if (before < whole && out.length >= whole) p.stdin.write(ping); // the answer is back: watch is judging it now
    if (out.length === whole + ping.length) {
      findingBeforePing = err.includes('runtime.unflagged-failure');
      p.stdin.end();
    }
  });
  p.stdin.write(request + answer);
  const code = await ended;
  clearTimeout(bound);
  assert.equal(code, 0);
  assert.equal(out.toString('utf8'), request + answer + ping);
  assert.equal(findingBeforePing, false, 'the ping came back before the judge was done with the answer');
  assert.match(err, /mcp-aql-errors watch: export \(id 1\): warning runtime\.unflagged-failure: /);
  assert.match(err, /mcp-aql-errors watch: 1 tool call checked, 1 finding \(0 errors\)\n$/, 'nothing lost at exit');
});

test('a burst of 10,000 calls: every finding, in order, every response recorded; the summary counts them all', async () => {
  const dir = tempTree({});
  try {
    const n = 10_000;
    let input = '';
    for (let i = 1; i <= n; i++)
      input += msg({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'quiet_failure', arguments: {} } });
    const r = await watch(['--record', 'r.jsonl', '--', process.execPath, FAKE, 'tools'], [Buffer.from(input)], { cwd: dir });
    assert.equal(r.code, 0);
    const ours = r.stderr.split('\n').filter(l => l.startsWith('mcp-aql-errors watch:'));
    assert.equal(ours.length, n + 1);
    assert.deepEqual(
      ours.slice(0, n).map(l => /^mcp-aql-errors watch: quiet_failure \(id (\d+)\): warning runtime\.unflagged-failure: /.exec(l)?.[1]),
      Array.from({ length: n }, (_, i) => String(i + 1)),
    );
    assert.equal(ours[n], `mcp-aql-errors watch: ${n} tool calls checked, ${n} findings (0 errors)`);
    assert.equal(r.stdout.toString('utf8').split('\n').length, n + 1);
    assert.equal(readFileSync(join(dir, 'r.jsonl'), 'utf8'), r.stdout.toString('utf8'), 'every response recorded as sent');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(
  'the judging thread runs at a lower priority than the forwarding thread (Linux: nice 10, that thread only)',
  { skip: process.platform !== 'linux' },
  async () => {
    const p = spawn(process.execPath, [CLI, 'watch', '--', process.execPath, FAKE, 'tools'], { cwd: ROOT });
    const bound = setTimeout(() => p.kill('SIGKILL'), 30_000);
    const ended = new Promise(res => p.on('close', res));
    p.stderr.resume();
    // The judge starts once the server's first output is forwarded.
    await new Promise(res => {
      p.stdout.once('data', res);
      p.stdin.write(msg({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    });
    const nices = () => {
      const out: number[] = [];
      for (const t of readdirSync(`/proc/${p.pid}/task`)) {
        const stat = readFileSync(`/proc/${p.pid}/task/${t}/stat`, 'utf8');
        out.push(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])); // field 19: nice
      }
      return out;
    };
    let seen: number[] = [];
    for (let i = 0; i < 300 && !seen.includes(10); i++) {
      seen = nices();
      if (!seen.includes(10)) await new Promise(res => setTimeout(res, 20));
    }
    const main = readFileSync(`/proc/${p.pid}/stat`, 'utf8');
    p.stdin.end();
    await ended;
    clearTimeout(bound);
    assert.equal(seen.filter(n => n === 10).length, 1, `one thread at nice 10: ${seen.join(' ')}`);
    assert.equal(Number(main.slice(main.lastIndexOf(')') + 2).split(' ')[16]), 0, 'the forwarding (main) thread keeps its priority');
  },
);
