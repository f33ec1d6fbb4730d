/**
 * First diagnostics in a full folder: a small adapter opened in a folder that also holds 12 MiB of other
 * adapters (23 generated files of 2,400 codes, 550 KB each), our built server over stdio, a fresh process
 * per run (bench/firstDiagnostics.ts). Three cases: the small adapter alone in its folder (the floor), opened
 * at once with the folder (an editor restoring it), and opened once the scan has reported progress (a file
 * opened while the scan runs). Measured apart: the server's start (spawn → initialize answered), the first
 * check (didOpen → the file's own diagnostics), the scan (initialized → its "indexed …" log line) and the
 * cross-file result (didOpen → the last publication, after the scan); and every mapping.unknown-code
 * published for the code only the last big file declares (each one false).
 * Medians of interleaved runs; the load average beside them.
 *
 * Run: `node esbuild.js --production && node --import tsx bench/firstDiagnosticsBench.ts` (the build that ships: its
 * server bundle comes with a code cache, server/src/loadServer.ts; `npm run build` makes none), or
 * `npm run bench -- --first-diagnostics`.
 * Options: --runs=N (default 5), --files=N, --codes=N (per file), --compare=path/to/server.js (another
 * build, interleaved: the build before a change), --dry (print, write neither
 * bench/first-diagnostics-results.json nor its section of bench/REPORT.md).
 */
import { SERVER_EXEC_ARGV } from '../server/src/protocol';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { FAR_CODE, runFirstDiagnostics, SMALL_ADAPTER, writeFirstDiagnosticsWorkspace, type FirstDiagnosticsRun } from './firstDiagnostics';
import { REPORT } from './proxyMarkdown';
import { runUnless, usageOf, type UsageProblem } from './usage';

const ROOT = join(__dirname, '..');
export const RESULTS = join(ROOT, 'bench', 'first-diagnostics-results.json');
const HEADING = '## First diagnostics in a full folder';

type Case = 'empty folder' | 'opened with the folder' | 'opened mid-scan';
const CASES: readonly Case[] = ['empty folder', 'opened with the folder', 'opened mid-scan'];

interface Row {
  readonly build: string;
  readonly case: Case;
  readonly runs: number;
  readonly serverStartMs: number;
  readonly firstCheckMs: number;
  readonly scanMs: number;
  readonly crossFileMs: number;
  /** mapping.unknown-code published for the code the last big file declares, summed over the runs (the full folder only). */
  readonly falseUnknownCodes: number;
  readonly loadavg: number;
}

export interface FirstDiagnosticsResults {
  readonly meta: { date: string; node: string; cpus: number; loadavg: number[]; files: number; codes: number; bytes: number };
  readonly rows: Row[];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2 : NaN;
};

/** mapping.unknown-code on the far code's line: false in the full folder, whenever it is published (the last big file declares it). */
function falseUnknowns(r: FirstDiagnosticsRun): number {
  const line = SMALL_ADAPTER.split('\n').findIndex(l => l.endsWith(`code: ${FAR_CODE}`));
  return r.events.reduce(
    (n, e) =>
      n + (e.kind === 'publish' ? e.diagnostics.filter(d => d.code === 'mapping.unknown-code' && d.range.start.line === line).length : 0),
    0,
  );
}

const arg = (argv: readonly string[], name: string) => argv.find(a => a.startsWith(`--${name}=`))?.slice(name.length + 3);

export async function firstDiagnosticsBench(argv: readonly string[]): Promise<FirstDiagnosticsResults> {
  const runs = Number(arg(argv, 'runs') ?? 5);
  const files = Number(arg(argv, 'files') ?? 23);
  const codes = Number(arg(argv, 'codes') ?? 2400);
  const compare = arg(argv, 'compare');
  const builds: [string, string[]][] = [
    ['this build', [process.execPath, ...SERVER_EXEC_ARGV, join(ROOT, 'dist', 'server.js'), '--stdio']],
  ];
  // The same flags for both: the editor's client starts either so (and V8 takes a code cache made under them only).
  if (compare) builds.push(['the other build', [process.execPath, ...SERVER_EXEC_ARGV, compare, '--stdio']]);
  const work = join(ROOT, 'bench', 'work', 'first-diagnostics');
  rmSync(work, { recursive: true, force: true });
  const full = writeFirstDiagnosticsWorkspace(join(work, 'full'), files, codes);
  const empty = writeFirstDiagnosticsWorkspace(join(work, 'empty'), 0, codes);
  const got = new Map<string, { runs: FirstDiagnosticsRun[]; loads: number[] }>();
  // Interleaved: a change in the machine's load hits every build and case alike.
  for (let i = 0; i < runs; i++)
    for (const [build, command] of builds)
      for (const c of CASES) {
        const load = loadavg()[0]!;
        const r = await runFirstDiagnostics(command, c === 'empty folder' ? empty : full, c === 'opened mid-scan' ? 'mid-scan' : 'at-once');
        const key = `${build}|${c}`;
        const g = got.get(key) ?? { runs: [], loads: [] };
        g.runs.push(r);
        g.loads.push(load);
        got.set(key, g);
        process.stdout.write(
          `${build}, ${c}: start ${r.serverStart.toFixed(0)} ms, first check ${r.firstCheck.toFixed(0)} ms, scan ${r.scan.toFixed(0)} ms, cross-file ${r.complete.toFixed(0)} ms, false unknown codes ${falseUnknowns(r)} (load ${load.toFixed(1)})\n`,
        );
      }
  const rows: Row[] = [];
  for (const [build] of builds)
    for (const c of CASES) {
      const g = got.get(`${build}|${c}`)!;
      rows.push({
        build,
        case: c,
        runs: g.runs.length,
        serverStartMs: median(g.runs.map(r => r.serverStart)),
        firstCheckMs: median(g.runs.map(r => r.firstCheck)),
        scanMs: median(g.runs.map(r => r.scan)),
        crossFileMs: median(g.runs.map(r => r.complete)),
        falseUnknownCodes: g.runs.reduce((n, r) => n + falseUnknowns(r), 0),
        loadavg: median(g.loads),
      });
    }
  return {
    meta: {
      date: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      loadavg: loadavg().map(x => Number(x.toFixed(2))),
      files,
      codes,
      bytes: full.bytes,
    },
    rows,
  };
}

/**
 * Figures of test/e2e/firstDiagnostics.test.ts (its t.diagnostic line), written here by hand: the real-editor
 * run is a test of its own, minutes long, not part of this bench.
 */
const E2E_ROWS = `| build | activated by | runs | first squiggle after the open | a broken .json's | ratio, median (range) | server start |
|---|---|---|---|---|---|---|
| this build | either | 24 | 862 ms | 1,006 ms | **0.73** (0.05–8.1) | 353 ms |
| this build | the open | 8 | 1,962 ms | 1,101 ms | **1.44** (0.94–8.1) | 445 ms |
| this build | the folder, before the open | 16 | 536 ms | 942 ms | **0.57** (0.05–1.71) | 346 ms |
| main before it | either | 24 | 1,410 ms | 1,320 ms | **1.22** (0.04–2.73) | 478 ms |
| main before it | the open | 6 | 2,044 ms | 1,062 ms | **1.96** (1.1–2.73) | 281 ms |
| main before it | the folder, before the open | 18 | 1,283 ms | 1,378 ms | **1.08** (0.04–2.21) | 521 ms |`;

/** The section of bench/REPORT.md, from bench/first-diagnostics-results.json ('' without it). */
export function firstDiagnosticsMarkdown(): string {
  if (!existsSync(RESULTS)) return '';
  const r = JSON.parse(readFileSync(RESULTS, 'utf8')) as FirstDiagnosticsResults;
  const ms = (x: number) => (Number.isFinite(x) ? `${Math.round(x).toLocaleString('en')} ms` : '–');
  const mib = (r.meta.bytes / 1024 / 1024).toFixed(1);
  const rows = r.rows.map(
    x =>
      `| ${x.build} | ${x.case} | ${ms(x.serverStartMs)} | **${ms(x.firstCheckMs)}** | ${x.case === 'empty folder' ? '–' : ms(x.scanMs)} | ${ms(x.crossFileMs)} | ${x.case === 'empty folder' ? '–' : x.falseUnknownCodes} | ${x.loadavg.toFixed(1)} |`,
  );
  return `
${HEADING}

\`bench/firstDiagnosticsBench.ts\` (${r.meta.date.slice(0, 10)}, Node ${r.meta.node}, ${r.meta.cpus} cores shared with other
sessions, load ${r.meta.loadavg.join(' / ')} at the end): a small adapter (its own mistake, a mapping to a code only the last of
the other files declares, one to a code no file declares) opened in a folder that also holds ${r.meta.files} generated
adapters of ${r.meta.codes.toLocaleString('en')} codes (${mib} MiB in all); our built server over stdio, a fresh process per run,
medians of ${r.rows[0]?.runs ?? 0} interleaved runs. *First check*: \`didOpen\` → the file's own diagnostics (target ≤ 300 ms
whatever the folder holds). *Scan*: \`initialized\` → the "indexed …" log line. *Cross-file*: \`didOpen\` → the last
publication, after the scan, where the code no file declares is said to be unknown. *False unknown codes*:
\`mapping.unknown-code\` published for the code the last big file declares, summed over the runs (target 0). *The other
build*: \`--compare\`, here main's build before the code cache, the generated validators and the scan's thread (started
with the same flags).

| build | case | server start | first check | scan | cross-file | false unknown codes | load |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

How: a fresh server compiles its bundle with the V8 code cache the production build made (\`server/src/loadServer.ts\`,
\`scripts/code-cache.mjs\`) and is given the adapter schema's validators as code generated at build time, so its start and
its first check compile almost nothing; the scan reads its files in a thread of its own (\`node/indexThread.ts\`) and
waits, between two files, while an open document's validation is waiting or running (\`DiagnosticsScheduler.idle\`), so
a file opened mid-scan no longer waits for the file being read (a 550 KB adapter: about 150 ms of CPU). Until the first
scan is complete, \`mapping.unknown-code\`, \`code.declared-elsewhere\` and \`verify.unknown-code\` are held back
(\`server/src/lsp/scanGate.ts\`); the scan's end re-checks every open document. At a load of 17 on 2 cores every figure
here is several times its quiet value.

In a real editor (\`test/e2e/firstDiagnostics.test.ts\`: code-server 1.100.3, the .vsix, Chromium; the same folder of
12.6 MB, the small adapter opened as soon as the workbench shows, then a broken \`.json\`; 2026-11-28, 07:20–08:37 UTC,
load 9–20, the two builds' .vsix interleaved, medians; *server start*: the client's \`start()\` until it resolves):

${E2E_ROWS}

Which event activates the extension is the editor's choice (the folder's \`workspaceContains\` races the open), and the
ratio follows it and what else the editor starts then: the JSON features' own figure went from 0.4 to 3.2 s (0.4 s when
they were already active). When the open activates the extension, what is left of our path is the extension host loading
the client's 600 KB bundle (45–440 ms) and calling \`activate\` up to 0.7 s after that, and the server process's start
(process → \`initialize\` 455 ms median, 221–1,051 ms, the code cache used in every run). 12 of this build's runs were of
its state before the scan's thread.
`;
}

/** Replace (or append) this section of bench/REPORT.md. */
export function writeFirstDiagnosticsDocs(): void {
  const file = REPORT;
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf('\n' + HEADING);
  const next = at < 0 ? -1 : text.indexOf('\n## ', at + 2);
  const before = at < 0 ? text : text.slice(0, at);
  const after = next < 0 ? '' : text.slice(next);
  writeFileSync(file, before.trimEnd() + '\n' + firstDiagnosticsMarkdown() + after);
}

/** Run the bench, write its results and its section of bench/REPORT.md (unless --dry). */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  mkdirSync(join(ROOT, 'bench', 'work'), { recursive: true });
  const results = await firstDiagnosticsBench(argv);
  process.stdout.write(JSON.stringify(results, null, 2) + '\n');
  if (argv.includes('--dry')) return;
  writeFileSync(RESULTS, JSON.stringify(results, null, 2) + '\n');
  writeFirstDiagnosticsDocs();
}

const VALUED = ['--runs=', '--files=', '--codes='];
/** `--help`, or an option the bench does not take: what to print, and the exit code. */
export const usageProblem = (argv: readonly string[]): UsageProblem | undefined =>
  usageOf(
    __filename,
    argv,
    a =>
      a === '--dry' ||
      (a.startsWith('--compare=') && a.length > 10) ||
      VALUED.some(v => a.startsWith(v) && /^[0-9]\d*$/.test(a.slice(v.length))),
  );

if (require.main === module) runUnless(usageProblem(process.argv.slice(2)), () => main());
