/**
 * `watch`'s traffic and its judge, as the host runs it (dist/cli.js as a child
 * process): the forwarding never waits for the judging, a burst is judged whole and in order, and the
 * judging thread runs at a lower priority than the forwarding thread.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempTree } from './helpers';
import { otherThreadsScavenges, withHelperThreads } from './gcTrace';
import { CLI, FAKE, msg, watch } from './watchRun';

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
  "every thread but the forwarding thread runs at a lower priority (Linux: nice 10): the judge and V8's helper threads, which run the judge's GC",
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
      const out = new Map<number, number>();
      for (const t of readdirSync(`/proc/${p.pid}/task`)) {
        const stat = readFileSync(`/proc/${p.pid}/task/${t}/stat`, 'utf8');
        out.set(Number(t), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])); // field 19: nice
      }
      return out;
    };
    const others = (m: Map<number, number>) => [...m].filter(([t]) => t !== p.pid).map(([, n]) => n);
    // The judge lowers them as it starts: wait (bounded, 6 s) until no other thread is left at 0.
    let seen = nices();
    for (let i = 0; i < 300 && !(others(seen).includes(10) && !others(seen).includes(0)); i++) {
      await new Promise(res => setTimeout(res, 20));
      seen = nices();
    }
    p.stdin.end();
    await ended;
    clearTimeout(bound);
    const rest = others(seen);
    assert.ok(rest.length >= 2, `the judge and V8's helpers: ${rest.join(' ')}`);
    assert.deepEqual(
      rest.filter(n => n !== 10),
      [],
      `every other thread at nice 10: ${[...seen].map(([t, n]) => `${t}:${n}`).join(' ')}`,
    );
    assert.equal(seen.get(p.pid!), 0, 'the forwarding (main) thread keeps its priority');
  },
);

test("the judge's young-generation collections use no helper threads (they run on the judge's own, lowered thread)", () => {
  // --trace-gc-nvp prints a line per collection on watch's stdout, among the server's answers.
  let input = '';
  for (let i = 1; i <= 5000; i++)
    input += msg({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'quiet_failure', arguments: {} } });
  const r = spawnSync(process.execPath, ['--trace-gc-nvp', CLI, 'watch', '--', process.execPath, FAKE, 'tools'], {
    cwd: ROOT,
    input,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    timeout: 60_000,
  });
  assert.equal(r.status, 0, r.stderr.slice(-2000));
  assert.match(r.stderr, /5000 tool calls checked, 5000 findings/);
  // (The forwarding thread's first ones come while the bundle loads, before watch sets anything.)
  const judge = otherThreadsScavenges(r.stdout);
  assert.ok(judge.length >= 5, `the judge collected ${judge.length} times`);
  assert.deepEqual(withHelperThreads(judge), []);
});
