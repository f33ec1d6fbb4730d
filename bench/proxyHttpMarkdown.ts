/**
 * The HTTP proxy bench's results (bench/proxy-http-results.json, written by bench/proxyHttpBench.ts) and their
 * section of bench/REPORT.md, right after the stdio proxy's (bench/proxyMarkdown.ts); `npm run bench` keeps it
 * (bench/run.ts, through bench/proxyBench.ts's `proxyMarkdown`). The summary a user reads is docs/performance.md.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPORT } from './proxyMarkdown';
import { round, type RunSummary } from './proxyStats';

const ROOT = join(__dirname, '..');

type Proxied = RunSummary & { findings: number; cpuPerMessageUs: number };

export interface ProxyHttpResults {
  meta: {
    date: string;
    node: string;
    cpus: number;
    loadavg: number[];
    loadavgAfter: number[];
    build: string;
    /** The bench's scheduling policy (Linux): 'other', or 'rr 1' under `chrt -r 1`. */
    scheduling?: string;
  };
  messages: number;
  rate: number;
  warmup: number;
  runs: number;
  /** Each variant: the median over the runs of each figure (ms). Answers as a JSON body. */
  json: {
    direct: RunSummary;
    floor: RunSummary & { cpuPerMessageUs: number };
    watch: Proxied;
    directClean: RunSummary;
    watchClean: Proxied;
  };
  /** Answers as a one-event SSE stream. */
  sse: { direct: RunSummary; floor: RunSummary & { cpuPerMessageUs: number }; watch: Proxied };
  /** watch minus direct, steady state. */
  added: {
    json: { p50: number; p99: number };
    jsonClean: { p50: number; p99: number };
    sse: { p50: number; p99: number };
  };
  /** `--compare`: the same through another build of the CLI (its `watch` minus direct under `added`). */
  compare?: {
    cli: string;
    json: Proxied;
    jsonClean: Proxied;
    sse: Proxied;
    added: { json: { p50: number; p99: number }; jsonClean: { p50: number; p99: number }; sse: { p50: number; p99: number } };
  };
  /** The bare Node reverse proxy minus direct. */
  addedByFloor: { json: { p50: number; p99: number }; sse: { p50: number; p99: number } };
  bytes: { responsesEqual: boolean; received: { json: number; sse: number }; serverReadEqual: boolean; sent: number };
}

export const HTTP_RESULTS = join(ROOT, 'bench/proxy-http-results.json');
const HEADING = '## `watch --listen`: the HTTP proxy, added latency and transparency';

/** The bench/REPORT.md section for the last HTTP proxy run, or '' without one. */
export function proxyHttpMarkdown(): string {
  if (!existsSync(HTTP_RESULTS)) return '';
  const r = JSON.parse(readFileSync(HTTP_RESULTS, 'utf8')) as ProxyHttpResults;
  const ms = (x: number) => `${x.toFixed(3)} ms`;
  const n = (x: number) => x.toLocaleString('en');
  const row = (name: string, x: RunSummary, cpu?: number) =>
    `| ${name} | ${ms(x.firstByteMs)} | ${ms(x.startupMs)} | ${ms(x.warmupP99)} | ${ms(x.p50)} | ${ms(x.p99)} | ${ms(x.p999)} | ${ms(x.max)} | ${cpu === undefined ? '' : `${cpu} µs`} |`;
  // As for stdio: a direct p99 over 1 ms, or more runnable processes than cores, means the percentiles measure the scheduler.
  const busy = r.json.direct.p99 > 1 || r.sse.direct.p99 > 1 || r.meta.loadavg[0]! > r.meta.cpus;
  const worst = Math.max(r.added.json.p99, r.added.jsonClean.p99, r.added.sse.p99);
  const verdict =
    worst < 1
      ? `met in this run${busy ? ` although the machine was busy (load average ${r.meta.loadavg[0]} on ${r.meta.cpus} cores)` : ''}`
      : busy
        ? `**not measurable** in this run: the machine was busy (load average ${r.meta.loadavg[0]} on ${r.meta.cpus} cores; the direct p99 ${ms(r.json.direct.p99)} JSON, ${ms(r.sse.direct.p99)} SSE), so the p99s measure the scheduler; over the bare proxy, \`watch\` adds p99 ${ms(round(r.json.watch.p99 - r.json.floor.p99))} JSON, ${ms(round(r.sse.watch.p99 - r.sse.floor.p99))} SSE`
        : `**not met** in this run; over the bare proxy, \`watch\` adds p99 ${ms(round(r.json.watch.p99 - r.json.floor.p99))} JSON, ${ms(round(r.sse.watch.p99 - r.sse.floor.p99))} SSE`;
  return `
${HEADING}

\`npm run bench:proxy-http\` (\`bench/proxyHttpBench.ts\`, the ${r.meta.build} build): a client POSTs ${n(r.messages)} \`tools/call\` requests at
${n(r.rate)}/s (keep-alive connections, at most 64, loopback only) to a server on 127.0.0.1 that answers each at once, as a JSON body or as a
one-event SSE stream: directly, through a bare Node HTTP reverse proxy (\`bench/proxyHttpFloor.js\`: forward, pipe, nothing
else) and through \`watch --listen 127.0.0.1:0 --url …\`. Each run spawns the server and the proxy afresh; "spawn → listening" is
the front process's own (the server's directly, else the proxy's), "spawn → \`initialize\` answered" the handshake through it.
A round trip is the request sent → the response's last byte; the first ${n(r.warmup)} messages (the warm-up) are reported apart,
the percentiles are over the other ${n(r.messages - r.warmup)}. Each variant ran ${r.runs} times, interleaved; every figure is the median of the
${r.runs} runs. "With a finding": every answer reads "Error: …" with \`isError: false\` (${n(r.json.watch.findings)} finding lines a run through
\`watch\`); "clean": without one. ${r.meta.date.slice(0, 16).replace('T', ' ')} UTC, Node ${r.meta.node}, ${r.meta.cpus} cores, load average
${r.meta.loadavg.join(' / ')} before, ${r.meta.loadavgAfter.join(' / ')} after${r.meta.scheduling && r.meta.scheduling !== 'other' ? `; the bench and every process it started ran real-time (\`chrt\`, ${r.meta.scheduling}): other sessions' work gave way to them` : ''}.

| | spawn → listening | spawn → \`initialize\` answered | warm-up p99 | p50 | p99 | p99.9 | max | CPU per message |
|---|---|---|---|---|---|---|---|---|
${row('JSON, directly', r.json.direct, undefined)}
${row('JSON, bare Node proxy', r.json.floor, r.json.floor.cpuPerMessageUs)}
${row('JSON, through `watch`, with a finding', r.json.watch, r.json.watch.cpuPerMessageUs)}
${row('JSON, directly (clean)', r.json.directClean)}
${row('JSON, through `watch`, clean', r.json.watchClean, r.json.watchClean.cpuPerMessageUs)}
${row('SSE, directly', r.sse.direct)}
${row('SSE, bare Node proxy', r.sse.floor, r.sse.floor.cpuPerMessageUs)}
${row('SSE, through `watch`, with a finding', r.sse.watch, r.sse.watch.cpuPerMessageUs)}
${
  r.compare
    ? `${row('JSON, through the compared build, with a finding', r.compare.json, r.compare.json.cpuPerMessageUs)}
${row('JSON, through the compared build, clean', r.compare.jsonClean, r.compare.jsonClean.cpuPerMessageUs)}
${row('SSE, through the compared build, with a finding', r.compare.sse, r.compare.sse.cpuPerMessageUs)}
`
    : ''
}
Added by \`watch\`, steady state: JSON p50 ${ms(r.added.json.p50)}, p99 ${ms(r.added.json.p99)} with a finding each; p50
${ms(r.added.jsonClean.p50)}, p99 ${ms(r.added.jsonClean.p99)} clean; SSE p50 ${ms(r.added.sse.p50)}, p99 ${ms(r.added.sse.p99)} (target: p99 added
< 1 ms at 1,000 messages/s: ${verdict}). Of which any Node reverse proxy adds JSON p50 ${ms(r.addedByFloor.json.p50)}, p99
${ms(r.addedByFloor.json.p99)}; SSE p50 ${ms(r.addedByFloor.sse.p50)}, p99 ${ms(r.addedByFloor.sse.p99)}. Start-up, once: \`watch\` listens
${ms(r.json.watch.firstByteMs)} after its spawn (the bare proxy ${ms(r.json.floor.firstByteMs)}; JSON, with a finding). CPU per message is the front process's over the steady state (from /proc, 10 ms ticks).${
    r.compare
      ? ` The compared build (\`${r.compare.cli}\`, same interleaving) adds JSON p50 ${ms(r.compare.added.json.p50)}, p99 ${ms(r.compare.added.json.p99)} with a finding each; p50 ${ms(r.compare.added.jsonClean.p50)}, p99 ${ms(r.compare.added.jsonClean.p99)} clean; SSE p50 ${ms(r.compare.added.sse.p50)}, p99 ${ms(r.compare.added.sse.p99)}.`
      : ''
  }

Transparency: every response through the bare proxy and through \`watch\` (status, content type, \`Mcp-Session-Id\`, body;
${n(r.bytes.received.json)} bytes JSON, ${n(r.bytes.received.sse)} bytes SSE a run) ${r.bytes.responsesEqual ? 'identical to' : '**different from**'} the direct one; the server read
${n(r.bytes.sent)} bytes of request bodies, ${r.bytes.serverReadEqual ? "identical (SHA-256, with each request's `Mcp-Session-Id`) to" : '**different from**'} what the client sent,
every run, every variant.
`;
}

/** Replace (or add, after the stdio proxy's section) the HTTP proxy section of bench/REPORT.md. */
export function writeHttpDocs(): void {
  const text = readFileSync(REPORT, 'utf8');
  const section = proxyHttpMarkdown();
  const at = text.indexOf('\n' + HEADING);
  if (at >= 0) {
    const next = text.indexOf('\n## ', at + 2);
    writeFileSync(REPORT, text.slice(0, at).trimEnd() + '\n' + section + (next < 0 ? '' : text.slice(next)));
    return;
  }
  const stdio = text.indexOf('\n## `watch`: added latency');
  const next = stdio < 0 ? -1 : text.indexOf('\n## ', stdio + 2);
  if (next < 0) writeFileSync(REPORT, text.trimEnd() + '\n' + section);
  else writeFileSync(REPORT, text.slice(0, next).trimEnd() + '\n' + section + text.slice(next));
}
