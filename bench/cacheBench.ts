/**
 * `check --cache` on the generated monorepo (issue 23 item 4): N files (default 10,000), one cold run
 * that fills the cache, then the median wall time of R runs with nothing changed and of R runs with 1 %
 * of the files changed (a comment line appended to each, so every run changes different bytes). The
 * CLI runs as users run it (`node dist/cli.js`, all cores), with its own XDG_CACHE_HOME. Writes
 * bench/cache-results.json.
 *
 *   npm run build && node --import tsx bench/cacheBench.ts [--files=10000] [--runs=5]
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './floor';
import { pathOf, writeWorkspace } from './genWorkspace';

const ROOT = join(__dirname, '..');
const arg = (name: string, d: number) => Number(process.argv.find(a => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? d);
const N = arg('files', 10_000);
const RUNS = arg('runs', 5);

const dir = mkdtempSync(join(tmpdir(), 'mcp-aql-cache-bench-'));
const home = mkdtempSync(join(tmpdir(), 'mcp-aql-cache-bench-home-'));
function check(): { ms: number; exit: number | null; problems: number } {
  const t = performance.now();
  const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'check', '.', '--cache', '--format', 'json'], {
    cwd: dir,
    env: { ...process.env, XDG_CACHE_HOME: home },
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const ms = performance.now() - t;
  const problems = (JSON.parse(r.stdout) as { diagnostics: unknown[] }[]).reduce((n, f) => n + f.diagnostics.length, 0);
  return { ms, exit: r.status, problems };
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
  for (let r = 0; r < RUNS; r++) unchanged.push(check().ms);
  const changed: number[] = [];
  const step = 100; // 1 %
  for (let r = 0; r < RUNS; r++) {
    const touched = all.filter((_, i) => i % step === r % step);
    for (const p of touched) appendFileSync(p, p.endsWith('.json') ? ' ' : `\n# edit ${r}\n`);
    age(touched);
    changed.push(check().ms);
  }
  const last = check();
  const result = {
    files: N,
    runs: RUNS,
    coldMs: Math.round(cold.ms),
    unchangedMedianMs: Math.round(median(unchanged)),
    unchangedMs: unchanged.map(Math.round),
    onePercentChangedMedianMs: Math.round(median(changed)),
    onePercentChangedMs: changed.map(Math.round),
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
