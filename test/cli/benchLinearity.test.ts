import assert from 'node:assert/strict';
import { test } from 'node:test';
import { median, perFileSpread, slopeSpread } from '../../bench/linearity';

test('a linear run with a fixed start-up: CPU per file falls, the slope is flat', () => {
  // 1,000 ms of start-up, 2 ms per file.
  const rows = [500, 2000, 10_000, 20_000].map(n => ({ n, cpuMs: 1000 + 2 * n }));
  const per = perFileSpread(rows);
  assert.deepEqual(per.perFile, [4, 2.5, 2.1, 2.05]);
  assert.ok(Math.abs(per.worst - 4 / 2.3 + 1) < 1e-9, String(per.worst)); // 4 against the median 2.3
  const slope = slopeSpread(rows);
  assert.deepEqual(slope.perFile, [2, 2, 2]);
  assert.deepEqual(slope.steps, ['500→2000', '2000→10000', '10000→20000']);
  assert.equal(slope.worst, 0);
});

test('work per file that grows with the workspace shows in the slope (the issue: per problem × per name)', () => {
  // 2 ms per file plus a "did you mean" over every name for 5 % of the files: quadratic.
  const rows = [500, 2000, 10_000].map(n => ({ n, cpuMs: 1000 + 2 * n + 0.05 * n * n * 0.001 }));
  const slope = slopeSpread(rows);
  assert.deepEqual(
    slope.perFile.map(x => +x.toFixed(4)),
    [2.125, 2.6],
  );
  assert.ok(slope.worst > 0.09, String(slope.worst));
});

test('sizes in any order; two rows of one size are refused; one row has no spread', () => {
  const rows = [
    { n: 2000, cpuMs: 5000 },
    { n: 500, cpuMs: 2000 },
  ];
  assert.deepEqual(slopeSpread(rows).perFile, [2]);
  assert.deepEqual(perFileSpread(rows).perFile, [4, 2.5]);
  assert.equal(slopeSpread([{ n: 500, cpuMs: 1 }]).worst, 0);
  assert.throws(() => slopeSpread([...rows, { n: 500, cpuMs: 3 }]), /two rows of 500 files/);
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 2, 3]), 2.5);
});
