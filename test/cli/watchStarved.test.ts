/**
 * `watch`'s judge starved of CPU: it runs at a lower priority than everything else on the
 * session's path, so on a saturated machine it may get no time at all for a while. Then the ring fills,
 * the copies that find no room are dropped and counted, the traffic is never held, and when the judge
 * runs again it takes everything the ring holds, in order: each of those answers judged and recorded, the
 * rest counted as passed on unchecked in the summary. The real judge runs here (from the sources), held
 * before it loads until the test has handed over more copies than the ring holds.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempTree } from './helpers';
import { RING_BYTES } from '../../server/src/cli/runtime/watch/ring';

test('a starved judge: the ring stays bounded, nothing is held; what it holds is judged and recorded, the rest counted', () => {
  const dir = tempTree({});
  try {
    // Requests and answers of one length, so the ring holds a whole number of them.
    const answer = (id: string) =>
      `{"jsonrpc":"2.0","id":"${id}","result":{"content":[{"type":"text","text":"Error: item ${id} not found"}],"isError":false}}\n`;
    const bare = (id: string, pad: string) =>
      `{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"get_item","arguments":{"p":"${pad}"}}}\n`;
    const L = answer('000000').length;
    const request = (id: string) => bare(id, 'x'.repeat(L - bare(id, '').length));
    assert.equal(request('000000').length, L);
    const pairs = Math.ceil((RING_BYTES * 1.25) / (2 * L)); // a quarter more than the ring holds
    const held = Math.floor(RING_BYTES / (4 + L)); // records of a 4-byte header and L bytes
    const script = `
      const { WatchJudge } = require(${JSON.stringify(join(ROOT, 'server/src/cli/runtime/watch/judge.ts'))});
      const hold = new Int32Array(new SharedArrayBuffer(4));
      // The judge gets no CPU until released: it waits before it loads anything.
      const starved = 'const { workerData } = require("node:worker_threads");' +
        'Atomics.wait(new Int32Array(workerData.hold), 0, 0);' +
        'require("tsx/cjs"); require(${JSON.stringify(join(ROOT, 'server/src/cli/runtime/watch/worker.ts'))});';
      const opts = { cwd: ${JSON.stringify(dir)}, adapters: [], rules: {}, format: 'text',
        record: { name: 'r.jsonl', path: ${JSON.stringify(join(dir, 'r.jsonl'))} }, hold: hold.buffer };
      const judge = new WatchJudge(opts, s => process.stderr.write('log: ' + s + '\\n'), starved);
      judge.startNow();
      const answer = ${answer.toString()}, bare = ${bare.toString()}, L = ${L};
      const request = id => bare(id, 'x'.repeat(L - bare(id, '').length));
      for (let i = 0; i < ${pairs}; i++) {
        const id = String(i).padStart(6, '0');
        judge.client(Buffer.from(request(id)));
        judge.server(Buffer.from(answer(id)));
      }
      // Every copy was handed over (or dropped) without the judge taking one: nothing waited for it.
      process.stderr.write('handed over\\n');
      Atomics.store(hold, 0, 1);
      Atomics.notify(hold, 0);
      judge.finish().then(() => process.stderr.write('finished\\n'));`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
      maxBuffer: 1 << 28,
    });
    assert.equal(r.status, 0, `${r.status} ${r.signal} ${r.error} ${r.stderr.slice(-2000)}`);
    const lines = r.stderr.split('\n').filter(Boolean);
    const calls = Math.floor(held / 2);
    const unchecked = (2 * pairs - held) * L;
    const bytesOf = (n: number) => `${n} bytes passed on unchecked`;
    assert.deepEqual(lines.slice(0, 2), [
      `log: the checker fell behind the traffic; ${L} bytes passed on unchecked until it catches up (the session goes on)`,
      'handed over',
    ]);
    // The answers the ring held, judged in order (one finding each), then the summary with the rest counted.
    const findings = lines.filter(l => l.startsWith('mcp-aql-errors watch: get_item (id '));
    assert.equal(findings.length, calls);
    assert.deepEqual(
      findings.map(l => /^mcp-aql-errors watch: get_item \(id "(\d+)"\): warning runtime\.unflagged-failure: /.exec(l)?.[1]),
      Array.from({ length: calls }, (_, i) => String(i).padStart(6, '0')),
    );
    assert.deepEqual(lines.slice(-2), [
      `mcp-aql-errors watch: ${calls} tool calls checked, ${calls} findings (0 errors); ${bytesOf(unchecked)}`,
      'finished',
    ]);
    let recorded = '';
    for (let i = 0; i < calls; i++) recorded += answer(String(i).padStart(6, '0'));
    assert.equal(readFileSync(join(dir, 'r.jsonl'), 'utf8'), recorded, 'every answer the ring held recorded, in order');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
