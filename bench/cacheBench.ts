/**
 * `check --cache` on the generated monorepo (docs/performance.md): N files (default 10,000), one cold run
 * that fills the cache (its CPU time and peak RSS), then the median wall time of R runs with nothing
 * changed and of R runs with 1 % of the files changed (a comment line appended to each, so every run
 * changes different bytes; one file in each hundred, spread over the three kinds and over the files with
 * problems, whose "did you mean" reads every name). The CLI runs as users run it (`node dist/cli.js`,
 * all cores), with its own XDG_CACHE_HOME. Writes bench/cache-results.json (wall and CPU medians, and
 * the load average: on a shared machine wall time mostly measures the other processes).
 *
 *   npm run build && node --import tsx bench/cacheBench.ts [--files=10000] [--runs=5]
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './floor';
import { pathOf, writeWorkspace } from './genWorkspace';

const ROOT = join(__dirname, '..');
const arg = (name: string, d: number) => Number(process.argv.find(a => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? d);
const N = arg('files', 10_000);
const RUNS = arg('runs', 5);

const dir = mkdtempSync(join(tmpdir(), 'mcp-aql-cache-bench-'));
const home = mkdtempSync(join(tmpdir(), 'mcp-aql-cache-bench-home-'));
/** One run: wall time, CPU time of all its threads and peak RSS (bench/rss.cjs), exit status and problem count. */
function check(): { ms: number; cpuMs: number; rssMb: number; exit: number | null; problems: number } {
  const t = performance.now();
  const r = spawnSync(
    process.execPath,
    ['--require', join(ROOT, 'bench', 'rss.cjs'), join(ROOT, 'dist', 'cli.js'), 'check', '.', '--cache', '--format', 'json'],
    {
      cwd: dir,
      env: { ...process.env, XDG_CACHE_HOME: home },
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    },
  );
  const ms = performance.now() - t;
  const problems = (JSON.parse(r.stdout) as { diagnostics: unknown[] }[]).reduce((n, f) => n + f.diagnostics.length, 0);
  const usage = JSON.parse(/BENCH (\{.*\})/.exec(r.stderr)?.[1] ?? '{"cpuMs":NaN,"maxRssKb":NaN}') as { cpuMs: number; maxRssKb: number };
  return { ms, cpuMs: usage.cpuMs, rssMb: Math.round(usage.maxRssKb / 1024), exit: r.status, problems };
}
/** Set every file's times an hour back, as a checkout some time ago would have them (not racy). */
function age(paths: string[]): void {
  const then = new Date(Date.now() - 3_600_000);
  for (const p of paths) utimesSync(p, then, then);
}

try {
  writeWorkspace(dir, N);
  const all = Array.from({ length: N }, (_, i) => join(dir, pathOf(i)));
  age(all);
  const cold = check();
  const unchanged: number[] = [];
  const unchangedCpu: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const c = check();
    unchanged.push(c.ms);
    unchangedCpu.push(c.cpuMs);
  }
  const changed: number[] = [];
  const changedCpu: number[] = [];
  const step = 100; // 1 %: in each hundred files, one at a position that moves from hundred to hundred (every kind of file)
  for (let r = 0; r < RUNS; r++) {
    const touched = all.filter((_, i) => i % step === (Math.floor(i / step) * 37 + r) % step);
    for (const p of touched) appendFileSync(p, p.endsWith('.json') ? ' ' : `\n# edit ${r}\n`);
    age(touched);
    const c = check();
    changed.push(c.ms);
    changedCpu.push(c.cpuMs);
  }
  const last = check();
  const result = {
    files: N,
    runs: RUNS,
    coldMs: Math.round(cold.ms),
    coldCpuMs: Math.round(cold.cpuMs),
    coldMaxRssMb: cold.rssMb,
    unchangedMedianMs: Math.round(median(unchanged)),
    unchangedMs: unchanged.map(Math.round),
    unchangedCpuMedianMs: Math.round(median(unchangedCpu)),
    onePercentChangedMedianMs: Math.round(median(changed)),
    onePercentChangedMs: changed.map(Math.round),
    onePercentChangedCpuMedianMs: Math.round(median(changedCpu)),
    loadAverage: loadavg().map(x => Math.round(x * 10) / 10),
    exit: [cold.exit, last.exit],
    problems: [cold.problems, last.problems],
    node: process.version,
  };
  writeFileSync(join(ROOT, 'bench', 'cache-results.json'), JSON.stringify(result, null, 2) + '\n');
  console.log(JSON.stringify(result, null, 2));
} finally {
  rmSync(dir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
}
