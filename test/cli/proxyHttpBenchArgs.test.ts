/**
 * bench/proxyHttpBench.ts rewrites bench/proxy-http-results.json and bench/REPORT.md when it ends: a mistyped
 * option or `--help` must not start it, and a warm-up that leaves nothing to measure is refused.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readOptions, usageProblem } from '../../bench/proxyHttpBench';

test('the HTTP proxy bench starts only on a command line it takes', () => {
  assert.equal(usageProblem([]), undefined);
  assert.equal(usageProblem(['--messages=2000', '--rate=500', '--warmup=200', '--runs=3', '--dry']), undefined);
  const help = usageProblem(['--help'])!;
  assert.equal(help.code, 0);
  assert.match(help.text, /^The latency `watch --listen/);
  assert.match(help.text, /--dry/);
  assert.deepEqual(usageProblem(['--dyr']), { text: 'bench/proxyHttpBench.ts: unknown option --dyr (--help lists them)\n', code: 2 });
  assert.equal(usageProblem(['--runs=five'])!.code, 2);
  assert.equal(usageProblem(['--runs=0'])!.code, 2);
  assert.equal(usageProblem(['--messages='])!.code, 2);
  assert.equal(usageProblem(['--compare=../main/dist/cli.js', '--runs=3']), undefined);
  assert.equal(usageProblem(['--compare='])!.code, 2);

  assert.equal(usageProblem(['--dry', 'extra'])!.code, 2);
});

test('the HTTP proxy bench reads its counts, with the defaults for the others', () => {
  assert.deepEqual(readOptions([]), { messages: 5000, rate: 1000, warmup: 1000, runs: 5, dry: false });
  assert.deepEqual(readOptions(['--messages=300', '--warmup=100', '--runs=2', '--dry']), {
    messages: 300,
    rate: 1000,
    warmup: 100,
    runs: 2,
    dry: true,
  });
  assert.equal(readOptions(['--compare=/tmp/main/dist/cli.js']).compare, '/tmp/main/dist/cli.js');

  assert.throws(() => readOptions(['--messages=500']), /--warmup \(1000\) must be less than --messages \(500\)/);
});
