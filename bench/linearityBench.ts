/**
 * npm run build && node --import tsx bench/linearityBench.ts: is `check` linear in the files, measured against the
 * `yaml` parse floor (bench/yamlFloor.mjs, two threads) on the same generated workspaces (bench/genWorkspace.ts).
 * The measure, read from the linearity target of docs/performance.md:
 *
 * - ours ÷ the floor (CPU seconds, all threads) at every size: at most 1.5 × and not rising with the size;
 * - CPU per added file: the slope of a least-squares line through (files, CPU) over all the sizes, for ours and for
 *   the floor; ours' slope within 15 % of the floor's. A fixed cost (the process, each thread's start and warm-up)
 *   moves the line's intercept, not its slope; a cost that grows faster than the files bends the line (the largest
 *   residual, as a fraction of the CPU at that size, says how far).
 *
 * - how robust that gap is: the same gap with each size left out in turn (its smallest and largest). With four sizes
 *   the least-squares weights are lopsided (at 500 / 1,000 / 2,000 / 5,000 files, a fixed cost that starts between 500 and
 *   1,000 files — a second thread — adds 0.13 ms per added file for each second of it; from 2,000 files, 0.23 ms); with the
 *   six default sizes the 20,000-file point decides most of the slope (bench/NOTES.md, "eighth sitting").
 *
 * Each round runs every size once, the floor and ours back to back in alternating order (interleaved, so a change in
 * the machine's load hits both alike); the figures are the medians over the rounds. Options: --sizes=500,1000,…
 * (default 500, 1,000, 2,000, 5,000, 10,000, 20,000), --runs=N rounds (default 3), --jobs=N passed to `check` (default:
 * its own choice), --compare=<another build's dist/cli.js> (run it too, in the same rounds, beside ours), --dry (print,
 * write nothing). Writes bench/linearity-results.json and its section of bench/REPORT.md.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { brokenCount, writeWorkspace } from './genWorkspace';
import { median } from './linearity';
import { runFloor, type ProcessRun } from './spectralBench';
import { runUnless, usageOf, type UsageProblem } from './usage';
import { runCli, type CliResult } from './workspaceBench';
import { publish, savedSection } from './reportSection';

const ROOT = join(__dirname, '..');
const RESULTS = join(ROOT, 'bench', 'linearity-results.json');
const REPORT = join(ROOT, 'bench', 'REPORT.md');

export interface LinearityOptions {
  sizes: number[];
  runs: number;
  jobs?: number;
  /** Another build's dist/cli.js, run in the same rounds. */
  compare?: string;
  dry: boolean;
}

const DEFAULT_SIZES = [500, 1000, 2000, 5000, 10_000, 20_000];
const positive = (s: string) => /^[1-9]\d*$/.test(s);

export const usageProblem = (argv: readonly string[]): UsageProblem | undefined =>
  usageOf(
    __filename,
    argv,
    a =>
      a === '--dry' ||
      (a.startsWith('--sizes=') && a.slice(8).split(',').every(positive) && new Set(a.slice(8).split(',')).size >= 2) ||
      (a.startsWith('--runs=') && positive(a.slice(7))) ||
      (a.startsWith('--jobs=') && positive(a.slice(7))) ||
      (a.startsWith('--compare=') && existsSync(a.slice(10))),
  );

/** The options of a command line `usageProblem` accepted. */
export function readOptions(argv: readonly string[]): LinearityOptions {
  const value = (name: string) => argv.find(a => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const sizes = value('sizes');
  const jobs = value('jobs');
  const compare = value('compare');
  return {
    sizes: sizes ? [...new Set(sizes.split(',').map(Number))].sort((a, b) => a - b) : DEFAULT_SIZES,
    runs: Number(value('runs') ?? 3),
    ...(jobs ? { jobs: Number(jobs) } : {}),
    ...(compare ? { compare: resolve(compare) } : {}),
    dry: argv.includes('--dry'),
  };
}

export interface Line {
  /** CPU ms per added file. */
  readonly slope: number;
  /** CPU ms at no file: the fixed cost, as the line sees it. */
  readonly intercept: number;
  /** The largest |residual| ÷ the CPU at that size. */
  readonly worstResidual: number;
}

/** The least-squares line through the points (n, cpuMs). */
export function fitLine(points: readonly { n: number; cpuMs: number }[]): Line {
  if (points.length < 2) throw new Error('a line needs two sizes');
  const k = points.length;
  const mx = points.reduce((s, p) => s + p.n, 0) / k;
  const my = points.reduce((s, p) => s + p.cpuMs, 0) / k;
  const sxx = points.reduce((s, p) => s + (p.n - mx) ** 2, 0);
  if (sxx === 0) throw new Error('a line needs two different sizes');
  const slope = points.reduce((s, p) => s + (p.n - mx) * (p.cpuMs - my), 0) / sxx;
  const intercept = my - slope * mx;
  const worstResidual = Math.max(...points.map(p => Math.abs(p.cpuMs - (intercept + slope * p.n)) / p.cpuMs));
  return { slope, intercept, worstResidual };
}

interface SizeRow {
  n: number;
  bytes: number;
  loads: number[];
  ours: { wallMs: number; cpuMs: number; rssMb: number };
  floor: { wallMs: number; cpuMs: number; rssMb: number };
  ratio: number;
  problems: string;
  runs: { ours: { wallMs: number; cpuMs: number; rssMb: number }[]; floor: { wallMs: number; cpuMs: number; rssMb: number }[] };
  /** The `--compare` build: its medians, its ÷ floor, its runs. */
  compare?: {
    median: { wallMs: number; cpuMs: number; rssMb: number };
    ratio: number;
    runs: { wallMs: number; cpuMs: number; rssMb: number }[];
  };
}

export interface LinearityResults {
  date: string;
  options: LinearityOptions;
  sizes: SizeRow[];
  ours: Line;
  floor: Line;
  /** Ours' slope ÷ the floor's, less 1 (0.15 = 15 % more CPU per added file). */
  slopeGap: number;
  /** The `--compare` build's line and its slope ÷ the floor's, less 1. */
  compare?: { line: Line; slopeGap: number };
}

const brief = (r: { wallMs: number; cpuMs: number; maxRssMb: number }) => ({ wallMs: r.wallMs, cpuMs: r.cpuMs, rssMb: r.maxRssMb });
const med = (rs: { wallMs: number; cpuMs: number; rssMb: number }[]) => ({
  wallMs: median(rs.map(r => r.wallMs)),
  cpuMs: median(rs.map(r => r.cpuMs)),
  rssMb: median(rs.map(r => r.rssMb)),
});
const tally = (codes: string[]) => {
  const t = new Map<string, number>();
  for (const c of codes) t.set(c, (t.get(c) ?? 0) + 1);
  return [...t].map(([c, k]) => `${c}×${k}`).join(' ');
};

export async function main(o: LinearityOptions): Promise<LinearityResults> {
  mkdirSync(join(ROOT, 'bench', 'work'), { recursive: true });
  const dirs = o.sizes.map(n => {
    const dir = join(ROOT, 'bench', 'work', `ws-${n}`);
    return { n, dir, bytes: writeWorkspace(dir, n).bytes };
  });
  const ours = new Map<number, CliResult[]>(o.sizes.map(n => [n, []]));
  const floors = new Map<number, ProcessRun[]>(o.sizes.map(n => [n, []]));
  const loads = new Map<number, number[]>(o.sizes.map(n => [n, []]));
  const others = new Map<number, CliResult[]>(o.sizes.map(n => [n, []]));
  const extra = o.jobs ? ['--jobs', String(o.jobs)] : [];
  const found = (c: CliResult, n: number) => {
    if (c.problems.length !== 2 * brokenCount(n))
      throw new Error(`check of ${n} files found ${c.problems.length} problems, not ${2 * brokenCount(n)}`);
    return c;
  };
  for (let round = 0; round < o.runs; round++)
    for (const [k, { n, dir }] of dirs.entries()) {
      loads.get(n)!.push(loadavg()[0]!);
      // Alternating which goes first, so neither always runs on the other's warm page cache; the other build
      // (--compare) goes first, between or last in turn.
      const floorFirst = (round + k) % 2 === 0;
      const slot = (round + k) % 3;
      const other = async () => {
        if (o.compare) others.get(n)!.push(found(await runCli(dir, extra, o.compare), n));
      };
      if (slot === 0) await other();
      if (floorFirst) floors.get(n)!.push(await runFloor(dir));
      if (slot === 1) await other();
      const c = found(await runCli(dir, extra), n);
      if (!floorFirst) floors.get(n)!.push(await runFloor(dir));
      if (slot === 2) await other();
      ours.get(n)!.push(c);
      const f = floors.get(n)!.at(-1)!;
      const x = others.get(n)!.at(-1);
      process.stdout.write(
        `round ${round + 1}, ${n} files (load ${loads.get(n)!.at(-1)!.toFixed(1)}): ours ${(c.cpuMs / 1000).toFixed(2)} s CPU, ${(c.wallMs / 1000).toFixed(2)} s wall, ${c.maxRssMb.toFixed(0)} MB | floor ${(f.cpuMs / 1000).toFixed(2)} s CPU, ${(f.wallMs / 1000).toFixed(2)} s wall${x ? ` | compared ${(x.cpuMs / 1000).toFixed(2)} s CPU, ${(x.wallMs / 1000).toFixed(2)} s wall, ${x.maxRssMb.toFixed(0)} MB` : ''}\n`,
      );
    }
  const sizes: SizeRow[] = dirs.map(({ n, bytes }) => {
    const runs = { ours: ours.get(n)!.map(brief), floor: floors.get(n)!.map(brief) };
    const mo = med(runs.ours),
      mf = med(runs.floor);
    const xs = others.get(n)!.map(brief);
    const mx = xs.length ? med(xs) : undefined;
    return {
      n,
      bytes,
      loads: loads.get(n)!,
      ours: mo,
      floor: mf,
      ratio: mo.cpuMs / mf.cpuMs,
      problems: tally(ours.get(n)![0]!.problems),
      runs,
      ...(mx ? { compare: { median: mx, ratio: mx.cpuMs / mf.cpuMs, runs: xs } } : {}),
    };
  });
  const lo = fitLine(sizes.map(s => ({ n: s.n, cpuMs: s.ours.cpuMs })));
  const lf = fitLine(sizes.map(s => ({ n: s.n, cpuMs: s.floor.cpuMs })));
  const lx = o.compare ? fitLine(sizes.map(s => ({ n: s.n, cpuMs: s.compare!.median.cpuMs }))) : undefined;
  return {
    date: new Date().toISOString(),
    options: o,
    sizes,
    ours: lo,
    floor: lf,
    slopeGap: lo.slope / lf.slope - 1,
    ...(lx ? { compare: { line: lx, slopeGap: lx.slope / lf.slope - 1 } } : {}),
  };
}

const f2 = (x: number) => x.toFixed(2);
const s1 = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const pc = (x: number) => `${(x * 100).toFixed(0)} %`;

/** Ours' slope ÷ the floor's, less 1, with each size left out in turn: the smallest and the largest (three sizes or more). */
export function gapWithoutEach(
  sizes: readonly { n: number; ours: { cpuMs: number }; floor: { cpuMs: number } }[],
): [number, number] | undefined {
  if (sizes.length < 3) return undefined;
  const gaps = sizes.map((_, i) => {
    const rest = sizes.filter((_, j) => j !== i);
    return (
      fitLine(rest.map(s => ({ n: s.n, cpuMs: s.ours.cpuMs }))).slope / fitLine(rest.map(s => ({ n: s.n, cpuMs: s.floor.cpuMs }))).slope - 1
    );
  });
  return [Math.min(...gaps), Math.max(...gaps)];
}

/** The section of bench/REPORT.md. */
export function linearityMarkdown(r: LinearityResults): string {
  const ratios = r.sizes.map(s => s.ratio);
  const rising = ratios.at(-1)! > ratios[0]! + 0.05;
  const without = gapWithoutEach(r.sizes);
  const sign = (x: number) => `${x >= 0 ? '+' : ''}${pc(x)}`;
  return [
    '## Linearity: `check` against the `yaml` floor (`bench/linearityBench.ts`)',
    '',
    `${r.date.slice(0, 16).replace('T', ' ')} UTC, ${r.options.runs} interleaved rounds, medians; \`check <dir> --format json\`${r.options.jobs ? ` --jobs ${r.options.jobs}` : ' (default jobs)'}, the floor \`bench/yamlFloor.mjs\` on two threads. Load (1 min) at each size's runs beside it.`,
    '',
    '| files | load | ours: CPU / wall / RSS | floor: CPU / wall / RSS | ours ÷ floor (CPU) | problems found |',
    '|---|---|---|---|---|---|',
    ...r.sizes.map(
      s =>
        `| ${s.n} | ${s.loads.map(x => x.toFixed(1)).join(', ')} | ${s1(s.ours.cpuMs)} / ${s1(s.ours.wallMs)} / ${s.ours.rssMb.toFixed(0)} MB | ${s1(s.floor.cpuMs)} / ${s1(s.floor.wallMs)} / ${s.floor.rssMb.toFixed(0)} MB | ${f2(s.ratio)} | ${s.problems} |`,
    ),
    '',
    ...(r.compare
      ? [
          `The other build (\`--compare=${r.options.compare}\`), same rounds: ÷ floor ${r.sizes.map(s => f2(s.compare!.ratio)).join(' → ')}; CPU ${r.sizes.map(s => s1(s.compare!.median.cpuMs)).join(' / ')}; CPU per added file ${f2(r.compare.line.slope)} ms (fixed ${s1(r.compare.line.intercept)}): ${r.compare.slopeGap >= 0 ? '+' : ''}${pc(r.compare.slopeGap)} against the floor.`,
          '',
        ]
      : []),
    `CPU per added file (least squares over the sizes): ours ${f2(r.ours.slope)} ms (fixed ${s1(r.ours.intercept)}, largest residual ${pc(r.ours.worstResidual)}), the floor ${f2(r.floor.slope)} ms (fixed ${s1(r.floor.intercept)}, largest residual ${pc(r.floor.worstResidual)}): ours ${r.slopeGap >= 0 ? '+' : ''}${pc(r.slopeGap)} against the floor (target within 15 %: ${Math.abs(r.slopeGap) <= 0.15 ? 'met' : 'not met'}${without ? `; with each size left out in turn ${sign(without[0])} to ${sign(without[1])}` : ''}). Ours ÷ floor ${Math.max(...ratios) <= 1.5 ? '≤ 1.5 at every size' : 'above 1.5 at some size'}, ${rising ? 'rising' : 'not rising'} (${ratios.map(f2).join(' → ')}).`,
    '',
  ].join('\n');
}

/** The section from bench/linearity-results.json, or '' without it. */
export const linearitySection = (): string => savedSection<LinearityResults>(RESULTS, linearityMarkdown);

async function run(o: LinearityOptions): Promise<void> {
  const r = await main(o);
  publish(r, linearityMarkdown(r), { results: RESULTS, report: REPORT }, o.dry);
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  runUnless(usageProblem(argv), () => run(readOptions(argv)));
}
