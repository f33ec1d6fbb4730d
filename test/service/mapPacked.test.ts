import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mapPacked } from '../../server/src/service/util/mapPacked';

test('mapPacked gives what Array.prototype.map gives, in order, as a new list', () => {
  const a = [{ n: 1 }, { n: 2 }, { n: 3 }];
  const seen: number[] = [];
  const out = mapPacked(a, x => (seen.push(x.n), { m: x.n * 2 }));
  assert.deepEqual(
    out,
    a.map(x => ({ m: x.n * 2 })),
  );
  assert.deepEqual(seen, [1, 2, 3]);
  const empty: number[] = [];
  const none = mapPacked<number, number>(empty, x => x);
  assert.equal(none.length, 0);
  assert.notEqual(none, empty);
  none.push(1); // a list of its own: the input stays empty
  assert.deepEqual(empty, []);
});
