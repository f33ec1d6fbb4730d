/**
 * `check`'s pool starts its workers' young generation at its full size (cli/collections.ts `youngGenerationFromStart`,
 * cli/check/pool.ts `WORKER_YOUNG_MB`): a worker made after the call has semi-spaces of a third of it from its start,
 * one made before began at V8's default and grows only as objects survive. Read from the worker's own
 * `getHeapSpaceStatistics` (sizes, not times); the pool's own workers counted from `--trace-gc` in the second test.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { workspaceFiles } from '../../bench/genWorkspace';
import { youngGenerationFromStart } from '../../server/src/cli/collections';
import { WORKER_YOUNG_MB } from '../../server/src/cli/check/pool';
import { ROOT, tempTree } from './helpers';

const MB = 1024 * 1024;

/** A fresh worker's new space (one semi-space), bytes, with the pool's young-generation limit. */
function freshNewSpace(): Promise<number> {
  const w = new Worker(
    `require('node:worker_threads').parentPort.postMessage(require('node:v8').getHeapSpaceStatistics().find(s => s.space_name === 'new_space').space_size)`,
    { eval: true, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB } },
  );
  return new Promise((resolve, reject) => {
    w.once('message', n => void w.terminate().then(() => resolve(n as number)));
    w.once('error', reject);
  });
}

test('a worker made after youngGenerationFromStart has its full young generation from its start', async () => {
  const before = await freshNewSpace();
  assert.ok(before <= 2 * MB, `a worker's new space starts at ${before} bytes by default`);
  youngGenerationFromStart(WORKER_YOUNG_MB);
  const after = await freshNewSpace();
  assert.equal(after, (WORKER_YOUNG_MB / 3) * MB);
});

/** Each `--trace-gc` scavenge line's isolate and the heap's committed MB before it. */
const scavenges = (stdout: string) =>
  [...stdout.matchAll(/\[\d+:(0x[0-9a-f]+)\]\s+[\d.]+ ms: Scavenge [\d.]+ \(([\d.]+)\)/g)].map(m => ({
    isolate: m[1]!,
    committed: Number(m[2]),
  }));

test("check's worker scavenges first with its young generation at full size", () => {
  const dir = tempTree(workspaceFiles(150));
  const r = spawnSync(process.execPath, ['--trace-gc', join(ROOT, 'dist/cli.js'), 'check', dir, '--jobs', '2', '--format', 'json'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(r.status, 1, r.stderr);
  const all = scavenges(r.stdout);
  const worker = all.filter(s => s.isolate !== all[0]!.isolate);
  assert.ok(worker.length >= 3, `the worker collected ${worker.length} times`);
  // Its heap holds a full 16 MB semi-space at its first scavenge (23.7 MB committed in all); at V8's default, 3-4 MB.
  assert.ok(worker[0]!.committed >= WORKER_YOUNG_MB / 3, `committed ${worker[0]!.committed} MB at the worker's first scavenge`);
});
