/**
 * The index pass of `check`'s pool runs on fewer threads than the validation when the files are few
 * (cli/check/pool.ts `INDEX_BYTES_PER_THREAD`, the files' sizes): the main thread first, so a worker warms up only the validation's
 * code. Where it runs does not change what it finds.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { workspaceFiles } from '../../bench/genWorkspace';
import { batchSize, INDEX_BYTES_PER_THREAD, WorkerPool } from '../../server/src/cli/check/pool';
import { tempTree } from './helpers';

const N = 40;

test(
  'below INDEX_BYTES_PER_THREAD bytes a thread, the main thread indexes alone; the index is the same',
  { timeout: 120_000 },
  async () => {
    const files = workspaceFiles(N);
    const dir = tempTree(files);
    const uris = Object.keys(files)
      .sort()
      .map(p => pathToFileURL(join(dir, p)).href);
    const batches = Math.ceil(N / batchSize(N, 2));
    const index = async (perThread?: number) => {
      const pool = new WorkerPool(2, true, undefined, undefined, perThread);
      try {
        const failed: unknown[] = [];
        const indexed = await pool.index(
          uris,
          () => ({}),
          f => failed.push(f),
        );
        assert.deepEqual(failed, []);
        return { indexed, here: pool.handledHere };
      } finally {
        await pool.close();
      }
    };
    try {
      const bytes = Object.values(files).reduce((n, t) => n + Buffer.byteLength(t), 0);
      assert.ok(bytes < INDEX_BYTES_PER_THREAD * 2);
      const alone = await index();
      assert.equal(alone.here, batches, 'every index batch on the main thread');
      // One byte a thread: both threads index, the worker holding two batches from the start.
      const both = await index(1);
      assert.ok(both.here <= batches - 2, `the main thread indexed ${both.here} of ${batches} batches`);
      assert.equal(alone.indexed.length, N);
      assert.equal(alone.indexed.filter(f => f.adapter).length, N);
      assert.deepEqual(alone.indexed, both.indexed);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
