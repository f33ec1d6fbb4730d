/**
 * A trace of the page taken by test/e2e/firstDiagnostics.test.ts (E2E_TRACE=<file>, test/e2e/pageTrace.ts) read
 * for the way from our client having the diagnostics to the squiggle: when the page received the extension host's
 * frames (ours marked), how busy each thread of Chromium was meanwhile, the page's main-thread tasks over 15 ms,
 * and what the page's workers did (bench/NOTES.md, "thirteenth sitting").
 *   node --import tsx bench/pageTrace.ts trace.json [fromMs] [toMs]
 * The window defaults to the client's diagnostics → the squiggle, in ms after the adapter's editor showed.
 */
import { readFileSync } from 'node:fs';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string; data?: { functionName?: string; url?: string; type?: string } };
}
interface Trace {
  frames: { at: number; ts: number; bytes: number; diagnosticsOf?: string }[];
  traceEvents: TraceEvent[];
}

const [file, fromArg, toArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: pageTrace.ts trace.json [fromMs] [toMs]');
  process.exit(2);
}
const trace = JSON.parse(readFileSync(file, 'utf8')) as Trace;
const figures = JSON.parse(readFileSync(file.replace(/\.json$/, '') + '.figures.json', 'utf8')) as {
  hops: Record<string, number | undefined>;
};
const events = trace.traceEvents;
const threadName = new Map<string, string>();
const processName = new Map<number, string>();
for (const e of events) {
  if (e.ph !== 'M') continue;
  if (e.name === 'thread_name') threadName.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?');
  if (e.name === 'process_name') processName.set(e.pid, e.args?.name ?? '?');
}
const thread = (e: TraceEvent) => `${processName.get(e.pid) ?? e.pid} ${threadName.get(`${e.pid}:${e.tid}`) ?? e.tid}`;
// The page's own marks of what it drew (the test's MutationObserver): the trace's clock for the editor's showing.
const mark = (suffix: string) => events.find(e => e.name.startsWith('seen:') && e.name.endsWith(suffix))?.ts;
const editorAt = mark('.yaml:editor');
if (editorAt === undefined) {
  console.error(`${file}: no mark of the adapter's editor (a trace without blink.user_timing?)`);
  process.exit(1);
}
const rel = (ts: number) => (ts - editorAt) / 1000;
const from = fromArg !== undefined ? Number(fromArg) : (figures.hops.clientAnswered ?? 0);
const squiggle = mark('.yaml:squiggle');
const to = toArg !== undefined ? Number(toArg) : squiggle !== undefined ? rel(squiggle) : (figures.hops.squiggle ?? from + 1000);
const fmt = (n: number) => n.toFixed(0);
console.log(`window ${fmt(from)} → ${fmt(to)} ms after the adapter's editor showed (client has the diagnostics → the squiggle)`);

// The frames' timestamps are the page's network clock, the trace's own (seconds).
const frames = trace.frames.map(f => ({ ...f, rel: rel(f.ts * 1e6) })).filter(f => f.rel > from - 200 && f.rel < to + 50);
console.log(
  `frames received: ${frames.map(f => `${fmt(f.rel)}${f.diagnosticsOf ? `* ${f.diagnosticsOf}` : ''} (${f.bytes} B)`).join(', ')}  (* a file's diagnostics)`,
);

const inWindow = (e: TraceEvent) => e.dur !== undefined && rel(e.ts) + e.dur / 1000 > from && rel(e.ts) < to;
const clipped = (e: TraceEvent) => Math.min(rel(e.ts) + e.dur! / 1000, to) - Math.max(rel(e.ts), from);
const busy = new Map<string, number>();
for (const e of events)
  if (e.ph === 'X' && (e.name === 'ThreadControllerImpl::RunTask' || e.name === 'ThreadPool_RunTask') && inWindow(e))
    busy.set(thread(e), (busy.get(thread(e)) ?? 0) + clipped(e));
console.log('busy per thread (ms of tasks in the window, a pool summed over its threads):');
for (const [t, ms] of [...busy].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`  ${fmt(ms).padStart(6)}  ${t}`);

const label = (e: TraceEvent) =>
  e.name === 'FunctionCall'
    ? `${e.name} ${e.args?.data?.functionName || '(anonymous)'}`
    : e.name === 'EventDispatch'
      ? `${e.name} ${e.args?.data?.type ?? ''}`
      : e.name.startsWith('v8.') && e.args?.data?.url
        ? `${e.name} ${e.args.data.url.split('/').slice(-1)[0]}`
        : e.name;
const SKIP = new Set(['ThreadControllerImpl::RunTask', 'ThreadPool_RunTask', 'RunTask', 'SimpleWatcher::OnHandleReady']);
/** The named events inside one task (or on one thread in the window), their times summed, the largest first. */
function inside(match: (e: TraceEvent) => boolean, lo: number, hi: number): string {
  const sums = new Map<string, number>();
  for (const e of events)
    if (e.ph === 'X' && e.dur !== undefined && !SKIP.has(e.name) && match(e) && e.ts >= lo && e.ts + e.dur <= hi)
      sums.set(label(e), (sums.get(label(e)) ?? 0) + e.dur / 1000);
  return [...sums]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([n, ms]) => `${n} ${fmt(ms)}`)
    .join(', ');
}
const main = events.find(e => thread(e).endsWith('CrRendererMain'));
if (main) {
  console.log("the page's main thread, tasks over 15 ms:");
  for (const t of events)
    if (
      t.ph === 'X' &&
      t.name === 'ThreadControllerImpl::RunTask' &&
      t.pid === main.pid &&
      t.tid === main.tid &&
      inWindow(t) &&
      t.dur! > 15_000
    )
      console.log(
        `  ${fmt(rel(t.ts))}–${fmt(rel(t.ts) + t.dur! / 1000)}: ${inside(e => e.pid === t.pid && e.tid === t.tid, t.ts, t.ts + t.dur!)}`,
      );
}
const lo = editorAt + from * 1000;
const hi = editorAt + to * 1000;
for (const [t] of busy)
  if (/DedicatedWorker|ServiceWorker/.test(t)) console.log(`${t}: ${inside(e => thread(e) === t, lo, hi) || '(no named events)'}`);
