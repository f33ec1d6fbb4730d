/**
 * bench/sameOutput.ts compares this build's `check` with another's, byte for byte: it needs the other build, and a
 * mistyped option or `--help` must not start its runs.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { usageProblem } from '../../bench/sameOutput';

test('the output comparison starts only with another build to compare and options it takes', () => {
  const other = __filename; // any file that exists stands for the other build here
  assert.equal(usageProblem([`--compare=${other}`]), undefined);
  assert.equal(usageProblem([`--compare=${other}`, '--sizes=40,1000', __dirname]), undefined);
  assert.deepEqual(usageProblem([]), { text: 'bench/sameOutput.ts: --compare=<another dist/cli.js> is needed (--help)\n', code: 2 });
  const help = usageProblem(['--help'])!;
  assert.equal(help.code, 0);
  assert.match(help.text, /^node --import tsx bench\/sameOutput\.ts --compare=/);
  assert.equal(usageProblem(['--compare=/no/such/cli.js'])!.code, 2);
  assert.equal(usageProblem([`--compare=${other}`, '--sizes=0'])!.code, 2);
  assert.equal(usageProblem([`--compare=${other}`, '--size=1000'])!.code, 2);
  assert.equal(usageProblem([`--compare=${other}`, '/no/such/folder'])!.code, 2);
});
