/**
 * The proxy bench's results (bench/proxy-results.json, written by bench/proxyBench.ts) and their section of
 * bench/REPORT.md, which `npm run bench` keeps (bench/run.ts). The summary a user reads is
 * docs/performance.md (written by hand); the history of the figures is bench/NOTES.md.
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
/** What `npm run bench` and `npm run bench:proxy` write: every table of the last runs. */
export const REPORT = join(ROOT, 'bench/REPORT.md');
const HEADING = '## `watch`: added latency and transparency';

/** The bench/REPORT.md section for the last proxy run (bench/proxy-results.json), or '' without one (or an older shape). */
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
How these figures came to be (profiles, what was tried and dropped, busier sittings): bench/NOTES.md, "\`watch\`".
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

/** Replace (or append) the proxy section of bench/REPORT.md. */
export function writeDocs(): void {
  const file = REPORT;
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf('\n' + HEADING);
  const next = at < 0 ? -1 : text.indexOf('\n## ', at + 2);
  const before = at < 0 ? text : text.slice(0, at);
  const after = next < 0 ? '' : text.slice(next);
  writeFileSync(file, before.trimEnd() + '\n' + proxyMarkdown() + after);
}
