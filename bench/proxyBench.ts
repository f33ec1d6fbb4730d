/**
 * The latency `watch` adds (docs/performance.md): a client sends `tools/call` requests at R messages/s to a server
 * that answers each at once (bench/proxyAnswerServer.js): directly, through a bare Node pipe proxy
 * (bench/proxyFloor.js: the floor for any proxy in Node) and through `node dist/cli.js watch`. Each run
 * first does a handshake (`initialize` → its answer): start-up is timed apart (spawn → the server's
 * first byte, spawn → the answer), and the N timed messages start after it. Round trips are per
 * message; the first W (the warm-up: JIT, caches) are reported apart, the percentiles are over the
 * rest (the steady state). Every variant runs K times, interleaved (so a change of load hits all alike),
 * and each figure is the median of the K runs (bench/proxyStats.ts). Each answer reads "Error: …" with
 * isError false, so watch judges every message and writes a finding line for each (its worst case);
 * the clean variant answers without a finding. Bytes are compared end to end: what the client got
 * through watch equals what it got directly, and the server read exactly what the client sent (SHA-256).
 * Writes bench/proxy-results.json and its section of bench/REPORT.md (bench/proxyMarkdown.ts).
 *
 *   npm run bench:proxy    (the production build, as shipped)
 *   node --import tsx bench/proxyBench.ts [--messages=5000] [--rate=1000] [--warmup=1000] [--runs=5] [--compare=other/dist/cli.js] [--dry]
 *
 * "With a finding, stderr to a file" is the with-a-finding variant again with `watch`'s standard error going to
 * a file (a host that logs to a file) instead of a pipe the client reads: the client then does not wake for
 * the finding lines in the process that timestamps the answers. It is reported beside the other, never
 * instead of it. `--dry`: print the results, write neither bench/proxy-results.json nor the docs.
 *
 * `--compare`: another build of the CLI (main's, say) runs as two more variants in the same interleaving
 * (`watch` with a finding each and clean through that build), reported under `compare`.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuOf } from './procCpu';
import { proxyHttpMarkdown } from './proxyHttpMarkdown';
import { proxyMarkdown as stdioMarkdown, RESULTS, writeDocs, type ProxyResults } from './proxyMarkdown';
import { medianOfRuns, round, summarizeRun, type RunSummary } from './proxyStats';
import { runUnless, usageOf, type UsageProblem } from './usage';

const ROOT = join(__dirname, '..');
const arg = (name: string, dflt: number) => Number(process.argv.find(a => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt);
const N = arg('messages', 5000);
const RATE = arg('rate', 1000);
const WARMUP = arg('warmup', 1000);
const RUNS = arg('runs', 5);
const COMPARE = process.argv.find(a => a.startsWith('--compare='))?.slice('--compare='.length);
const DRY = process.argv.includes('--dry');
const SERVER = [process.execPath, join(ROOT, 'bench/proxyAnswerServer.js')];
const HANDSHAKE = '{"jsonrpc":"2.0","id":"init","method":"initialize","params":{}}\n';
const request = (i: number) =>
  `{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"get_item","arguments":{"id":"item-${i}"}}}\n`;

type Via = 'direct' | 'floor' | 'watch' | 'compare';

interface Run {
  readonly summary: RunSummary;
  readonly received: Buffer;
  readonly serverRead: string;
  readonly findings: number;
  /** CPU time of the spawned process (watch, the floor proxy, or the server directly) from the first timed answer to the last, ms. */
  readonly cpuMs: number;
}

/** `logFile`: the spawned process's standard error goes to that file (else to a pipe the client reads). */
function once(via: Via, tmp: string, clean = false, logFile?: string): Promise<Run> {
  const hashFile = join(tmp, `in-${via}-${clean}`);
  const argv =
    via === 'watch' || via === 'compare'
      ? [process.execPath, via === 'watch' ? join(ROOT, 'dist/cli.js') : COMPARE!, 'watch', '--', ...SERVER]
      : via === 'floor'
        ? [process.execPath, join(ROOT, 'bench/proxyFloor.js'), ...SERVER]
        : SERVER;
  const t0 = process.hrtime.bigint();
  const log = logFile === undefined ? undefined : openSync(logFile, 'w');
  const p = spawn(argv[0]!, argv.slice(1), {
    env: { ...process.env, BENCH_IN_HASH: hashFile, BENCH_CLEAN: clean ? '1' : '0' },
    stdio: ['pipe', 'pipe', log ?? 'pipe'],
  });
  if (log !== undefined) closeSync(log);
  const sentAt: bigint[] = [];
  const rtt: number[] = [];
  const got: Buffer[] = [];
  let pending = '';
  let findings = 0;
  let startupMs = NaN;
  let cpuFirst = 0,
    cpuLast = 0;
  let timed: () => void = () => {};
  const countFindings = (text: string) => (findings += text.split('runtime.unflagged-failure').length - 1);
  p.stderr?.on('data', (c: Buffer) => countFindings(c.toString('utf8')));
  p.stdout!.on('data', (c: Buffer) => {
    const now = process.hrtime.bigint();
    got.push(c);
    pending += c.toString('utf8');
    let nl;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const id = (JSON.parse(pending.slice(0, nl)) as { id: number | string }).id;
      pending = pending.slice(nl + 1);
      if (id === 'init') {
        startupMs = Number(now - t0) / 1e6;
        timed();
        continue;
      }
      rtt[id as number] = Number(now - sentAt[id as number]!) / 1e6;
      if (id === 0) cpuFirst = cpuOf(p.pid!);
      if (id === N - 1) cpuLast = cpuOf(p.pid!);
    }
  });
  return new Promise(done => {
    let i = 0;
    let start = 0n;
    const tick = () => {
      // Send every message whose time has come (1,000/s: one a millisecond, in order).
      const due = Math.min(N, Math.floor((Number(process.hrtime.bigint() - start) / 1e9) * RATE) + 1);
      for (; i < due; i++) {
        sentAt[i] = process.hrtime.bigint();
        p.stdin!.write(request(i));
      }
      if (i < N) setTimeout(tick, 1);
      else p.stdin!.end();
    };
    timed = () => {
      start = process.hrtime.bigint();
      tick();
    };
    p.on('close', () => {
      const server = JSON.parse(readFileSync(hashFile, 'utf8')) as { read: string; readyAt: string; firstByteAt: string };
      const firstByteMs = Number(BigInt(server.firstByteAt) - t0) / 1e6;
      if (logFile !== undefined) countFindings(readFileSync(logFile, 'utf8'));
      done({
        summary: summarizeRun({ firstByteMs, startupMs, rtt }, WARMUP),
        received: Buffer.concat(got),
        serverRead: server.read,
        findings,
        cpuMs: cpuLast - cpuFirst,
      });
    });
    p.stdin!.write(HANDSHAKE);
  });
}

/** Both proxy sections of bench/REPORT.md (stdio, then `--listen`), as `npm run bench` rewrites the report (bench/run.ts). */
export const proxyMarkdown = (): string => stdioMarkdown() + proxyHttpMarkdown();

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'mcp-aql-proxy-bench-'));
  try {
    let sent = HANDSHAKE;
    for (let i = 0; i < N; i++) sent += request(i);
    const sentHash = `${Buffer.byteLength(sent)} ${createHash('sha256').update(sent).digest('hex')}`;
    const load = () => loadavg().map(x => Math.round(x * 100) / 100);
    const before = load();
    const build = /\n\/\/# sourceMappingURL=/.test(readFileSync(join(ROOT, 'dist/cli.js'), 'utf8')) ? 'development' : 'production';
    await once('direct', tmp); // warm-up (disk cache, JIT of the client side)
    const all: Record<'direct' | 'floor' | 'watch' | 'watchToFile' | 'directClean' | 'watchClean', Run[]> & {
      compare?: Run[];
      compareClean?: Run[];
    } = {
      direct: [],
      floor: [],
      watch: [],
      watchToFile: [],
      directClean: [],
      watchClean: [],
      ...(COMPARE ? { compare: [], compareClean: [] } : {}),
    };
    for (let k = 0; k < RUNS; k++) {
      all.direct.push(await once('direct', tmp));
      all.floor.push(await once('floor', tmp));
      all.watch.push(await once('watch', tmp));
      all.watchToFile.push(await once('watch', tmp, false, join(tmp, 'watch.log')));
      all.directClean.push(await once('direct', tmp, true));
      all.watchClean.push(await once('watch', tmp, true));
      if (all.compare) {
        all.compare.push(await once('compare', tmp));
        all.compareClean!.push(await once('compare', tmp, true));
      }
      process.stderr.write(`run ${k + 1}/${RUNS}: load ${load().join(' ')}\n`);
    }
    const med = (runs: Run[]) => medianOfRuns(runs.map(x => x.summary));
    const cpuUs = (runs: Run[]) => Math.round((runs.map(x => x.cpuMs).sort((a, b) => a - b)[runs.length >> 1]! * 1000) / N);
    const direct = med(all.direct),
      floor = med(all.floor),
      watch = med(all.watch),
      watchToFile = med(all.watchToFile),
      directClean = med(all.directClean),
      watchClean = med(all.watchClean);
    const sameBytes = (a: Run[], b: Run[]) => a.every(x => b.every(y => x.received.equals(y.received)));
    const results: ProxyResults = {
      meta: { date: new Date().toISOString(), node: process.version, cpus: cpus().length, loadavg: before, loadavgAfter: load(), build },
      messages: N,
      rate: RATE,
      warmup: WARMUP,
      runs: RUNS,
      direct,
      floor: { ...floor, cpuPerMessageUs: cpuUs(all.floor) },
      watch: { ...watch, findings: all.watch[0]!.findings, cpuPerMessageUs: cpuUs(all.watch) },
      watchToFile: { ...watchToFile, findings: all.watchToFile[0]!.findings, cpuPerMessageUs: cpuUs(all.watchToFile) },
      directClean,
      watchClean: { ...watchClean, cpuPerMessageUs: cpuUs(all.watchClean) },
      added: {
        p50: round(watch.p50 - direct.p50),
        p99: round(watch.p99 - direct.p99),
        startupMs: round(watch.startupMs - direct.startupMs),
        firstByteMs: round(watch.firstByteMs - direct.firstByteMs),
      },
      addedToFile: { p50: round(watchToFile.p50 - direct.p50), p99: round(watchToFile.p99 - direct.p99) },
      addedClean: { p50: round(watchClean.p50 - directClean.p50), p99: round(watchClean.p99 - directClean.p99) },
      addedByFloor: {
        p50: round(floor.p50 - direct.p50),
        p99: round(floor.p99 - direct.p99),
        startupMs: round(floor.startupMs - direct.startupMs),
      },
      bytes: {
        clientReceivedEqual:
          sameBytes(all.watch, all.direct) &&
          sameBytes(all.watchToFile, all.direct) &&
          sameBytes(all.floor, all.direct) &&
          sameBytes(all.watchClean, all.directClean) &&
          sameBytes(all.compare ?? [], all.direct) &&
          sameBytes(all.compareClean ?? [], all.directClean),
        received: all.watch[0]!.received.length,
        serverReadEqual: Object.values(all).every(runs => runs.every(x => x.serverRead === sentHash)),
        sent: Buffer.byteLength(sent),
      },
    };
    if (all.compare && all.compareClean) {
      const other = med(all.compare),
        otherClean = med(all.compareClean);
      results.compare = {
        cli: COMPARE!,
        watch: { ...other, findings: all.compare[0]!.findings, cpuPerMessageUs: cpuUs(all.compare) },
        watchClean: { ...otherClean, cpuPerMessageUs: cpuUs(all.compareClean) },
        added: { p50: round(other.p50 - direct.p50), p99: round(other.p99 - direct.p99) },
        addedClean: { p50: round(otherClean.p50 - directClean.p50), p99: round(otherClean.p99 - directClean.p99) },
      };
    }
    if (!DRY) {
      writeFileSync(RESULTS, JSON.stringify(results, null, 2) + '\n');
      writeDocs();
    }
    process.stdout.write(JSON.stringify(results, null, 2) + '\n');
    if (!results.bytes.clientReceivedEqual || !results.bytes.serverReadEqual) process.exitCode = 1;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

const FLAGS = ['--dry'];
/** Options with a value: a count, or (`--compare=`) a path. */
const VALUED = ['--messages=', '--rate=', '--warmup=', '--runs=', '--compare='];

/** `--help`, or an option the bench does not take (a typo must not start a run that rewrites the results): what to print, and the exit code. */
export const usageProblem = (argv: readonly string[]): UsageProblem | undefined =>
  usageOf(
    __filename,
    argv,
    a =>
      FLAGS.includes(a) ||
      VALUED.some(v => a.startsWith(v) && (v === '--compare=' ? a.length > v.length : /^[1-9]\d*$/.test(a.slice(v.length)))),
  );

if (require.main === module) runUnless(usageProblem(process.argv.slice(2)), main);
