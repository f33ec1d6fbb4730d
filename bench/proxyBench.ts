/**
 * The latency `watch` adds (issue 24): N tools/call requests at R messages/s to a server that answers
 * each at once (bench/proxyAnswerServer.cjs), once directly and once through `node dist/cli.js watch`.
 * Each answer reads "Error: …" with isError false, so watch judges every message and writes a finding
 * line for each (its worst case). Round trips are timed per message; the added latency is the
 * difference of the two distributions' percentiles. Bytes are compared end to end: what the client got
 * through watch equals what it got directly, and the server read exactly what the client sent (SHA-256).
 * Writes bench/proxy-results.json; `npm run bench` renders it into docs/performance.md.
 *
 *   npm run build && node --import tsx bench/proxyBench.ts [--messages=5000] [--rate=1000]
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
const arg = (name: string, dflt: number) => Number(process.argv.find(a => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt);
const N = arg('messages', 5000);
const RATE = arg('rate', 1000);
const SERVER = [process.execPath, join(ROOT, 'bench/proxyAnswerServer.cjs')];

interface Run {
  readonly rtt: number[];
  readonly received: Buffer;
  readonly serverRead: string;
  readonly findings: number;
}

function once(viaWatch: boolean, tmp: string): Promise<Run> {
  const hashFile = join(tmp, `in-${viaWatch ? 'watch' : 'direct'}`);
  const [cmd, ...args] = viaWatch ? [process.execPath, join(ROOT, 'dist/cli.js'), 'watch', '--', ...SERVER] : SERVER;
  const p = spawn(cmd!, args, { env: { ...process.env, BENCH_IN_HASH: hashFile } });
  const sentAt = new Map<number, bigint>();
  const rtt: number[] = [];
  const got: Buffer[] = [];
  let pending = '';
  let findings = 0;
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
    p.on('close', () => done({ rtt, received: Buffer.concat(got), serverRead: readFileSync(hashFile, 'utf8'), findings }));
    tick();
  });
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
    const r = (x: number) => Math.round(x * 1000) / 1000;
    const results = {
      meta: { date: new Date().toISOString(), node: process.version, cpus: cpus().length, loadavg: loadavg().map(r) },
      messages: N,
      rate: RATE,
      direct: { p50: r(pct(direct.rtt, 0.5)), p99: r(pct(direct.rtt, 0.99)), answered: direct.rtt.length },
      watch: { p50: r(pct(watch.rtt, 0.5)), p99: r(pct(watch.rtt, 0.99)), answered: watch.rtt.length, findings: watch.findings },
      added: { p50: r(pct(watch.rtt, 0.5) - pct(direct.rtt, 0.5)), p99: r(pct(watch.rtt, 0.99) - pct(direct.rtt, 0.99)) },
      bytes: {
        clientReceivedEqual: watch.received.equals(direct.received),
        received: watch.received.length,
        serverReadEqual: watch.serverRead === sentHash && direct.serverRead === sentHash,
        sent: Buffer.byteLength(sent),
      },
    };
    writeFileSync(join(ROOT, 'bench/proxy-results.json'), JSON.stringify(results, null, 2) + '\n');
    process.stdout.write(JSON.stringify(results, null, 2) + '\n');
    if (!results.bytes.clientReceivedEqual || !results.bytes.serverReadEqual) process.exitCode = 1;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

void main();
