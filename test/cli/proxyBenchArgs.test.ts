/**
 * bench/proxyBench.ts rewrites bench/proxy-results.json and bench/REPORT.md when it ends: a mistyped
 * option (`--dyr`, `--runs=five`) or `--help` must not start it.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { usageProblem } from '../../bench/proxyBench';

test('the proxy bench starts only on a command line it takes', () => {
  assert.equal(usageProblem([]), undefined);
  assert.equal(
    usageProblem(['--messages=2000', '--rate=500', '--warmup=200', '--runs=3', '--compare=../main/dist/cli.js', '--dry']),
    undefined,
  );
  const help = usageProblem(['--help'])!;
  assert.equal(help.code, 0);
  assert.match(help.text, /^The latency `watch` adds/);
  assert.match(help.text, /--dry/);
  assert.deepEqual(usageProblem(['--dyr']), { text: 'bench/proxyBench.ts: unknown option --dyr (--help lists them)\n', code: 2 });
  assert.equal(usageProblem(['--runs=five'])!.code, 2);
  assert.equal(usageProblem(['--runs=0'])!.code, 2);
  assert.equal(usageProblem(['--compare='])!.code, 2);
  assert.equal(usageProblem(['--dry', 'extra'])!.code, 2);
});
