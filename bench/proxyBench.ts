/**
 * The latency `watch` adds (issue 24): N tools/call requests at R messages/s to a server that answers
 * each at once (bench/proxyAnswerServer.js), once directly and once through `node dist/cli.js watch`.
 * Each answer reads "Error: …" with isError false, so watch judges every message and writes a finding
 * line for each (its worst case). Round trips are timed per message; the added latency is the
 * difference of the two distributions' percentiles. Bytes are compared end to end: what the client got
 * through watch equals what it got directly, and the server read exactly what the client sent (SHA-256).
 * Writes bench/proxy-results.json and its section of docs/performance.md (which `npm run bench` keeps).
 *
 *   npm run build && node --import tsx bench/proxyBench.ts [--messages=5000] [--rate=1000]
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
const arg = (name: string, dflt: number) => Number(process.argv.find(a => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt);
const N = arg('messages', 5000);
const RATE = arg('rate', 1000);
const SERVER = [process.execPath, join(ROOT, 'bench/proxyAnswerServer.js')];

interface Run {
  readonly rtt: number[];
  readonly received: Buffer;
  readonly serverRead: string;
  readonly findings: number;
  /** CPU time of the spawned process (watch, or the server directly) from the first answer to the last, ms. */
  readonly cpuMs: number;
}

/** User + system CPU time of a process so far, in ms (Linux /proc; 0 elsewhere). */
function cpuOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime, stime in ticks of 1/100 s (CLK_TCK)
  } catch {
    return 0;
  }
}

function once(viaWatch: boolean, tmp: string, clean = false): Promise<Run> {
  const hashFile = join(tmp, `in-${viaWatch ? 'watch' : 'direct'}-${clean}`);
  const [cmd, ...args] = viaWatch ? [process.execPath, join(ROOT, 'dist/cli.js'), 'watch', '--', ...SERVER] : SERVER;
  const p = spawn(cmd!, args, { env: { ...process.env, BENCH_IN_HASH: hashFile, BENCH_CLEAN: clean ? '1' : '0' } });
  const sentAt = new Map<number, bigint>();
  const rtt: number[] = [];
  const got: Buffer[] = [];
  let pending = '';
  let findings = 0;
  let cpuFirst = 0,
    cpuLast = 0;
  p.stderr.on('data', (c: Buffer) => (findings += c.toString('utf8').split('runtime.unflagged-failure').length - 1));
  p.stdout.on('data', (c: Buffer) => {
    const now = process.hrtime.bigint();
    got.push(c);
    pending += c.toString('utf8');
    let nl;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const id = (JSON.parse(pending.slice(0, nl)) as { id: number }).id;
      pending = pending.slice(nl + 1);
      rtt.push(Number(now - sentAt.get(id)!) / 1e6);
      if (rtt.length === 1) cpuFirst = cpuOf(p.pid!);
      if (rtt.length === N) cpuLast = cpuOf(p.pid!);
    }
  });
  return new Promise(done => {
    const start = process.hrtime.bigint();
    let i = 0;
    const tick = () => {
      // Send every message whose time has come (1,000/s: one a millisecond, in order).
      const due = Math.min(N, Math.floor((Number(process.hrtime.bigint() - start) / 1e9) * RATE) + 1);
      for (; i < due; i++) {
        const line = `{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"get_item","arguments":{"id":"item-${i}"}}}\n`;
        sentAt.set(i, process.hrtime.bigint());
        p.stdin.write(line);
      }
      if (i < N) setTimeout(tick, 1);
      else p.stdin.end();
    };
    p.on('close', () =>
      done({ rtt, received: Buffer.concat(got), serverRead: readFileSync(hashFile, 'utf8'), findings, cpuMs: cpuLast - cpuFirst }),
    );
    tick();
  });
}

export interface ProxyResults {
  meta: { date: string; node: string; cpus: number; loadavg: number[] };
  messages: number;
  rate: number;
  direct: { p50: number; p99: number; answered: number };
  watch: { p50: number; p99: number; answered: number; findings: number; cpuPerMessageUs?: number };
  added: { p50: number; p99: number };
  /** Answers with no finding (the common case): through watch, and what it adds. */
  clean?: { watch: { p50: number; p99: number; answered: number; cpuPerMessageUs?: number }; added: { p50: number; p99: number } };
  bytes: { clientReceivedEqual: boolean; received: number; serverReadEqual: boolean; sent: number };
}

const RESULTS = join(ROOT, 'bench/proxy-results.json');
const HEADING = '## `watch`: added latency and transparency';

/** The docs/performance.md section for the last proxy run (bench/proxy-results.json), or '' without one. */
export function proxyMarkdown(): string {
  if (!existsSync(RESULTS)) return '';
  const r = JSON.parse(readFileSync(RESULTS, 'utf8')) as ProxyResults;
  const ms = (x: number) => `${x.toFixed(3)} ms`;
  return `
${HEADING}

\`npm run bench:proxy\` (\`bench/proxyBench.ts\`): ${r.messages.toLocaleString('en')} \`tools/call\` requests at ${r.rate.toLocaleString('en')}/s to a server
that answers each at once, directly and through \`watch\`; every answer reads "Error: …" with \`isError: false\`, so
\`watch\` judges each and writes a finding line for each (${r.watch.findings.toLocaleString('en')} findings: its worst case). Round trips
per message; the added latency is the difference of the percentiles. ${r.meta.date.slice(0, 10)}, Node ${r.meta.node},
${r.meta.cpus} cores, load average ${r.meta.loadavg.join(' / ')}.

| | p50 | p99 | answered |
|---|---|---|---|
| directly | ${ms(r.direct.p50)} | ${ms(r.direct.p99)} | ${r.direct.answered} |
| through \`watch\` | ${ms(r.watch.p50)} | ${ms(r.watch.p99)} | ${r.watch.answered} |
| added | ${ms(r.added.p50)} | ${ms(r.added.p99)} | |
${
  r.clean
    ? `| through \`watch\`, answers without a finding | ${ms(r.clean.watch.p50)} | ${ms(r.clean.watch.p99)} | ${r.clean.watch.answered} |
| added (no finding) | ${ms(r.clean.added.p50)} | ${ms(r.clean.added.p99)} | |
`
    : ''
}
Bytes end to end: the client received ${r.bytes.received.toLocaleString('en')} bytes through \`watch\`, ${r.bytes.clientReceivedEqual ? 'identical to' : '**different from**'} what it received directly;
the server read ${r.bytes.sent.toLocaleString('en')} bytes, ${r.bytes.serverReadEqual ? 'identical (SHA-256) to' : '**different from**'} what the client sent, both ways.
\`watch\`'s own CPU time per message (request and answer forwarded and checked, from /proc, 10 ms ticks):
${r.watch.cpuPerMessageUs ?? '–'} µs with a finding each, ${r.clean?.watch.cpuPerMessageUs ?? '–'} µs without: at 1,000 messages/s it needs
${r.watch.cpuPerMessageUs === undefined ? '–' : `${Math.round(r.watch.cpuPerMessageUs / 10)} %`} of one core. The target is p99 added < 1 ms at 1,000 messages/s; \`watch\` is a third
process, so on a machine whose load average exceeds its cores it gets a share of a core smaller than what it needs, falls
behind, and the percentiles measure the scheduler (the checker runs after the forwarding, in slices of 0.5 ms, and never
holds a message: see ARCHITECTURE.md, "Run time"); run it on a quiet machine for the latency figure.
`;
}

/** Replace (or append) the proxy section of docs/performance.md. */
function writeDocs(): void {
  const file = join(ROOT, 'docs/performance.md');
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf('\n' + HEADING);
  const next = at < 0 ? -1 : text.indexOf('\n## ', at + 2);
  const before = at < 0 ? text : text.slice(0, at);
  const after = next < 0 ? '' : text.slice(next);
  writeFileSync(file, before.trimEnd() + '\n' + proxyMarkdown() + after);
}

const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'mcp-aql-proxy-bench-'));
  try {
    let sent = '';
    for (let i = 0; i < N; i++)
      sent += `{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"get_item","arguments":{"id":"item-${i}"}}}\n`;
    const sentHash = `${Buffer.byteLength(sent)} ${createHash('sha256').update(sent).digest('hex')}`;
    await once(false, tmp); // warm-up (disk cache, JIT of the client side)
    const direct = await once(false, tmp);
    const watch = await once(true, tmp);
    const cleanDirect = await once(false, tmp, true);
    const cleanWatch = await once(true, tmp, true);
    const r = (x: number) => Math.round(x * 1000) / 1000;
    const results: ProxyResults = {
      meta: { date: new Date().toISOString(), node: process.version, cpus: cpus().length, loadavg: loadavg().map(r) },
      messages: N,
      rate: RATE,
      direct: { p50: r(pct(direct.rtt, 0.5)), p99: r(pct(direct.rtt, 0.99)), answered: direct.rtt.length },
      watch: {
        p50: r(pct(watch.rtt, 0.5)),
        p99: r(pct(watch.rtt, 0.99)),
        answered: watch.rtt.length,
        findings: watch.findings,
        cpuPerMessageUs: Math.round((watch.cpuMs * 1000) / N),
      },
      added: { p50: r(pct(watch.rtt, 0.5) - pct(direct.rtt, 0.5)), p99: r(pct(watch.rtt, 0.99) - pct(direct.rtt, 0.99)) },
      clean: {
        watch: {
          p50: r(pct(cleanWatch.rtt, 0.5)),
          p99: r(pct(cleanWatch.rtt, 0.99)),
          answered: cleanWatch.rtt.length,
          cpuPerMessageUs: Math.round((cleanWatch.cpuMs * 1000) / N),
        },
        added: {
          p50: r(pct(cleanWatch.rtt, 0.5) - pct(cleanDirect.rtt, 0.5)),
          p99: r(pct(cleanWatch.rtt, 0.99) - pct(cleanDirect.rtt, 0.99)),
        },
      },
      bytes: {
        clientReceivedEqual: watch.received.equals(direct.received) && cleanWatch.received.equals(cleanDirect.received),
        received: watch.received.length,
        serverReadEqual: [watch, direct, cleanWatch, cleanDirect].every(x => x.serverRead === sentHash),
        sent: Buffer.byteLength(sent),
      },
    };
    writeFileSync(RESULTS, JSON.stringify(results, null, 2) + '\n');
    writeDocs();
    process.stdout.write(JSON.stringify(results, null, 2) + '\n');
    if (!results.bytes.clientReceivedEqual || !results.bytes.serverReadEqual) process.exitCode = 1;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (require.main === module) void main();
