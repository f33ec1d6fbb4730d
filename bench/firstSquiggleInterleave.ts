/**
 * test/e2e/firstDiagnostics.test.ts run again and again in code-server, the given .vsix files interleaved (one run
 * of each per round, the order turned each round), each run's `# {…}` figures appended with its build, activation
 * and load to a JSON Lines file; then the medians per build, split by forcing and the activation event, and each build's
 * differences from the first one's run of the same round (paired medians; bench/NOTES.md, "tenth" and "eleventh
 * sitting"). Needs `npm run setup:e2e`.
 * --codeLens=on keeps the editor's CodeLens on (E2E_CODELENS; bench/NOTES.md, "twelfth sitting").
 *   node --import tsx bench/firstSquiggleInterleave.ts --rounds=8 [--activation=onLanguage] [--codeLens=on] [--out=file.jsonl] name=a.vsix name=b.vsix
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
const args = process.argv.slice(2);
const opt = (name: string) => args.find(a => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const rounds = Number(opt('rounds') ?? '4');
const activation = opt('activation');
const codeLens = opt('codeLens');
const out = opt('out') ?? join(ROOT, 'bench', 'first-squiggle-runs.jsonl');
const builds = args.filter(a => !a.startsWith('--')).map(a => a.split('=') as [string, string]);
if (!builds.length || builds.some(([n, f]) => !n || !f || !existsSync(f))) {
  console.error(
    'usage: firstSquiggleInterleave.ts [--rounds=N] [--activation=onLanguage] [--codeLens=on] [--out=f.jsonl] name=file.vsix ...',
  );
  process.exit(2);
}

interface Figures {
  activationEvent?: string;
  firstSquiggleMs?: number;
  jsonFirstSquiggleMs?: number;
  ratio?: number;
  clientLoad?: { codeCache?: string; compileMs?: number; evaluateMs?: number; activateCalledAfterMs?: number };
  hops?: Record<string, number | undefined>;
  /** The page's long tasks from the editor's showing to the squiggle. */
  pageBusy?: { tasks: number; ms: number };
}
interface Row {
  build: string;
  /** This invocation's start and the round's number: the runs of one round are paired. */
  round?: string;
  forced?: string;
  at: string;
  load: number;
  ok: boolean;
  figures?: Figures;
}

const invocation = new Date().toISOString();
for (let r = 0; r < rounds; r++)
  for (let k = 0; k < builds.length; k++) {
    const [name, vsix] = builds[(k + r) % builds.length]!;
    const load = loadavg()[0]!;
    const p = spawnSync(process.execPath, ['--import', 'tsx', '--test', 'test/e2e/firstDiagnostics.test.ts'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: {
        ...process.env,
        CI: 'true',
        E2E_VSIX: vsix,
        ...(activation ? { E2E_ACTIVATION: activation } : {}),
        ...(codeLens ? { E2E_CODELENS: codeLens } : {}),
      },
      timeout: 600_000,
    });
    const line = /^# (\{.*\})$/m.exec(p.stdout)?.[1];
    const row: Row = {
      build: name,
      round: `${invocation}#${r}`,
      forced: activation,
      at: new Date().toISOString(),
      load,
      ok: p.status === 0,
      figures: line ? (JSON.parse(line) as Figures) : undefined,
    };
    appendFileSync(out, JSON.stringify(row) + '\n');
    const f = row.figures;
    console.log(
      `${row.at} ${name} load ${load.toFixed(1)} ${row.ok ? 'ok' : 'FAIL'} ${f?.activationEvent} squiggle ${f?.firstSquiggleMs} json ${f?.jsonFirstSquiggleMs} ratio ${f?.ratio} client ${JSON.stringify(f?.clientLoad)}`,
    );
  }

// Medians over every row of the file, by build and activation event.
/** From the client having the diagnostics (extension host) to the squiggle in the page. */
const paint = (x: Figures) =>
  x.hops?.squiggle !== undefined && x.hops?.clientAnswered !== undefined ? x.hops.squiggle - x.hops.clientAnswered : undefined;
const median = (xs: (number | undefined)[]) => {
  const s = xs.filter((x): x is number => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return undefined;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1]! + s[m]!) / 2;
};
const rows = readFileSync(out, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map(l => JSON.parse(l) as Row);
const groups = new Map<string, Row[]>();
for (const r of rows) {
  const key = `${r.build} ${r.forced ? `(forced ${r.forced}) ` : ''}${r.figures?.activationEvent ?? '?'}`;
  groups.set(key, [...(groups.get(key) ?? []), r]);
}
for (const [key, rs] of [...groups].sort()) {
  const f = rs.map(r => r.figures ?? {});
  const over = f.filter(x => (x.ratio ?? 0) > 1.5).length;
  console.log(
    `${key}: ${rs.length} runs (${rs.filter(r => !r.ok).length} failed), load ${median(rs.map(r => r.load))?.toFixed(1)}; ` +
      `squiggle ${median(f.map(x => x.firstSquiggleMs))} ms, json ${median(f.map(x => x.jsonFirstSquiggleMs))}, ratio ${median(f.map(x => x.ratio))?.toFixed(2)} (over 1.5: ${over}); ` +
      `bundle compile ${median(f.map(x => x.clientLoad?.compileMs))} + evaluate ${median(f.map(x => x.clientLoad?.evaluateMs))} ms, activate called ${median(f.map(x => x.clientLoad?.activateCalledAfterMs))} ms after; ` +
      `server forked at ${median(f.map(x => x.hops?.serverForked)) ?? '-'}, activate at ${median(f.map(x => x.hops?.activate))}, initialize at ${median(f.map(x => x.hops?.initialize))}, client answered at ${median(f.map(x => x.hops?.clientAnswered))} ms after the editor showed; ` +
      `the client's diagnostics → the squiggle ${median(f.map(x => paint(x)))} ms`,
  );
}

// Paired by round: each build's run minus the first build's run of the same round (rows of this file only).
const base = builds[0]![0];
const byRound = new Map<string, Map<string, Figures>>();
for (const r of rows)
  if (r.round && r.figures) byRound.set(r.round, (byRound.get(r.round) ?? new Map<string, Figures>()).set(r.build, r.figures));
const hop = (k: string) => (x: Figures) => x.hops?.[k];
const paired: [string, (x: Figures) => number | undefined][] = [
  ['activate', hop('activate')],
  ['initialize', hop('initialize')],
  ['client answered', hop('clientAnswered')],
  ['→ squiggle', paint],
  ['status set', hop('statusSet')],
  ['symbols answered', hop('symbolsAnswered')],
  ['page long tasks', x => x.pageBusy?.ms],
  ['squiggle', x => x.firstSquiggleMs],
  ['json', x => x.jsonFirstSquiggleMs],
  ['ratio', x => x.ratio],
];
for (const [name] of builds.slice(1)) {
  const pairs = [...byRound.values()].filter(m => m.has(base) && m.has(name)).map(m => [m.get(base)!, m.get(name)!] as const);
  if (!pairs.length) continue;
  const parts = paired.map(([label, get]) => {
    const d = pairs.map(([a, b]) => (get(a) !== undefined && get(b) !== undefined ? get(b)! - get(a)! : undefined));
    const lower = d.filter(x => x !== undefined && x < 0).length;
    const m = median(d);
    return `${label} ${m === undefined ? '-' : (m > 0 ? '+' : '') + Number(m.toFixed(2))} (lower in ${lower})`;
  });
  console.log(`${name} − ${base}, ${pairs.length} rounds, paired medians: ${parts.join(', ')}`);
}
