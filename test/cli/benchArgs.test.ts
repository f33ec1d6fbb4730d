/**
 * bench/run.ts takes half an hour: a mistyped flag or `--help` must not start it, and importing it (a
 * test, a script reading its helpers) must run nothing.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { usageProblem } from '../../bench/run';

test('the bench starts only on a command line it takes', () => {
  assert.equal(usageProblem([]), undefined);
  assert.equal(usageProblem(['--workspace-only', '--ws-sizes=500,2000', '--spectral-max=2000', '--ws-runs=1']), undefined);
  assert.equal(usageProblem(['--from-results']), undefined);
  const help = usageProblem(['--help'])!;
  assert.equal(help.code, 0);
  assert.match(help.text, /^npm run bench: /);
  assert.match(help.text, /--ws-sizes=/);
  assert.deepEqual(usageProblem(['--ws-size=500']), { text: 'bench/run.ts: unknown option --ws-size=500 (--help lists them)\n', code: 2 });
  assert.equal(usageProblem(['--ws-sizes='])!.code, 2);
  assert.equal(usageProblem(['--quick', 'extra'])!.code, 2);
  // The keystrokes typed after the cold ones: a count each, nothing else.
  assert.equal(usageProblem(['--no-workspace', '--warmup=20', '--warm=40']), undefined);
  assert.equal(usageProblem(['--warmup=0']), undefined);
  assert.match(help.text, /--warmup=N/);
  assert.deepEqual(usageProblem(['--warm=ten']), { text: 'bench/run.ts: unknown option --warm=ten (--help lists them)\n', code: 2 });
  assert.equal(usageProblem(['--warmup=-1'])!.code, 2);
  assert.equal(usageProblem(['--warm='])!.code, 2);
  assert.equal(usageProblem(['--warms=3'])!.code, 2);
});
