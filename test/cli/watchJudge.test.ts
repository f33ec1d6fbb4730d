/**
 * `watch`'s judge as the forwarding thread sees it (cli/watchJudge.ts): a judging thread that dies is
 * logged once, the copies after it are only counted, and the summary still comes, from the counts the
 * judge left in shared memory. (The judge's work itself: test/cli/watch.test.ts, through dist/cli.js.)
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { ROOT } from './helpers';
import { WatchJudge } from '../../server/src/cli/runtime/watch/judge';

const OPTIONS = { cwd: ROOT, adapters: [], rules: {}, format: 'text' };

test('a judge that dies: one line, the session goes on, the summary from what it counted', async () => {
  const logs: string[] = [];
  // It counted 3 calls, 2 findings, 1 error, then met a bug of ours outside the checker's guard.
  const script = `
    const { workerData } = require('node:worker_threads');
    const counts = new Int32Array(workerData.counters);
    Atomics.store(counts, 0, 3); Atomics.store(counts, 1, 2); Atomics.store(counts, 2, 1);
    throw new Error('judge bug');`;
  const judge = new WatchJudge(OPTIONS, s => logs.push(s), script);
  judge.startNow();
  for (let i = 0; i < 1000 && logs.length === 0; i++) await new Promise(r => setTimeout(r, 10)); // bounded: 10 s
  assert.equal(logs.length, 1);
  assert.match(logs[0]!, /^checker failed, checking stopped \(the session goes on\): [^]*Error: judge bug/);
  judge.client(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/call"}\n')); // 47 bytes, only counted
  judge.server(Buffer.alloc(20_000)); // a big chunk: counted too
  await judge.finish();
  assert.deepEqual(logs.slice(1), ['3 tool calls checked, 2 findings (1 error); 20047 bytes passed on unchecked']);
});

test('a judge that ends the session normally says it is done; the forwarding thread adds nothing', async () => {
  const logs: string[] = [];
  const script = `
    const { parentPort } = require('node:worker_threads');
    parentPort.once('message', m => { parentPort.postMessage(m.end === 0 ? 'done' : 'unexpected'); parentPort.close(); });`;
  const judge = new WatchJudge(OPTIONS, s => logs.push(s), script);
  judge.client(Buffer.from('x\n'));
  await judge.finish();
  assert.deepEqual(logs, []);
});

test('a judge that does not finish after the end is stopped: one line, the summary from its counts', async () => {
  const logs: string[] = [];
  const script = `
    const { workerData, parentPort } = require('node:worker_threads');
    Atomics.store(new Int32Array(workerData.counters), 0, 1);
    parentPort.on('message', () => {}); // never says it is done`;
  const judge = new WatchJudge(OPTIONS, s => logs.push(s), script, 200);
  // The 0.2 s wait is for the end only: under load a worker can take longer than that to boot, so the
  // test waits until it has counted its call (bounded: 10 s) and times only the end.
  judge.startNow();
  const counts = (judge as unknown as { counts: Int32Array }).counts;
  for (let i = 0; i < 1000 && Atomics.load(counts, 0) === 0; i++) await new Promise(r => setTimeout(r, 10));
  await judge.finish();
  assert.deepEqual(logs, [
    "the checker did not finish within 0.2 s of the session's end; it was stopped",
    '1 tool call checked, 0 findings (0 errors)',
  ]);
});
