/**
 * The proxy bench's arithmetic (bench/proxyStats.ts): the warm-up apart from the steady
 * state, nearest-rank percentiles, and the median of several runs taken figure by figure.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { median, medianOfRuns, percentile, summarizeRun } from '../../bench/proxyStats';

test('percentile is the nearest rank; median of an even count is the mean of the middle two', () => {
  const xs = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1, unsorted on purpose
  assert.equal(percentile(xs, 0.5), 50);
  assert.equal(percentile(xs, 0.99), 99);
  assert.equal(percentile(xs, 1), 100);
  assert.equal(percentile([7], 0.99), 7);
  assert.ok(Number.isNaN(percentile([], 0.5)));
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
});

test('a run: the warm-up is apart; a start-up queue in it does not reach the steady-state percentiles', () => {
  // The first 10 messages queued behind a slow start (300 ms down to 291 ms), then 1 ms each with one 5 ms pause.
  const rtt = [...Array.from({ length: 10 }, (_, i) => 300 - i), ...Array.from({ length: 200 }, (_, i) => (i === 50 ? 5 : 1))];
  const s = summarizeRun({ firstByteMs: 120, startupMs: 125, rtt }, 10);
  assert.deepEqual(s, { firstByteMs: 120, startupMs: 125, warmupP99: 300, p50: 1, p99: 1, p999: 5, max: 5, answered: 210 });
  // Without the warm-up apart, the start-up queue is the p99 (what the bench measured before).
  assert.equal(summarizeRun({ firstByteMs: 0, startupMs: 0, rtt }, 0).p99, 298);
});

test('several runs: each figure is its own median, to the microsecond; answered is the fewest', () => {
  const run = (p99: number, startupMs: number, answered = 100) =>
    ({ firstByteMs: startupMs - 1, startupMs, warmupP99: 2, p50: 0.1234567, p99, p999: p99 * 2, max: p99 * 3, answered }) as const;
  const m = medianOfRuns([run(1, 200), run(40, 100), run(2, 150, 99)]);
  assert.deepEqual(m, { firstByteMs: 149, startupMs: 150, warmupP99: 2, p50: 0.123, p99: 2, p999: 4, max: 6, answered: 99 });
});
