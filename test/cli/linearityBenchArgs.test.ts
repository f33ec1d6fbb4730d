/**
 * bench/linearityBench.ts rewrites bench/linearity-results.json and bench/REPORT.md when it ends: a mistyped option or
 * `--help` must not start it. Its measure is a least-squares line through (files, CPU): the slope is the CPU per
 * added file whatever the fixed cost, and a cost growing faster than the files shows as a residual.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { fitLine, gapWithoutEach, readOptions, usageProblem } from '../../bench/linearityBench';
import { replaceSection } from '../../bench/reportSection';

test('the linearity bench starts only on a command line it takes', () => {
  assert.equal(usageProblem([]), undefined);
  assert.equal(usageProblem(['--sizes=500,2000', '--runs=2', '--jobs=1', '--dry']), undefined);
  const help = usageProblem(['--help'])!;
  assert.equal(help.code, 0);
  assert.match(help.text, /^npm run build && node --import tsx bench\/linearityBench\.ts/);
  assert.match(help.text, /--sizes=/);
  assert.deepEqual(usageProblem(['--size=500,1000']), {
    text: 'bench/linearityBench.ts: unknown option --size=500,1000 (--help lists them)\n',
    code: 2,
  });
  assert.equal(usageProblem(['--sizes=500'])!.code, 2, 'a line needs two sizes');
  assert.equal(usageProblem(['--sizes=500,500'])!.code, 2, 'two different sizes');
  assert.equal(usageProblem(['--sizes=500,x'])!.code, 2);
  assert.equal(usageProblem(['--runs=0'])!.code, 2);
  assert.equal(usageProblem(['--jobs='])!.code, 2);
  assert.equal(usageProblem(['--dry', 'extra'])!.code, 2);
});

test('the linearity bench reads its options, sizes ascending, with the defaults for the others', () => {
  assert.deepEqual(readOptions([]), { sizes: [500, 1000, 2000, 5000, 10_000, 20_000], runs: 3, dry: false });
  assert.deepEqual(readOptions(['--sizes=2000,500', '--runs=1', '--jobs=2', '--dry']), { sizes: [500, 2000], runs: 1, jobs: 2, dry: true });
});

test('the line through a fixed cost and a cost per file: its slope and intercept, no residual', () => {
  const l = fitLine([500, 1000, 2000, 5000].map(n => ({ n, cpuMs: 700 + 1.8 * n })));
  assert.ok(Math.abs(l.slope - 1.8) < 1e-9, String(l.slope));
  assert.ok(Math.abs(l.intercept - 700) < 1e-6, String(l.intercept));
  assert.ok(l.worstResidual < 1e-9, String(l.worstResidual));
});

test('a step at one size moves the line and leaves a residual there; one size or one repeated size is refused', () => {
  // 2 ms a file, plus 600 ms from 1,000 files on (a thread started there).
  const l = fitLine([500, 1000, 2000].map(n => ({ n, cpuMs: 2 * n + (n >= 1000 ? 600 : 0) })));
  assert.ok(l.slope > 2, String(l.slope));
  assert.ok(l.worstResidual > 0.05, String(l.worstResidual));
  assert.throws(() => fitLine([{ n: 500, cpuMs: 1 }]), /two sizes/);
  assert.throws(
    () =>
      fitLine([
        { n: 500, cpuMs: 1 },
        { n: 500, cpuMs: 2 },
      ]),
    /two different sizes/,
  );
});

test('the gap with each size left out: a step at the second size weighs on it, and it is the same gap when nothing bends', () => {
  const sizes = (ours: (n: number) => number) =>
    [500, 1000, 2000, 5000].map(n => ({ n, ours: { cpuMs: ours(n) }, floor: { cpuMs: 700 + 1.5 * n } }));
  const even = gapWithoutEach(sizes(n => 900 + 1.65 * n))!;
  assert.ok(Math.abs(even[0] - 0.1) < 1e-9 && Math.abs(even[1] - 0.1) < 1e-9, String(even));
  // 1.5 ms a file like the floor, plus a second thread's 1,000 ms from 1,000 files: 0.13 ms a file more over the four
  // sizes (+9 %); without the 500-file point, none (the step is in every size left).
  const [low, high] = gapWithoutEach(sizes(n => 900 + 1.5 * n + (n >= 1000 ? 1000 : 0)))!;
  assert.ok(Math.abs(low) < 1e-9, String(low));
  assert.ok(high > 0.09, String(high));
  assert.equal(gapWithoutEach(sizes(n => n).slice(0, 2)), undefined);
});

test("a bench's section of the report replaces its own, or is appended, and leaves the others alone", () => {
  const report = '# Report\n\n## A\n\nold a\n\n## B\n\nb\n';
  assert.equal(replaceSection(report, '## A\n\nnew a\n'), '# Report\n\n## A\n\nnew a\n\n## B\n\nb\n');
  assert.equal(replaceSection(report, '## B\n\nnew b\n'), '# Report\n\n## A\n\nold a\n\n## B\n\nnew b\n');
  assert.equal(replaceSection(report, '## C\n\nc\n'), '# Report\n\n## A\n\nold a\n\n## B\n\nb\n\n## C\n\nc\n');
});
