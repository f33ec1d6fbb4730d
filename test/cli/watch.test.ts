/**
 * `watch`: the transparent stdio proxy, run as the host runs it (dist/cli.js as a
 * child process): bytes end to end, exit codes and signals, findings on stderr, --record and -o.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, run, tempTree } from './helpers';
import { CLI, FAKE, msg, watch } from './watchRun';

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
    [['node', 'x.js'], 'watch needs a server: --config <file> [--server <name>], --listen <addr> --url <U>, or its command after'],
    [['--url', 'http://127.0.0.1:9/mcp'], 'watch: --url is the upstream of the proxy at --listen <addr>'],
    [['--print-config', '--', 'node'], 'watch: --print-config prints the --config <file> with watch in front of a server'],
    [['--listen', '4100', '--', 'node'], "watch: --listen is a proxy for a Streamable HTTP server (--url), not for a command after '--'"],
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
      `mcp-aql-errors watch: good_failure (id 2): warning runtime.text-only-error: 'good_failure' reported a failure as text only ("repository not found"): no MCP-AQL envelope, no code a client can branch on, and the text is none of the contract's templates.`,
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

test('an unknown tool answered -32603: runtime.unknown-tool-code once a tools/list answer is seen, not before', async () => {
  const call = (id: number) => msg({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'nope', arguments: {} } });
  const input = call(1) + msg({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) + call(3);
  const r = await watch(['--', process.execPath, FAKE, 'tools'], [Buffer.from(input)], { env: { FAKE_UNKNOWN_CODE: '-32603' } });
  assert.equal(r.code, 0);
  assert.deepEqual(
    r.stderr.split('\n').filter(l => l.startsWith('mcp-aql-errors watch:')),
    [
      `mcp-aql-errors watch: nope (id 3): warning runtime.unknown-tool-code: 'nope' is not a tool the server listed, and the call was answered with JSON-RPC error -32603 (Internal error), which says the server failed, not that the request named no tool: a client may retry it or report a fault of the server. MCP shows an unknown tool as -32602 (Invalid params), "Unknown tool: …" (Tools: error handling).`,
      'mcp-aql-errors watch: 2 tool calls checked, 1 finding (0 errors)',
    ],
  );
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

test('--record across a log rotation: the file renamed away keeps the answers before it, the path gets those after', async () => {
  const dir = tempTree({});
  const p = spawn(process.execPath, [CLI, 'watch', '--record', 'r.jsonl', '--', process.execPath, FAKE, 'tools'], { cwd: dir });
  const bound = setTimeout(() => p.kill('SIGKILL'), 30_000);
  try {
    const ended = new Promise<number | null>(res => p.on('close', res));
    p.stderr.resume();
    let out = '';
    p.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    const call = (id: number) =>
      msg({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: id === 1 ? 'fine' : 'quiet_failure', arguments: {} } });
    const answer1 = msg({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: '42 open issues' }] } });
    const answer2 = msg({
      jsonrpc: '2.0',
      id: 2,
      result: { content: [{ type: 'text', text: 'Error: repository not found' }], isError: false },
    });
    p.stdin.write(call(1));
    // The judge has recorded the first answer (bounded: 10 s), then the rotator renames the file.
    const file = join(dir, 'r.jsonl');
    for (let i = 0; i < 500 && !(existsSync(file) && readFileSync(file, 'utf8') === answer1); i++)
      await new Promise(r => setTimeout(r, 20));
    renameSync(file, join(dir, 'r.jsonl.1'));
    p.stdin.end(call(2));
    assert.equal(await ended, 0);
    assert.equal(out, answer1 + answer2);
    assert.equal(readFileSync(join(dir, 'r.jsonl.1'), 'utf8'), answer1);
    assert.equal(readFileSync(file, 'utf8'), answer2);
  } finally {
    clearTimeout(bound);
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
