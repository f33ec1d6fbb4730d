/**
 * The runs of bench/firstSquiggleInterleave.ts (its JSON Lines files) read again: for two builds, the paired medians of
 * their runs of the same round (b − a), per invocation (batch) and over all, and for each build where our other
 * features' requests and drawings fell relative to the first squiggle (bench/NOTES.md, "twelfth sitting").
 *   node --import tsx bench/firstSquigglePairs.ts a b file.jsonl [file.jsonl ...]
 */
import { readFileSync } from 'node:fs';

interface Figures {
  firstSquiggleMs?: number;
  jsonFirstSquiggleMs?: number;
  ratio?: number;
  activationEvent?: string;
  hops?: Record<string, number | undefined>;
  pageBusy?: { tasks: number; ms: number };
}
interface Row {
  build: string;
  round?: string;
  load: number;
  ok: boolean;
  figures?: Figures;
}

const [a, b, ...files] = process.argv.slice(2);
if (!a || !b || !files.length) {
  console.error('usage: firstSquigglePairs.ts buildA buildB runs.jsonl ...');
  process.exit(2);
}
const rows = files.flatMap(f =>
  readFileSync(f, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map(l => JSON.parse(l) as Row),
);
const median = (xs: (number | undefined)[]) => {
  const s = xs.filter((x): x is number => typeof x === 'number' && Number.isFinite(x)).sort((p, q) => p - q);
  if (!s.length) return undefined;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1]! + s[m]!) / 2;
};
const hop = (k: string) => (x: Figures) => x.hops?.[k];
/** A hop relative to the squiggle (negative: before it). */
const vsSquiggle = (k: string) => (x: Figures) =>
  x.hops?.[k] !== undefined && x.hops?.squiggle !== undefined ? x.hops[k]! - x.hops.squiggle : undefined;
const measures: [string, (x: Figures) => number | undefined][] = [
  ['squiggle', x => x.firstSquiggleMs],
  ['json', x => x.jsonFirstSquiggleMs],
  ['ratio', x => x.ratio],
  ['client answered', hop('clientAnswered')],
  [
    '→ squiggle',
    x => (x.hops?.squiggle !== undefined && x.hops?.clientAnswered !== undefined ? x.hops.squiggle - x.hops.clientAnswered : undefined),
  ],
  ['page long tasks', x => x.pageBusy?.ms],
];
const fmt = (m: number | undefined) => (m === undefined ? '-' : (m > 0 ? '+' : '') + Number(m.toFixed(2)));

// Paired, per batch (the invocation's start is the round's prefix) and over all.
const rounds = new Map<string, Map<string, Figures>>();
for (const r of rows)
  if (r.round && r.figures && r.ok) rounds.set(r.round, (rounds.get(r.round) ?? new Map<string, Figures>()).set(r.build, r.figures));
const pairs = [...rounds]
  .filter(([, m]) => m.has(a) && m.has(b))
  .map(([k, m]) => ({ batch: k.split('#')[0]!, x: m.get(a)!, y: m.get(b)! }));
const report = (label: string, ps: typeof pairs) => {
  const load = median(rows.filter(r => ps.some(p => p.batch === r.round?.split('#')[0])).map(r => r.load));
  const parts = measures.map(([name, get]) => {
    const d = ps.map(p => (get(p.x) !== undefined && get(p.y) !== undefined ? get(p.y)! - get(p.x)! : undefined));
    return `${name} ${fmt(median(d))} (lower in ${d.filter(v => v !== undefined && v < 0).length})`;
  });
  console.log(`${b} − ${a}, ${label}: ${ps.length} pairs, load ${load?.toFixed(1)}: ${parts.join(', ')}`);
};
for (const batch of [...new Set(pairs.map(p => p.batch))])
  report(
    `batch ${batch}`,
    pairs.filter(p => p.batch === batch),
  );
report('all', pairs);
// Not forced, the editor chooses the activation event run by run: pairs whose two runs had the same one.
for (const event of [...new Set(pairs.map(p => p.x.activationEvent))]) {
  const same = pairs.filter(p => p.x.activationEvent === event && p.y.activationEvent === event);
  if (same.length < pairs.length) report(`both ${event}`, same);
}

// Per build: medians, and where the other features' requests and drawings fell relative to the squiggle.
for (const build of [a, b]) {
  const f = rows.filter(r => r.build === build && r.ok && r.figures).map(r => r.figures!);
  const before = (k: string) => f.filter(x => vsSquiggle(k)(x) !== undefined && vsSquiggle(k)(x)! < 0).length;
  const seen = (k: string) => f.filter(x => vsSquiggle(k)(x) !== undefined).length;
  const rel = [
    'symbols',
    'symbolsAnswered',
    'codeActions',
    'codeActionsAnswered',
    'codeLens',
    'codeLensAnswered',
    'statusSet',
    'titleButtonDrawn',
    'codeLensDrawn',
  ]
    .map(k => `${k} ${fmt(median(f.map(vsSquiggle(k))))} (before in ${before(k)} of ${seen(k)})`)
    .join(', ');
  const med = measures.map(([name, get]) => `${name} ${median(f.map(get))}`).join(', ');
  console.log(`${build}: ${f.length} runs; ${med}; relative to the squiggle (median ms): ${rel}`);
}
