/**
 * The main thread's heap has V8's default limits, so `check` collects it in full itself
 * (cli/collections.ts `fullCollection`): once the index pass's leftovers are dropped, and whenever it grew
 * by `LOCAL_GROWTH` between two answers of the pool (counted in test/cli/batchDeclarations.test.ts).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { getHeapStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { fullCollection } from '../../server/src/cli/collections';

test('fullCollection frees this thread’s garbage at once, and gives the program, and contexts made later, no global gc', () => {
  assert.equal(fullCollection(), true);
  const before = getHeapStatistics().used_heap_size;
  let garbage: { i: number; s: string }[] | undefined = Array.from({ length: 300_000 }, (_, i) => ({ i, s: `name ${i}` }));
  assert.equal(garbage.length, 300_000);
  const grown = getHeapStatistics().used_heap_size;
  assert.ok(grown - before > 10_000_000, `grew by ${grown - before}`);
  garbage = undefined;
  assert.equal(fullCollection(), true);
  const after = getHeapStatistics().used_heap_size;
  assert.ok(after - before < 2_000_000, `${after - before} bytes left of ${grown - before}`);
  assert.equal('gc' in globalThis, false);
  assert.equal(runInNewContext('typeof gc'), 'undefined');
});
