/**
 * npm run bench: our built server and yaml-language-server 2.0.0 (given the equivalent JSON Schema) on
 * the same generated files, in one run, plus the `yaml` floor. Writes bench/results.json and regenerates
 * bench/REPORT.md (every table; docs/performance.md is the hand-written summary, bench/NOTES.md the history
 * of the figures). Flags: --quick (N = 100 and 1,000, 3 processes), --full (5 yaml-language-server
 * processes at every N, 20,000 included; slow), --sizes=N,M and --ours-only for a quick look (they still
 * overwrite the results: run the default before committing them). Workspace scenarios (bench/workspaceBench.ts):
 * generated monorepos of --ws-sizes=500,2000,10000,20000 files (the default), --ws-runs=N CLI
 * runs each (default 3, interleaved with as many runs of the `yaml` floor), Spectral once per size up to
 * 10,000 (--spectral-max=N to change that, --no-spectral to skip it); --workspace-only skips the one-file scenarios, --no-workspace skips the
 * workspace ones. --first-diagnostics runs only bench/firstDiagnosticsBench.ts (a small adapter opened in a folder
 * of 12 MiB of adapters: server start, first check, scan, cross-file result; 3 runs with --quick) and rewrites its
 * results and section. Keystrokes: each server process gets the cold ones first (one in a template of the first,
 * middle and last entries: the first of them is the first keystroke after open), then --warmup=N unmeasured
 * (default 20) and --warm=N measured ones (default 20), the same for both servers.
 */
import { SERVER_ENV, SERVER_EXEC_ARGV } from '../server/src/protocol';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { floor, type FloorResult } from './floor';
import { proxyMarkdown } from './proxyBench';
import { REPORT } from './proxyMarkdown';
import { firstDiagnosticsMarkdown, main as firstDiagnosticsMain } from './firstDiagnosticsBench';
import { generate } from './gen';
import { REALISTIC, runOnce, type ClientProfile, type RunResult, type ServerSpec } from './lspBench';
import { brokenCount, writeWorkspace } from './genWorkspace';
import { perFileSpread, slopeSpread } from './linearity';
import { linearitySection } from './linearityBench';
import { runtimeSection } from './runtimeBench';
import { ensureSpectral, runFloor, runSpectral, SPECTRAL_VERSION, type ProcessRun } from './spectralBench';
import { runCli, runServer, type CliResult, type ServerResult } from './workspaceBench';
import { runUnless, usageOf, type UsageProblem } from './usage';

const ROOT = join(__dirname, '..');
const WORK = join(ROOT, 'bench', 'work');
const quick = process.argv.includes('--quick');
const full = process.argv.includes('--full');
const sizesArg = process.argv.find(a => a.startsWith('--sizes='));
const SIZES = sizesArg ? sizesArg.slice(8).split(',').map(Number) : quick ? [100, 1000] : [100, 1000, 10_000, 20_000];
/** --from-results: run nothing, re-render bench/REPORT.md and the targets from bench/results.json. */
const fromResults = process.argv.includes('--from-results');
const oursOnly = process.argv.includes('--ours-only');
const wsArg = process.argv.find(a => a.startsWith('--ws-sizes='));
const WS_SIZES = wsArg ? wsArg.slice(11).split(',').map(Number) : quick ? [500, 2000] : [500, 2000, 10_000, 20_000];
const wsRunsArg = process.argv.find(a => a.startsWith('--ws-runs='));
const WS_RUNS = wsRunsArg ? Number(wsRunsArg.slice(10)) : quick ? 1 : 3;
const noSpectral = process.argv.includes('--no-spectral');
const spectralMaxArg = process.argv.find(a => a.startsWith('--spectral-max='));
/** The largest size Spectral runs at (default 10,000; all with --full): minutes per run on a shared machine. */
const SPECTRAL_MAX = spectralMaxArg ? Number(spectralMaxArg.slice(15)) : full ? Infinity : 10_000;
const spectralAt = (n: number) => !noSpectral && n <= SPECTRAL_MAX;
const workspaceOnly = process.argv.includes('--workspace-only');
const noWorkspace = process.argv.includes('--no-workspace');
const count = (name: string, def: number) => Number(process.argv.find(a => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? def);
/** The client every one-file run uses: an editor's, with the warm-up and warm keystrokes after the cold ones. */
const CLIENT: ClientProfile = { ...REALISTIC, warmup: count('warmup', 20), warm: count('warm', 20) };
const OURS_RUNS = quick ? 3 : 5;
/** Sizes also measured in a folder holding a second adapter with the same codes (ours only), and how many processes. */
const SHARED_SIZES = [1000, 10_000];
const SHARED_RUNS = quick ? 2 : 3;
const ylsRuns = (n: number) => (oursOnly ? 0 : quick ? 3 : full ? 5 : n >= 20_000 ? 0 : n >= 10_000 ? 3 : 5);

const schemaUri = pathToFileURL(join(ROOT, 'bench', 'error-blocks.schema.json')).href;
const ours: ServerSpec = {
  name: 'mcp-aql-errors',
  command: [process.execPath, ...SERVER_EXEC_ARGV, join(ROOT, 'dist', 'server.js'), '--stdio'],
  settings: () => ({}),
  env: SERVER_ENV,
};
const yls: ServerSpec = {
  name: 'yaml-language-server 2.0.0',
  command: [process.execPath, join(ROOT, 'node_modules', 'yaml-language-server', 'bin', 'yaml-language-server'), '--stdio'],
  settings: section => {
    const yaml = {
      schemas: { [schemaUri]: ['*.adapter.yaml'] },
      schemaStore: { enable: false },
      kubernetesCRDStore: { enable: false },
      validate: true,
      completion: true,
      hover: true,
      format: { enable: false },
    };
    return section === undefined
      ? { yaml }
      : section === 'yaml'
        ? yaml
        : section.startsWith('yaml.')
          ? ((yaml as Record<string, unknown>)[section.slice(5)] ?? null)
          : null;
  },
};

const median = (xs: number[]) => {
  const s = xs.filter(x => !Number.isNaN(x)).sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : NaN;
};
const min = (xs: number[]) => Math.min(...xs.filter(x => !Number.isNaN(x)));
const p90 = (xs: number[]) => {
  const s = xs.filter(x => !Number.isNaN(x)).sort((a, b) => a - b);
  return s.length ? s[Math.ceil(s.length * 0.9) - 1]! : NaN;
};

interface Summary {
  runs: number;
  initialize: number;
  open: number;
  openCpu: number;
  /** The cold keystrokes (the first three of each process): median, its CPU, the fastest. */
  change: number;
  changeCpu: number;
  changeMin: number;
  /** The first keystroke after open, median over the processes, and its CPU. */
  first: number;
  firstCpu: number;
  /** The warm keystrokes of every process together: median and p90, wall and CPU, and how many. */
  warm: number;
  warmP90: number;
  warmCpu: number;
  warmCpuP90: number;
  warmCount: number;
  completionCategory: number;
  completionCode: number;
  hover: number;
  symbols: number;
  vmHwmMb: number;
  openDiagnostics: number[];
  timeouts: string[];
  wrong: string[];
  /** Median 1-minute load average at the runs' starts. */
  load: number;
}

function summarize(rs: RunResult[]): Summary {
  return {
    runs: rs.length,
    initialize: median(rs.map(r => r.initialize)),
    open: median(rs.map(r => r.open)),
    openCpu: median(rs.map(r => r.openCpu)),
    change: median(rs.flatMap(r => r.change)),
    changeCpu: median(rs.flatMap(r => r.changeCpu)),
    changeMin: min(rs.flatMap(r => r.change)),
    first: median(rs.map(r => r.change[0] ?? NaN)),
    firstCpu: median(rs.map(r => r.changeCpu[0] ?? NaN)),
    warm: median(rs.flatMap(r => r.warm)),
    warmP90: p90(rs.flatMap(r => r.warm)),
    warmCpu: median(rs.flatMap(r => r.warmCpu)),
    warmCpuP90: p90(rs.flatMap(r => r.warmCpu)),
    warmCount: rs.flatMap(r => r.warm).length,
    completionCategory: median(rs.map(r => r.completionCategory)),
    completionCode: median(rs.map(r => r.completionCode)),
    hover: median(rs.map(r => r.hover)),
    symbols: median(rs.map(r => r.symbols)),
    vmHwmMb: median(rs.map(r => r.vmHwmMb)),
    openDiagnostics: rs.map(r => r.openDiagnostics),
    timeouts: rs.flatMap(r => r.timeouts),
    wrong: rs.flatMap(r => r.wrong ?? []),
    load: median(rs.map(r => r.load)),
  };
}

async function main() {
  mkdirSync(WORK, { recursive: true });
  if (process.argv.includes('--first-diagnostics')) return firstDiagnosticsMain(quick ? ['--runs=3'] : []);
  const results: Row[] = [];
  for (const n of workspaceOnly || fromResults ? [] : SIZES) {
    const text = generate(n);
    // One folder per size: the client opens it as its workspace folder, as an editor would.
    const dir = join(WORK, `n-${n}`);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `bench-${n}.adapter.yaml`);
    writeFileSync(file, text);
    // The same folder with a second adapter declaring the same codes (a repository of adapters): the index
    // holds both files, and what depends on other files (code.declared-elsewhere, resolution) is read on each keystroke.
    const sharedFile = SHARED_SIZES.includes(n) ? join(WORK, `n-${n}-shared`, `bench-${n}.adapter.yaml`) : undefined;
    if (sharedFile) {
      mkdirSync(dirname(sharedFile), { recursive: true });
      writeFileSync(sharedFile, text);
      writeFileSync(join(dirname(sharedFile), `sibling-${n}.adapter.yaml`), text);
    }
    // Interleaved, so a change in the machine's load hits both servers alike.
    const o: RunResult[] = [];
    const y: RunResult[] = [];
    const sh: RunResult[] = [];
    for (let i = 0; i < Math.max(OURS_RUNS, ylsRuns(n)); i++) {
      if (i < OURS_RUNS) o.push(await runOnce(ours, file, text, n, CLIENT));
      if (i < ylsRuns(n)) y.push(await runOnce(yls, file, text, n, CLIENT));
      if (sharedFile && i < SHARED_RUNS) sh.push(await runOnce(ours, sharedFile, text, n, CLIENT));
    }
    const f = floor(text, n, quick ? 3 : 5);
    const row = {
      n,
      bytes: text.length,
      ours: summarize(o),
      yls: y.length ? summarize(y) : undefined,
      shared: sh.length ? summarize(sh) : undefined,
      floor: f,
    };
    results.push(row);
    process.stdout.write(
      `N=${n}: ours open ${row.ours.open.toFixed(0)} ms (CPU ${row.ours.openCpu.toFixed(0)}), first keystroke ${row.ours.first.toFixed(1)} ms (CPU ${row.ours.firstCpu.toFixed(1)}), warm keystroke ${row.ours.warm.toFixed(1)} ms (CPU ${row.ours.warmCpu.toFixed(1)}), completion ${row.ours.completionCategory.toFixed(1)} ms, VmHWM ${row.ours.vmHwmMb.toFixed(0)} MB` +
        (row.yls
          ? ` | yls open ${row.yls.open.toFixed(0)} ms, first keystroke ${row.yls.first.toFixed(0)} ms, warm ${row.yls.warm.toFixed(0)} ms, completion ${row.yls.completionCategory.toFixed(0)} ms, VmHWM ${row.yls.vmHwmMb.toFixed(0)} MB`
          : '') +
        (row.shared
          ? ` | shared folder: first keystroke ${row.shared.first.toFixed(1)} ms, warm ${row.shared.warm.toFixed(1)} ms (CPU ${row.shared.warmCpu.toFixed(1)})`
          : '') +
        ` | floor compose ${f.composeNoUnique.toFixed(0)} ms, load ${row.ours.load.toFixed(1)}\n`,
    );
  }
  const workspace: WorkspaceRow[] = [];
  const spectralReady = !noWorkspace && !fromResults && !noSpectral && ensureSpectral();
  for (const n of noWorkspace || fromResults ? [] : WS_SIZES) {
    const dir = join(WORK, `ws-${n}`);
    const { bytes } = writeWorkspace(dir, n);
    const cli: CliResult[] = [];
    const floors: ProcessRun[] = [];
    const loads: number[] = [];
    // Interleaved, so a change in the machine's load hits both alike.
    for (let i = 0; i < WS_RUNS; i++) {
      loads.push(loadavg()[0]!);
      floors.push(await runFloor(dir));
      const c = await runCli(dir);
      cli.push({ ...c, problems: [tallied(c.problems)] });
    }
    const spectral = spectralReady && spectralAt(n) ? await runSpectral(dir) : undefined;
    const server = await runServer(dir, n);
    const row: WorkspaceRow = {
      n,
      bytes,
      cli,
      server,
      cliWallMs: median(cli.map(c => c.wallMs)),
      cliCpuMs: median(cli.map(c => c.cpuMs)),
      cliRssMb: median(cli.map(c => c.maxRssMb)),
      floorWallMs: median(floors.map(c => c.wallMs)),
      floorCpuMs: median(floors.map(c => c.cpuMs)),
      floorRssMb: median(floors.map(c => c.maxRssMb)),
      spectral: spectral && { wallMs: spectral.wallMs, cpuMs: spectral.cpuMs, maxRssMb: spectral.maxRssMb, problems: spectral.problems },
      loadavg: median(loads),
      requestMaxMs: Math.max(0, ...server.requestMs),
      requestMedianMs: median(server.requestMs),
    };
    workspace.push(row);
    process.stdout.write(
      `workspace N=${n} (load ${row.loadavg.toFixed(1)}): CLI ${(row.cliWallMs / 1000).toFixed(1)} s wall, ${(row.cliCpuMs / 1000).toFixed(1)} s CPU, ${row.cliRssMb.toFixed(0)} MB peak, problems ${cli[0]!.problems.join(' ')} | floor ${(row.floorWallMs / 1000).toFixed(1)} s wall, ${(row.floorCpuMs / 1000).toFixed(1)} s CPU` +
        (spectral
          ? ` | Spectral ${(spectral.wallMs / 1000).toFixed(1)} s wall, ${(spectral.cpuMs / 1000).toFixed(1)} s CPU, ${spectral.maxRssMb.toFixed(0)} MB`
          : '') +
        ` | server indexed in ${(server.indexMs / 1000).toFixed(1)} s, ${server.requestMs.length} requests during the scan (median ${row.requestMedianMs.toFixed(0)} ms, max ${row.requestMaxMs.toFixed(0)} ms)\n`,
    );
  }
  const previous = (() => {
    try {
      return JSON.parse(readFileSync(join(ROOT, 'bench', 'results.json'), 'utf8')) as {
        meta?: object;
        results?: typeof results;
        workspace?: WorkspaceRow[];
      };
    } catch {
      return {};
    }
  })();
  const meta =
    fromResults && previous.meta
      ? previous.meta
      : {
          date: new Date().toISOString(),
          node: process.version,
          cpus: cpus().length,
          loadavg: loadavg().map(x => Number(x.toFixed(2))),
          mode: quick ? 'quick' : full ? 'full' : 'default',
        };
  // A partial run (--workspace-only, --no-workspace) keeps the other part of the previous results.
  if (workspaceOnly || fromResults) results.push(...(previous.results ?? []));
  if (noWorkspace || fromResults) workspace.push(...(previous.workspace ?? []));
  const ok = [...verify(results), ...verifyWorkspace(workspace)];
  writeFileSync(join(ROOT, 'bench', 'results.json'), JSON.stringify({ meta, results, workspace, targets: ok }, null, 2) + '\n');
  writeFileSync(
    REPORT,
    markdown(meta, results, ok) +
      workspaceMarkdown(workspace) +
      proxyMarkdown() +
      firstDiagnosticsMarkdown() +
      linearitySection() +
      runtimeSection(),
  );
  process.stdout.write(`\n${ok.map(t => `${t.met ? 'met ' : 'MISS'}  ${t.what}: ${t.value} (target ${t.target})`).join('\n')}\n`);
}

interface Target {
  what: string;
  value: string;
  target: string;
  met: boolean;
}

interface WorkspaceRow {
  n: number;
  bytes: number;
  cli: CliResult[];
  server: ServerResult;
  cliWallMs: number;
  cliCpuMs: number;
  cliRssMb: number;
  floorWallMs: number;
  floorCpuMs: number;
  floorRssMb: number;
  spectral?: { wallMs: number; cpuMs: number; maxRssMb: number; problems: Record<string, number> };
  /** The 1-minute load average before the runs (the machine is shared). */
  loadavg: number;
  requestMaxMs: number;
  requestMedianMs: number;
}

/** A run's problems, counted per code (results.json keeps this, not one entry per problem). */
const tallied = (codes: readonly string[]): string => {
  const by = new Map<string, number>();
  for (const c of codes) by.set(c, (by.get(c) ?? 0) + 1);
  return [...by].map(([c, k]) => `${c} ×${k}`).join(', ');
};
/** Two problems per broken file (bench/genWorkspace.ts `isBroken`): an unknown code, an unknown placeholder. */
const expected = (n: number) => `mapping.unknown-code ×${brokenCount(n)}, template.unknown-placeholder ×${brokenCount(n)}`;

function verifyWorkspace(ws: WorkspaceRow[]): Target[] {
  const out: Target[] = [];
  for (const r of ws) {
    const bad = r.cli.filter(c => c.problems.join(' ') !== expected(r.n)).length;
    out.push({
      what: `workspace N=${r.n}: every CLI run reported exactly the ${2 * brokenCount(r.n)} planted problems (2 in each of ${brokenCount(r.n)} files)`,
      value: `${r.cli.length - bad}/${r.cli.length}`,
      target: 'all',
      met: bad === 0,
    });
    if (r.spectral) {
      const p = r.spectral.problems;
      const same =
        p['mcp-aql-unknown-code'] === brokenCount(r.n) && p['mcp-aql-unknown-placeholder'] === brokenCount(r.n) && !p['mcp-aql-schema'];
      out.push({
        what: `workspace N=${r.n}: Spectral's ruleset found the same problems (an honest comparison)`,
        value: JSON.stringify(p),
        target: `${brokenCount(r.n)} of each`,
        met: same,
      });
    }
    out.push({
      what: `workspace N=${r.n}: the server indexed every file`,
      value: r.server.indexedLog.replace(/^.*indexed /, ''),
      target: `${r.n} files`,
      met: new RegExp(`indexed (${r.n}|${r.n + 1}) adapter`).test(r.server.indexedLog),
    });
  }
  const at = (n: number) => ws.find(r => r.n === n);
  const t = (what: string, v: number | undefined, limit: number, unit: string, atLeast = false) => {
    if (v !== undefined && !Number.isNaN(v))
      out.push({
        what,
        value: `${v.toFixed(2)} ${unit}`,
        target: `${atLeast ? '≥' : '≤'} ${limit} ${unit}`,
        met: atLeast ? v >= limit : v <= limit,
      });
  };
  const b = at(10_000);
  t('CLI check of 10,000 files, wall time (2 cores)', b && b.cliWallMs / 1000, 15, 's');
  t('CLI check of 10,000 files, CPU ÷ the `yaml` parse floor', b && b.cliCpuMs / b.floorCpuMs, 1.5, '×');
  t('CLI check of 10,000 files, peak RSS', b?.cliRssMb, 400, 'MB');
  if (ws.length > 1) {
    // CPU per file at each size: the issue's reading. The floor pays a start-up and a warm-up per thread too, so its
    // own figures are beside ours (bench/linearity.ts).
    const ours = perFileSpread(ws.map(r => ({ n: r.n, cpuMs: r.cliCpuMs })));
    const fl = perFileSpread(ws.map(r => ({ n: r.n, cpuMs: r.floorCpuMs })));
    const ms = (xs: number[]) => xs.map(x => x.toFixed(2)).join(' / ');
    const pc = (x: number) => `${(x * 100).toFixed(0)} %`;
    out.push({
      what: `CLI CPU per file, ${ws.map(r => r.n).join(' / ')} files (ms): the largest distance from their median`,
      value: `${ms(ours.perFile)}: ${pc(ours.worst)} (the floor: ${ms(fl.perFile)} ms: ${pc(fl.worst)}; ours ÷ floor ${ws.map(r => (r.cliCpuMs / r.floorCpuMs).toFixed(2)).join(' / ')}×)`,
      target: '≤ 15 %',
      met: ours.worst <= 0.15,
    });
    // CPU per added file between consecutive sizes: linear in the files whatever the start-up.
    const slope = slopeSpread(ws.map(r => ({ n: r.n, cpuMs: r.cliCpuMs })));
    const flSlope = slopeSpread(ws.map(r => ({ n: r.n, cpuMs: r.floorCpuMs })));
    if (slope.perFile.length > 1)
      out.push({
        what: `CLI CPU per added file, ${slope.steps!.join(', ')} files (ms): the largest distance from their median`,
        value: `${ms(slope.perFile)}: ${pc(slope.worst)} (the floor: ${ms(flSlope.perFile)} ms: ${pc(flSlope.worst)})`,
        target: '≤ 15 %',
        met: slope.worst <= 0.15,
      });
  }
  const s = [...ws].reverse().find(r => r.spectral);
  if (s) t(`Spectral's wall time ÷ ours at ${s.n} files`, s.spectral!.wallMs / s.cliWallMs, 10, '×', true);
  t('server: start → 10,000 files indexed', b && b.server.indexMs / 1000, 5, 's');
  t('server: slowest request during the scan of 10,000 files', b?.requestMaxMs, 100, 'ms');
  return out;
}

function workspaceMarkdown(ws: WorkspaceRow[]): string {
  if (!ws.length) return '';
  const f = (v: number | undefined, d = 0) => (v === undefined || Number.isNaN(v) ? '—' : v.toFixed(d));
  const s = (ms: number | undefined) => (ms === undefined ? '—' : `${f(ms / 1000, 1)} s`);
  const lines = [
    '',
    '## Workspace (generated monorepos)',
    '',
    '`bench/genWorkspace.ts`: N adapter files (2/5 `*-adapter.md`, 2/5 `.adapter.yaml`, 1/5 `.adapter.json`, 50–400 lines),',
    'folders of 20, every file mapping 403 to `PERMISSION_DENIED` and one status to a code of another file; one file in',
    '20 (5 %) has an unknown code and an unknown placeholder. Side by side on the same files, interleaved: our CLI',
    '(`check <dir> --format json`, default jobs: all cores), the floor (`bench/yamlFloor.mjs`: read every adapter and',
    '`parseDocument` it with `yaml`, 2 worker threads, nothing else) and Spectral ' + SPECTRAL_VERSION + ' with an equivalent ruleset',
    '(`bench/spectral/ruleset.js`: the schema, unknown codes across files with "did you mean", unknown placeholders;',
    'installed under bench/work/, never a test). Medians of the runs; CPU is every thread; RSS is the peak. Server: start →',
    'every file indexed, hover / completion every 50 ms during the scan. The machine is shared: compare ratios within',
    'a row, and see the load average.',
    '',
    '| N (bytes) | load | ours: wall / CPU / RSS | floor: wall / CPU / RSS | Spectral: wall / CPU / RSS | ours CPU ÷ floor | Spectral wall ÷ ours | ours CPU per file | server index | requests during scan (n, median / max) |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of ws)
    lines.push(
      `| ${r.n} (${r.bytes}) | ${f(r.loadavg, 1)} | ${s(r.cliWallMs)} / ${s(r.cliCpuMs)} / ${f(r.cliRssMb)} MB | ${s(r.floorWallMs)} / ${s(r.floorCpuMs)} / ${f(r.floorRssMb)} MB | ` +
        (r.spectral ? `${s(r.spectral.wallMs)} / ${s(r.spectral.cpuMs)} / ${f(r.spectral.maxRssMb)} MB` : 'not run') +
        ` | ${f(r.cliCpuMs / r.floorCpuMs, 2)} | ${r.spectral ? f(r.spectral.wallMs / r.cliWallMs, 1) : '—'} | ${f(r.cliCpuMs / r.n, 2)} ms | ${s(r.server.indexMs)} | ${r.server.requestMs.length}, ${f(r.requestMedianMs)} / ${f(r.requestMaxMs)} ms |`,
    );
  lines.push(
    '',
    'How these figures came to be (profiles, each change measured against the build before it, what was tried and',
    'dropped, the cache, memory): bench/NOTES.md, "Workspace".',
    '',
  );
  return lines.join('\n');
}

interface Row {
  n: number;
  bytes: number;
  ours: Summary;
  yls?: Summary;
  /** Ours in a folder that also holds a second adapter declaring the same codes. */
  shared?: Summary;
  floor: FloorResult;
}

function verify(rs: Row[]): Target[] {
  const at = (n: number) => rs.find(r => r.n === n)?.ours;
  const out: Target[] = [];
  const t = (what: string, v: number | undefined, limit: number, unit: string) => {
    if (v !== undefined && !Number.isNaN(v))
      out.push({ what, value: `${v.toFixed(1)} ${unit}`, target: `≤ ${limit} ${unit}`, met: v <= limit });
  };
  for (const r of rs)
    for (const [what, x] of [
      ['ours', r.ours],
      ['ours in a shared folder', r.shared],
    ] as const) {
      if (!x) continue;
      const bad = x.openDiagnostics.filter(d => d !== 2).length + x.timeouts.length + (x.wrong?.length ?? 0);
      out.push({
        what: `N=${r.n}: every run of ${what} published exactly the 2 expected diagnostics, for every version`,
        value: `${x.runs - Math.min(x.runs, bad)}/${x.runs}`,
        target: 'all',
        met: bad === 0,
      });
    }
  const shared = (n: number) => rs.find(r => r.n === n)?.shared;
  // Typing (the warm keystrokes' median) and the first keystroke after open (cold code), each against the target.
  t('keystroke → diagnostics at 1,000 codes, typing (warm median)', at(1000)?.warm, 10, 'ms');
  t('keystroke → diagnostics at 10,000 codes, typing (warm median)', at(10_000)?.warm, 20, 'ms');
  t('keystroke → diagnostics at 1,000 codes, the first after open', at(1000)?.first, 10, 'ms');
  t('keystroke → diagnostics at 10,000 codes, the first after open', at(10_000)?.first, 20, 'ms');
  t('keystroke → diagnostics at 1,000 codes, typing, a second adapter with the same codes in the folder', shared(1000)?.warm, 10, 'ms');
  t('keystroke → diagnostics at 10,000 codes, typing, a second adapter with the same codes in the folder', shared(10_000)?.warm, 20, 'ms');
  t('keystroke → diagnostics at 20,000 codes, typing (warm median)', at(20_000)?.warm, 50, 'ms');
  t('completion at 10,000 codes', at(10_000) && Math.max(at(10_000)!.completionCategory, at(10_000)!.completionCode), 20, 'ms');
  t('peak memory at 10,000 codes', at(10_000)?.vmHwmMb, 200, 'MB');
  const r10 = rs.find(r => r.n === 10_000);
  if (r10) t('didOpen → diagnostics ÷ `yaml` compose floor at 10,000 codes', r10.ours.open / r10.floor.composeNoUnique, 1.3, '×');
  return out;
}

function markdown(meta: object, rs: Row[], targets: Target[]): string {
  const f = (v: number | undefined | null, d = 0) => (v === undefined || v === null || Number.isNaN(v) ? '—' : v.toFixed(d));
  const lines = [
    '# Benchmark report',
    '',
    'Every table of the last runs, generated by `npm run bench` (bench/run.ts) and `npm run bench:proxy`; do not edit.',
    'The one-minute summary is docs/performance.md; how the figures came to be, bench/NOTES.md.',
    '',
    'Raw figures in `bench/results.json`. Medians over fresh server',
    'processes (ours 5, yaml-language-server 5, or 3 at 10,000 and none at 20,000 codes unless `--full`), run',
    'interleaved (ours, theirs, ours, …) so a change in the load hits both, on the same generated files',
    '(`bench/gen.ts`). Each is the built server (`dist/server.js --stdio`) driven by a client over stdio that pushes',
    'nothing but what an editor sends: a keystroke is the time from writing the `didChange` to reading the',
    '`publishDiagnostics` for that version (a server that sends no version: the first one after it). The client',
    "behaves as an editor (`REALISTIC` in bench/lspBench.ts): the file's folder is its workspace folder, it sends",
    'incremental changes (one character inside a template of the first, middle and last entries), asks for code',
    'lenses and code actions after opening, and reads VmHWM 1.5 s after the last request, once deferred work (the',
    'workspace index of the open file) has run. "Shared folder": ours again with a second adapter declaring the same',
    'codes beside the file (a repository of adapters; the index then holds both). yaml-language-server gets the',
    'equivalent JSON Schema (`bench/error-blocks.schema.json`); its figures include its fixed 200 ms validation delay.',
    'The floor is the `yaml` package in-process on the same text. Times in ms, memory in MB (VmHWM).',
    'Keystrokes, the same for both servers: "first" is the first keystroke after open (cold code: the first edit',
    'runs paths the open did not), "1–3" the median of the first three (one at each site); then the client types',
    `${CLIENT.warmup} keystrokes it does not measure and ${CLIENT.warm} it does, in turn at the three sites: "typing" is their median and`,
    "p90 over every process, what typing in an open file costs. CPU is the server's (all its threads, from /proc),",
    'from the `didChange` to the diagnostics: unlike wall time, hardly touched by the load.',
    '',
    `Run: ${JSON.stringify(meta)}`,
    '',
    '## Targets',
    '',
    '| target | value | limit | met |',
    '|---|---|---|---|',
    ...targets.map(t => `| ${t.what} | ${t.value} | ${t.target} | ${t.met ? 'yes' : '**no**'} |`),
    '',
    '## Side by side',
    '',
    '| N (bytes) | server | load | open → diags (server CPU) | first keystroke (CPU) | keystrokes 1–3, median / min (CPU) | typing: median / p90 (CPU median / p90) | completion (category / code) | hover | symbols | VmHWM |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const row = (n: string, name: string, x: Summary, d: number) =>
    `| ${n} | ${name} | ${f(x.load, 1)} | ${f(x.open)} (${f(x.openCpu)}) | ${f(x.first, d)} (${f(x.firstCpu, d)}) | ${f(x.change, d)} / ${f(x.changeMin, d)} (${f(x.changeCpu, d)}) | ${f(x.warm, d)} / ${f(x.warmP90, d)} (${f(x.warmCpu, d)} / ${f(x.warmCpuP90, d)}) | ${f(x.completionCategory, d)} / ${f(x.completionCode, d)} | ${f(x.hover, 1)} | ${f(x.symbols, 1)} | ${f(x.vmHwmMb)} |`;
  for (const r of rs) {
    lines.push(row(`${r.n} (${r.bytes})`, 'ours', r.ours, 1));
    if (r.shared) lines.push(row(`${r.n}`, 'ours, shared folder', r.shared, 1));
    if (r.yls) lines.push(row(`${r.n}`, 'yaml-language-server', r.yls, 0));
    else lines.push(`| ${r.n} | yaml-language-server | | not run at this size (minutes per process; \`--full\` runs it) | | | | | | | |`);
  }
  lines.push(
    '',
    '## Floor (`yaml` 2.9.1, in-process)',
    '',
    '| N | lexer | CST parser | compose, uniqueKeys off | compose, default uniqueKeys (quadratic) | ours, typing (warm keystroke) ÷ compose |',
    '|---|---|---|---|---|---|',
  );
  for (const r of rs)
    lines.push(
      `| ${r.n} | ${f(r.floor.lexer, 1)} | ${f(r.floor.cst, 1)} | ${f(r.floor.composeNoUnique, 1)} | ${f(r.floor.composeDefault, 1)} | ${(r.ours.warm / r.floor.composeNoUnique).toFixed(2)} |`,
    );
  lines.push('', 'How the keystroke stays cheap, what an open costs, and peak memory: bench/NOTES.md, "The editor".', '');
  return lines.join('\n');
}

/** The flags above; anything else (a typo, `--help`) stops before the bench starts its half hour of work. */
const FLAGS = [
  '--quick',
  '--full',
  '--from-results',
  '--ours-only',
  '--no-spectral',
  '--workspace-only',
  '--no-workspace',
  '--first-diagnostics',
];
const VALUED = ['--sizes=', '--ws-sizes=', '--ws-runs=', '--spectral-max=', '--warmup=', '--warm='];

/** Undefined when the command line is one the bench takes, else what to print (exit 2, or 0 for --help). */
export const usageProblem = (argv: readonly string[]): UsageProblem | undefined =>
  usageOf(
    __filename,
    argv,
    a => FLAGS.includes(a) || (VALUED.some(v => a.startsWith(v) && a.length > v.length) && !/^--warm(up)?=(?!\d+$)/.test(a)),
  );

if (require.main === module) runUnless(usageProblem(process.argv.slice(2)), main);
