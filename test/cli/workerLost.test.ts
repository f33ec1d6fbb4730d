/**
 * A check worker that stops while no pass of the pool listens (between the index pass and the validation: killed,
 * out of memory) fails the next pass with why, at once: not a wait for answers that never come, not an
 * uncaught 'error' (cli/check/pool.ts `lost`).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { workspaceFiles } from '../../bench/genWorkspace';
import { batchSize, WorkerPool } from '../../server/src/cli/check/pool';
import { tempTree } from './helpers';

const N = 12;

test('a worker lost between two passes fails the next pass with its exit, without a hang', { timeout: 60_000 }, async () => {
  const files = workspaceFiles(N);
  const dir = tempTree(files);
  const uris = Object.keys(files)
    .sort()
    .map(p => pathToFileURL(join(dir, p)).href);
  // One byte a thread: the worker takes part in the index pass, so it is up and answering before it is lost.
  const pool = new WorkerPool(2, true, undefined, undefined, 1);
  try {
    const first = await pool.index(
      uris,
      () => ({}),
      () => {},
    );
    assert.equal(first.length, N);
    assert.ok(pool.handledHere < Math.ceil(N / batchSize(N, 2)), 'the worker answered batches of the first pass');
    const { workers } = pool as unknown as { workers: { terminate(): Promise<unknown> }[] };
    await workers[0]!.terminate();
    await assert.rejects(
      pool.index(
        uris,
        () => ({}),
        () => {},
      ),
      /a check worker exited \(1\)/,
    );
  } finally {
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
