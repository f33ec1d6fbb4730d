/**
 * The proxy bench's results (bench/proxy-results.json, written by bench/proxyBench.ts) and their section of
 * docs/performance.md, which `npm run bench` keeps (bench/run.ts).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { round, type RunSummary } from './proxyStats';

const ROOT = join(__dirname, '..');

export interface ProxyResults {
  meta: { date: string; node: string; cpus: number; loadavg: number[]; loadavgAfter: number[]; build: string };
  messages: number;
  rate: number;
  warmup: number;
  runs: number;
  /** Each variant: the median over the runs of each figure (ms). */
  direct: RunSummary;
  floor: RunSummary & { cpuPerMessageUs?: number };
  watch: RunSummary & { findings: number; cpuPerMessageUs: number };
  /** watch with a finding each, its standard error to a file rather than a pipe the client reads. */
  watchToFile?: RunSummary & { findings: number; cpuPerMessageUs: number };
  directClean: RunSummary;
  watchClean: RunSummary & { cpuPerMessageUs: number };
  /** watch minus direct, steady state. */
  added: { p50: number; p99: number; startupMs: number; firstByteMs: number };
  addedToFile?: { p50: number; p99: number };
  addedClean: { p50: number; p99: number };
  /** The bare Node proxy minus direct: the cost of any proxy process. */
  addedByFloor: { p50: number; p99: number; startupMs: number };
  bytes: { clientReceivedEqual: boolean; received: number; serverReadEqual: boolean; sent: number };
  /** `--compare`: the other build's watch, in the same interleaving, and what it adds. */
  compare?: {
    cli: string;
    watch: RunSummary & { findings: number; cpuPerMessageUs: number };
    watchClean: RunSummary & { cpuPerMessageUs: number };
    added: { p50: number; p99: number };
    addedClean: { p50: number; p99: number };
  };
}

export const RESULTS = join(ROOT, 'bench/proxy-results.json');
const HEADING = '## `watch`: added latency and transparency';

/** The docs/performance.md section for the last proxy run (bench/proxy-results.json), or '' without one (or an older shape). */
export function proxyMarkdown(): string {
  if (!existsSync(RESULTS)) return '';
  const r = JSON.parse(readFileSync(RESULTS, 'utf8')) as ProxyResults;
  if (!r.floor) return '';
  const ms = (x: number) => `${x.toFixed(3)} ms`;
  const row = (name: string, x: RunSummary) =>
    `| ${name} | ${ms(x.firstByteMs)} | ${ms(x.startupMs)} | ${ms(x.warmupP99)} | ${ms(x.p50)} | ${ms(x.p99)} | ${ms(x.p999)} | ${ms(x.max)} |`;
  const n = (x: number) => x.toLocaleString('en');
  // A p99 of the direct connection itself over 1 ms, or more runnable processes than cores, means the
  // machine was busy: a difference of p99s then measures the scheduler, not watch.
  const busy = r.direct.p99 > 1 || r.directClean.p99 > 1 || r.meta.loadavg[0]! > r.meta.cpus;
  const verdict = busy
    ? `**not measurable** in this run: the machine was busy (load average ${r.meta.loadavg[0]} on ${r.meta.cpus} cores; the direct connection's own p99 ${ms(r.direct.p99)}, ${ms(r.directClean.p99)} clean), so the p99s measure the scheduler; the p50s and the comparison below, interleaved, still compare`
    : r.added.p99 < 1 && r.addedClean.p99 < 1
      ? 'met in this run'
      : `**not met** in this run; over the bare proxy, \`watch\` adds p99 ${ms(round(r.watch.p99 - r.floor.p99))} with a finding each, ${ms(round(r.watchClean.p99 - r.floor.p99))} clean`;
  return `
${HEADING}

\`npm run bench:proxy\` (\`bench/proxyBench.ts\`, the ${r.meta.build} build): a client sends ${n(r.messages)} \`tools/call\` requests at ${n(r.rate)}/s to a
server that answers each at once: directly, through a bare Node pipe proxy (\`bench/proxyFloor.js\`: spawn, pipe,
nothing else — the floor for any proxy written in Node) and through \`watch\`. Each run starts with a handshake
(\`initialize\` and its answer), timed apart: spawn → the server reads its first byte, and spawn → the client reads the
answer. The timed messages follow it; the first ${n(r.warmup)} (the warm-up) are reported apart, the percentiles are over the
other ${n(r.messages - r.warmup)} (the steady state). Each variant ran ${r.runs} times, interleaved; every figure is the median of the ${r.runs} runs.
"With a finding": every answer reads "Error: …" with \`isError: false\`, so \`watch\` judges each and writes a finding
line for each (${n(r.watch.findings)} findings a run: its worst case); "clean": answers without a finding. ${r.meta.date.slice(0, 16).replace('T', ' ')} UTC,
Node ${r.meta.node}, ${r.meta.cpus} cores, load average ${r.meta.loadavg.join(' / ')} before, ${r.meta.loadavgAfter.join(' / ')} after.

| | spawn → first byte | spawn → \`initialize\` answered | warm-up p99 | p50 | p99 | p99.9 | max |
|---|---|---|---|---|---|---|---|
${row('directly', r.direct)}
${row('bare Node proxy', r.floor)}
${row('through `watch`, with a finding', r.watch)}
${r.watchToFile ? row('through `watch`, with a finding, its stderr to a file', r.watchToFile) + '\n' : ''}${row('directly (clean)', r.directClean)}
${row('through `watch`, clean', r.watchClean)}

Added by \`watch\`, steady state: p50 ${ms(r.added.p50)}, p99 ${ms(r.added.p99)} with a finding each; p50 ${ms(r.addedClean.p50)},
p99 ${ms(r.addedClean.p99)} clean (target: p99 added < 1 ms at 1,000 messages/s: ${verdict}). Of which any Node proxy adds p50
${ms(r.addedByFloor.p50)}, p99 ${ms(r.addedByFloor.p99)} (the bare proxy: one more process, two more pipe hops). Start-up, once
per session: \`watch\` adds ${ms(r.added.firstByteMs)} before the server reads its first byte and ${ms(r.added.startupMs)} before the first
answer (the bare proxy: ${ms(r.addedByFloor.startupMs)}).${toFileMarkdown(r)}

Bytes end to end: the client received ${n(r.bytes.received)} bytes through \`watch\`, ${r.bytes.clientReceivedEqual ? 'identical to' : '**different from**'} what it received directly;
the server read ${n(r.bytes.sent)} bytes, ${r.bytes.serverReadEqual ? 'identical (SHA-256) to' : '**different from**'} what the client sent, every run, every variant.
\`watch\`'s own CPU time per message (request and answer forwarded and checked, from /proc, 10 ms ticks):
${r.watch.cpuPerMessageUs} µs with a finding each, ${r.watchClean.cpuPerMessageUs} µs clean${r.floor.cpuPerMessageUs === undefined ? '' : ` (the bare proxy: ${r.floor.cpuPerMessageUs} µs)`}: at 1,000 messages/s it needs
${Math.round(r.watch.cpuPerMessageUs / 10)} % of one core. \`watch\` is a third process: on a machine whose load average exceeds its
cores it gets a smaller share of a core than that, and the percentiles measure the scheduler. Its forwarding thread only
pipes and copies each chunk into shared memory; the judging runs on a worker thread at a lower priority (see
ARCHITECTURE.md, "Run time"), so what the client waits for does not depend on the findings.
${compareMarkdown(r)}
Where the time went (\`--cpu-prof\`, \`--trace-gc\`, per-message timelines, 2026-11-25). The 321 ms "added p99" of the
earlier bench was start-up, not a per-message cost: its clock started at spawn, and the messages sent while \`watch\`
loaded queued behind it (300 to 400 of the 5,000). Start-up then was the bundle (~100 ms to compile and
initialize, of which ~15 ms building zod's schemas for \`probe\`'s SDK), the JSON schemas (~70 ms of Ajv compiling,
which \`watch\` never uses), and only then the server's spawn; both are gone (the schemas are compiled when first
needed, the SDK loads for \`probe\` only): spawn → first answer fell from a median of 375 ms to 276 ms (10 each, the same
quiet minute). What is left over the bare proxy is compiling and initializing the 0.8 MB bundle before the spawn.
In the steady state, judging one answer takes ~20–35 µs (the first ~1–2 ms, compiling), a young-generation GC
~1 ms every ~400 ms and one old-generation GC ~5 ms early on; a finding line is one synchronous write to stderr.
The rest of the spread is the scheduler: three processes (client, \`watch\`, server) wake per message.

Round three (issue 24, 2026-11-25): the judging left the forwarding thread. Tried one by one on the figures above
(\`--compare\` with main's build): judging on a worker thread fed by \`postMessage\` per chunk took the judging's
GC pauses and its 0.5 ms slices off the forwarding thread, but cost ~70–90 µs more CPU per message (a structured
clone, a wake-up of the worker and its event loop for each chunk: 284 against 214 µs with findings), which on a
busy 2-core machine is latency again. The ring of shared memory (\`cli/watchRing.ts\`) costs the forwarding thread
a copy of ~100 bytes and an atomic store per chunk; the judge, at nice 10, polls it every 5 ms and judges
the ~5 calls of each wake-up together, so \`watch\`'s CPU per message is within ~10–55 µs of the single-thread design's (the
runs vary; the judge's own loading, ~30–50 ms of CPU, falls inside the timed messages), none of it on the forwarding
thread. Finding lines are written by the judge, whole lines in writes of at most
4096 bytes, one write per poll. The judge starts after the server's first output, so its loading (a second
copy of the bundle, ~100 ms of CPU) does not compete with the server's start-up. A second sitting on the final
build, 2026-11-25 22:47 UTC (load 1.6 rising to 3.6), medians of 5 against main's build interleaved: p50 0.164 / 0.151 ms
against 0.204 / 0.216 ms (with a finding each / clean), p99 2.88 / 3.14 against 4.45 / 9.51 ms, p99.9 5.7 / 5.5 against
11.1 / 40.4 ms, max 9.7 / 7.7 against 14.0 / 43.7 ms, CPU per message 192 / 164 against 172 / 140 µs. Its last quiet
run (2026-11-25 23:25 UTC, load 0.36 → 0.11): added p99 1.338 ms with a finding each, 0.971 ms clean, the bare
proxy 0.176 ms; p50 0.122 / 0.080 ms.

Round four (issue 24, 2026-11-26): what the finding and clean cases add over the bare proxy, one hypothesis at a
time (the machine shared with CPU-heavy benchmarks: load 3 to 7 on 2 cores for most of the night, when the p99s of every
variant, the direct connection's included, were the other tenants'; what follows leans on CPU time per thread
from \`/proc\`, over the 4,000 steady messages, and on \`perf sched\`, which hold under load).
(d) The forwarding thread does the bare proxy's work: 210 ms of CPU for both in the same minute (the two
\`data\` listeners, the ~100-byte copy into the ring and its atomic store do not show at 10 ms ticks). What watch
adds is elsewhere: the judge (280–310 ms) and V8's helper threads, 110–130 ms against ~10 ms for the bare proxy —
the judge's garbage collection (\`--trace-gc\`: a scavenge every ~330 ms, 1–9 ms each, done in parallel by the
helpers) and compiling, at nice 0 while the judge ran at nice 10. On Linux's scheduler (EEVDF) a waking thread can wait for a running thread's time slice (about a
millisecond), and a nice-0 helper competes with it at full weight; of the
time our own threads kept the forwarding thread, the client or the server from a core (\`perf sched timehist\`,
waits over 0.3 ms), the helpers had a median of ~60 % in 8 runs, the judge the rest. Kept: the judge lowers every thread but the forwarding one to nice 10 before it loads
(\`cli/watchJudge.ts\`), and young-generation collections use no helper threads (\`cli/parallel.ts\`
\`serialScavenges\`, as \`check\`'s pool does: the flag is read at each collection), so the judge's scavenges run
on its own lowered thread and the forwarding thread's small ones on itself, never waiting for a lowered
helper; what the helpers still do is mostly compiling the judge's code (\`perf record\`: TurboFan, ~6 % of
watch's samples, falling as the session goes on), 80–100 ms a run with or without. The judge's
profile: two thirds of verify's JSON parse went to an object spread (\`verify/json.ts\`, now spelled out: 27 → 8.5 µs
for a request and an answer), judge 300 → 200 ms, helpers 130 → 80 ms. Dropped: turning concurrent marking,
parallel marking and compaction and concurrent sweeping off as well, so the judge would do all of its collecting
itself (switching concurrent marking off after start ended the process in a V8 check,
\`concurrent_marking_handle_\`: only the scavenge flag, read at each collection, is set), and a larger young
generation for the judge (\`maxYoungGenerationSizeMb\` 64: the same 16 scavenges a run; it grows only as survival
asks).
(c) Polling every 20 ms instead of 5 (kept): the judge's wake-ups 740 → ~200 per 4,000 messages, its CPU
160–250 → 100–110 ms (two runs each; 10 ms: 120–150 ms), and finding lines in ~50 writes a second instead of
~200, each a whole number of lines under 4096 bytes; a finding is on stderr ≤ 20 ms after its answer.
(b) Nice 19 instead of 10 (weight 15 against 110): no difference the load let through, and a judge that starves
has less to catch up with at the end at 10 (the end waits 60 s for it); kept 10. \`SCHED_IDLE\` (set on the
thread through \`chrt\`) was no better and needs an outside program: dropped. A judge that gets no CPU at all
holds the session back in nothing: the ring (8 MiB) fills, later copies are dropped and counted (a line at most
every 10 s), and when it runs again it judges and records what the ring holds, in order, and the summary counts
the rest as passed on unchecked (\`test/cli/watchStarved.test.ts\`).
(a) The client reading watch's stderr in the process that timestamps the answers: the bench's variant with
stderr to a file is reported beside the figure above, never instead of it; in four sittings it was no better at
p99 (0.96 against 0.86 ms on the quiet machine, 2.92 against 3.00, 4.21 against 3.83, 5.29 against 5.65) nor at
p50 (0.183 against 0.186 ms quiet), so with a poll every 20 ms the client's ~50 wake-ups a second for finding lines
do not show.
The A/B of this round (\`--compare\` with main's build, 2026-11-26 01:09 UTC, load 6.3 → 6.8, medians of 5
interleaved): CPU per message 140 / 120 µs against 180 / 192 µs (with a finding each / clean; the bare proxy 76 µs);
the p99s (5.7 / 36.5 against 3.5 / 22.3 ms, the direct connection's own 1.5 / 2.7 ms) measured the load. A sitting
of the final build at 01:33 UTC (load 1.9 rising to 4.3): CPU per message 146 / 126 against 182 / 180 µs, p99
3.83 / 2.25 against 1.97 / 2.51 ms, the bare proxy's own 3.07 ms. At 01:50 UTC (load 0.9 → 1.7, the direct
connection's p99 still 1.5 / 1.1 ms): added p99 1.48 / 1.13 against 1.27 / 2.04 ms, CPU 172 / 158 against
236 / 212 µs. The tables above (the other build: main's at 4ea1e58) are the final build's once the machine was
quiet (01:57 UTC, load 0.75 → 0.56, the direct connection's p99 0.38 / 0.29 ms): added p99 0.47 ms with a finding
on every message and 0.59 ms clean, against main's 1.47 / 0.92 ms in the same interleaving — the target met in
that run; over the bare proxy (0.27 ms) \`watch\` adds ~0.2 ms at p99, with or without findings.
Not a per-message cost but seen in a 20 s run: V8's memory reducer collects the forwarding thread's whole heap
(the bundle's, ~6 MB) about 8 s into the session, twice (pauses of 1.4 and 19.9 ms on the loaded machine, on top of
4 and 6 ms in small incremental steps); the bare proxy's heap is about half of it. Left as it is (not
pursued further: once or twice a session, it reaches the p99.9 and the max, not the p99).
`;
}

/** The variant whose finding lines go to a file: beside the with-a-finding figure, never instead of it. */
function toFileMarkdown(r: ProxyResults): string {
  if (!r.watchToFile || !r.addedToFile) return '';
  const ms = (x: number) => `${x.toFixed(3)} ms`;
  return `

With \`watch\`'s standard error going to a file (a host that logs to a file) rather than to a pipe the client reads in the
process that timestamps the answers: p50 ${ms(r.addedToFile.p50)}, p99 ${ms(r.addedToFile.p99)} added with a finding each
(${r.watchToFile.findings.toLocaleString('en')} finding lines in the file a run). The figure above, with the client reading them, is the one the target is judged on.`;
}

/** The `--compare` build's figures beside this build's, when the run had one. */
function compareMarkdown(r: ProxyResults): string {
  const c = r.compare;
  if (!c) return '';
  const ms = (x: number) => `${x.toFixed(3)} ms`;
  const row = (name: string, x: RunSummary, cpu: number) =>
    `| ${name} | ${ms(x.startupMs)} | ${ms(x.p50)} | ${ms(x.p99)} | ${ms(x.p999)} | ${ms(x.max)} | ${cpu} µs |`;
  return `
The same run, interleaved with this build's, through another build of \`watch\` (\`--compare\`: ${c.cli}):

| | spawn → \`initialize\` answered | p50 | p99 | p99.9 | max | CPU per message |
|---|---|---|---|---|---|---|
${row('this build, with a finding', r.watch, r.watch.cpuPerMessageUs)}
${row('the other build, with a finding', c.watch, c.watch.cpuPerMessageUs)}
${row('this build, clean', r.watchClean, r.watchClean.cpuPerMessageUs)}
${row('the other build, clean', c.watchClean, c.watchClean.cpuPerMessageUs)}

Added over direct by the other build: p50 ${ms(c.added.p50)}, p99 ${ms(c.added.p99)} with a finding each; p50 ${ms(c.addedClean.p50)},
p99 ${ms(c.addedClean.p99)} clean.
`;
}

/** Replace (or append) the proxy section of docs/performance.md. */
export function writeDocs(): void {
  const file = join(ROOT, 'docs/performance.md');
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf('\n' + HEADING);
  const next = at < 0 ? -1 : text.indexOf('\n## ', at + 2);
  const before = at < 0 ? text : text.slice(0, at);
  const after = next < 0 ? '' : text.slice(next);
  writeFileSync(file, before.trimEnd() + '\n' + proxyMarkdown() + after);
}
