/**
 * The latency `watch --listen 127.0.0.1:PORT --url <upstream>` adds, the Streamable HTTP reverse proxy: the stdio
 * bench's twin (bench/proxyBench.ts). A client POSTs `tools/call` requests at R messages/s to a server on 127.0.0.1
 * that answers each at once (bench/proxyHttpAnswerServer.js; an ephemeral port): directly, through a bare Node HTTP
 * reverse proxy (bench/proxyHttpFloor.js: the floor for any such proxy in Node) and through `node dist/cli.js watch
 * --listen 127.0.0.1:0 --url …`. The answers come as a JSON body, or (the SSE variant) as a one-event
 * `text/event-stream`. Every process listens on loopback only; the client keeps its connections alive (one Agent a
 * run, at most 64 sockets: a new one opens only while the others wait). Each run spawns its server and proxy
 * afresh, then does a handshake (`initialize` → its answer): start-up is timed apart (spawn → listening, spawn →
 * the answer through that process), and the N timed messages start after it. Round trips are per message (the
 * request sent → the response's last byte); the first W (the warm-up) are reported apart, the percentiles are over
 * the rest (bench/proxyStats.ts). Every variant runs K times, interleaved, and each figure is the median of the K
 * runs. Each answer reads "Error: …" with isError false, so watch writes a finding line for each (its worst case);
 * the clean variant answers without one. Transparency: the status, content type and body of every response through
 * each proxy equal the direct ones (SHA-256 in id order), and the server read exactly what the client sent (each
 * request's `Mcp-Session-Id` and body, SHA-256 in id order). Each run is bounded: N / R seconds plus 30. Writes
 * bench/proxy-http-results.json and its section of bench/REPORT.md (bench/proxyHttpMarkdown.ts).
 *
 * `watch`'s standard error (its finding lines) goes to a pipe the client reads, as the stdio bench's does: the client
 * reads each chunk once, counting the finding lines as they come (it looked for the port in all of standard error so
 * far on every chunk, work that grew with the run and delayed the answers it timestamped).
 *
 *   npm run bench:proxy-http    (the production build, as shipped)
 *   node --import tsx bench/proxyHttpBench.ts [--messages=5000] [--rate=1000] [--warmup=1000] [--runs=5] [--compare=other/dist/cli.js] [--dry]
 *
 * `--dry`: print the results, write neither bench/proxy-http-results.json nor the report. `--compare`: another build
 * of the CLI (main's, say) runs as three more variants in the same interleaving (JSON with a finding each, JSON
 * clean, SSE), reported under `compare`.
 *
 * On a machine shared with other sessions, run it as `chrt -r 1 npm run bench:proxy-http` (Linux, root): the client,
 * the servers and the proxies (every thread of theirs, `watch`'s judge included, which then no longer runs below its
 * forwarding thread: a cost to `watch`, not a help) take a core from other sessions' work when they wake, instead of
 * waiting out its time slice (a millisecond or more; neither nice values nor the session's autogroup nice change that). The
 * policy is recorded in the results (`meta.scheduling`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, get, request as httpRequest } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { cpuOf } from './procCpu';
import { HTTP_RESULTS, writeHttpDocs, type ProxyHttpResults } from './proxyHttpMarkdown';
import { medianOfRuns, round, summarizeRun, type RunSummary } from './proxyStats';
import { runUnless, usageOf, type UsageProblem } from './usage';

const ROOT = join(__dirname, '..');

export interface HttpBenchOptions {
  readonly messages: number;
  readonly rate: number;
  readonly warmup: number;
  readonly runs: number;
  readonly dry: boolean;
  /** Another build's dist/cli.js, run as more variants. */
  readonly compare?: string;
}

const COUNTS = ['messages', 'rate', 'warmup', 'runs'] as const;
const DEFAULTS: HttpBenchOptions = { messages: 5000, rate: 1000, warmup: 1000, runs: 5, dry: false };

/** `--help`, or an option the bench does not take (a typo must not start a run that rewrites the results). */
export const usageProblem = (argv: readonly string[]): UsageProblem | undefined =>
  usageOf(
    __filename,
    argv,
    a => a === '--dry' || /^--compare=./.test(a) || COUNTS.some(c => a.startsWith(`--${c}=`) && /^[1-9]\d*$/.test(a.slice(c.length + 3))),
  );

/** The options of a command line `usageProblem` accepted; a warm-up must leave messages to measure. */
export function readOptions(argv: readonly string[]): HttpBenchOptions {
  const count = (name: (typeof COUNTS)[number]) => {
    const a = argv.find(x => x.startsWith(`--${name}=`));
    return a === undefined ? DEFAULTS[name] : Number(a.slice(name.length + 3));
  };
  const compare = argv.find(x => x.startsWith('--compare='))?.slice('--compare='.length);
  const o = {
    messages: count('messages'),
    rate: count('rate'),
    warmup: count('warmup'),
    runs: count('runs'),
    dry: argv.includes('--dry'),
    ...(compare === undefined ? {} : { compare }),
  };
  if (o.warmup >= o.messages) throw new Error(`--warmup (${o.warmup}) must be less than --messages (${o.messages})`);
  return o;
}

type Via = 'direct' | 'floor' | 'watch' | 'compare';
type Mode = 'json' | 'sse';

const SESSION = 'bench-session';
const body = (id: number | string) =>
  typeof id === 'string'
    ? `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"initialize","params":{}}`
    : `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"get_item","arguments":{"id":"item-${id}"}}}`;

/** What the server's `/stats` reads when it got exactly what the client sent (see bench/proxyHttpAnswerServer.js). */
function expectedServerRead(n: number): string {
  const ids: (number | string)[] = ['init', ...Array.from({ length: n }, (_, i) => i)];
  const each = new Map(
    ids.map(id => [JSON.stringify(id), createHash('sha256').update(`${SESSION}\n`).update(body(id)).digest('hex')] as const),
  );
  const all = createHash('sha256');
  for (const id of [...each.keys()].sort()) all.update(`${id} ${each.get(id)}\n`);
  const bytes = ids.reduce<number>((s, id) => s + Buffer.byteLength(body(id)), 0);
  return `${ids.length} ${bytes} ${all.digest('hex')}`;
}

interface Run {
  readonly summary: RunSummary;
  /** SHA-256 of every response (status, content type, body), in id order. */
  readonly responses: string;
  readonly received: number;
  readonly serverRead: string;
  readonly findings: number;
  /**
   * CPU time of the proxy (or, directly, the server) over the steady state, as the percentiles: from the answer
   * that ends the warm-up to the last, ms (from the first answer, it held `watch`'s judge loading, once).
   */
  readonly cpuMs: number;
}

interface Listening {
  readonly p: ChildProcess;
  readonly port: number;
  readonly t0: bigint;
  readonly readyAt: bigint;
  /** Finding lines on its standard error so far. */
  readonly findings: () => number;
}

/**
 * Spawn a process that announces its port (on stdout, or `watch`'s "at http://127.0.0.1:PORT" on stderr). Once it
 * listens, each chunk of standard error is read once: its finding lines counted (a line cut between two chunks is
 * counted with the second), nothing kept.
 */
function spawnListening(argv: string[], env: NodeJS.ProcessEnv, from: 'stdout' | 'stderr'): Promise<Listening> {
  const t0 = process.hrtime.bigint();
  const p = spawn(argv[0]!, argv.slice(1), { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '',
    err = '',
    listening = false,
    partial = '',
    findings = 0;
  const count = (text: string) => {
    const s = partial + text;
    const nl = s.lastIndexOf('\n');
    findings += s.slice(0, nl + 1).split('runtime.unflagged-failure').length - 1;
    partial = s.slice(nl + 1);
  };
  return new Promise((resolve, reject) => {
    const look = () => {
      const m = from === 'stdout' ? /^(\d+)\n/.exec(out) : /at http:\/\/127\.0\.0\.1:(\d+)/.exec(err);
      if (!m) return;
      listening = true;
      count(err);
      out = err = '';
      resolve({ p, port: Number(m[1]), t0, readyAt: process.hrtime.bigint(), findings: () => findings });
    };
    p.stdout!.on('data', (c: Buffer) => {
      if (listening) return;
      out += c.toString('utf8');
      look();
    });
    p.stderr!.on('data', (c: Buffer) => {
      if (listening) return count(c.toString('utf8'));
      err += c.toString('utf8');
      look();
    });
    p.on('exit', code => reject(new Error(`${argv.slice(1).join(' ')} exited (${code}) before listening: ${err}`)));
  });
}

function stop(p: ChildProcess): Promise<void> {
  return new Promise(done => {
    if (p.exitCode !== null || p.signalCode !== null) return done();
    p.on('close', () => done());
    p.kill('SIGTERM');
  });
}

interface Answer {
  readonly text: string;
  readonly at: bigint;
}

function post(agent: Agent, port: number, path: string, id: number | string): Promise<Answer> {
  const b = body(id);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(b),
          'mcp-session-id': SESSION,
          'mcp-protocol-version': '2025-06-18',
        },
      },
      res => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            text: `${res.statusCode} ${res.headers['content-type']} ${res.headers['mcp-session-id']}\n${Buffer.concat(chunks).toString('utf8')}`,
            at: process.hrtime.bigint(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(b);
  });
}

function stats(port: number): Promise<string> {
  return new Promise((resolve, reject) =>
    get({ host: '127.0.0.1', port, path: '/stats', agent: false }, res => {
      let s = '';
      res.on('data', (c: Buffer) => (s += c.toString('utf8')));
      res.on('end', () => resolve((JSON.parse(s) as { read: string }).read));
    }).on('error', reject),
  );
}

async function once(o: HttpBenchOptions, via: Via, mode: Mode, clean = false): Promise<Run> {
  const server = await spawnListening(
    [process.execPath, join(ROOT, 'bench/proxyHttpAnswerServer.js')],
    { BENCH_CLEAN: clean ? '1' : '0' },
    'stdout',
  );
  const upstream = `http://127.0.0.1:${server.port}/${mode}`;
  const proxy =
    via === 'watch' || via === 'compare'
      ? await spawnListening(
          [
            process.execPath,
            via === 'watch' ? join(ROOT, 'dist/cli.js') : o.compare!,
            'watch',
            '--listen',
            '127.0.0.1:0',
            '--url',
            upstream,
          ],
          {},
          'stderr',
        )
      : via === 'floor'
        ? await spawnListening([process.execPath, join(ROOT, 'bench/proxyHttpFloor.js'), upstream], {}, 'stdout')
        : undefined;
  const front = proxy ?? server;
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const path = `/${mode}`;
  const N = o.messages;
  try {
    const init = await post(agent, front.port, path, 'init');
    const rtt: number[] = new Array<number>(N);
    const texts: string[] = new Array<string>(N);
    let answered = 0,
      cpuFirst = 0,
      cpuLast = 0;
    const pid = front.p.pid!;
    await new Promise<void>((done, fail) => {
      const limit = setTimeout(() => fail(new Error(`${via} ${mode}: ${answered} of ${N} answered in time`)), (N / o.rate + 30) * 1000);
      const start = process.hrtime.bigint();
      let i = 0;
      const tick = () => {
        // Send every message whose time has come (1,000/s: one a millisecond, in order).
        const due = Math.min(N, Math.floor((Number(process.hrtime.bigint() - start) / 1e9) * o.rate) + 1);
        for (; i < due; i++) {
          const id = i;
          const sentAt = process.hrtime.bigint();
          post(agent, front.port, path, id).then(a => {
            rtt[id] = Number(a.at - sentAt) / 1e6;
            texts[id] = a.text;
            if (++answered === o.warmup) cpuFirst = cpuOf(pid);
            if (answered === N) {
              cpuLast = cpuOf(pid);
              clearTimeout(limit);
              done();
            }
          }, fail);
        }
        if (i < N) setTimeout(tick, 1);
      };
      tick();
    });
    const hash = createHash('sha256').update(init.text);
    for (const t of texts) hash.update(t);
    agent.destroy();
    const serverRead = await stats(server.port);
    if (proxy) await stop(proxy.p);
    return {
      summary: summarizeRun(
        { firstByteMs: Number(front.readyAt - front.t0) / 1e6, startupMs: Number(init.at - front.t0) / 1e6, rtt },
        o.warmup,
      ),
      responses: hash.digest('hex'),
      received: texts.reduce((s, t) => s + Buffer.byteLength(t), 0),
      serverRead,
      findings: proxy ? proxy.findings() : 0,
      cpuMs: cpuLast - cpuFirst,
    };
  } finally {
    agent.destroy();
    if (proxy) await stop(proxy.p);
    await stop(server.p);
  }
}

/** This process's scheduling policy (Linux, /proc/self/stat): 'other', or a real-time one with its priority ('rr 1'). */
function scheduling(): string | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const [priority, policy] = [Number(f[37]), Number(f[38])];
    return policy === 1 ? `fifo ${priority}` : policy === 2 ? `rr ${priority}` : 'other';
  } catch {
    return undefined;
  }
}

async function main(o: HttpBenchOptions): Promise<void> {
  const load = () => loadavg().map(x => Math.round(x * 100) / 100);
  const before = load();
  const build = /\n\/\/# sourceMappingURL=/.test(readFileSync(join(ROOT, 'dist/cli.js'), 'utf8')) ? 'development' : 'production';
  await once(o, 'direct', 'json'); // warm-up (disk cache, the client's JIT)
  const variants = {
    jsonDirect: () => once(o, 'direct', 'json'),
    jsonFloor: () => once(o, 'floor', 'json'),
    jsonWatch: () => once(o, 'watch', 'json'),
    jsonDirectClean: () => once(o, 'direct', 'json', true),
    jsonWatchClean: () => once(o, 'watch', 'json', true),
    sseDirect: () => once(o, 'direct', 'sse'),
    sseFloor: () => once(o, 'floor', 'sse'),
    sseWatch: () => once(o, 'watch', 'sse'),
    ...(o.compare === undefined
      ? {}
      : {
          jsonCompare: () => once(o, 'compare', 'json'),
          jsonCompareClean: () => once(o, 'compare', 'json', true),
          sseCompare: () => once(o, 'compare', 'sse'),
        }),
  };
  type Name = keyof typeof variants | 'jsonCompare' | 'jsonCompareClean' | 'sseCompare';
  const all = Object.fromEntries(Object.keys(variants).map(k => [k, [] as Run[]])) as Record<Name, Run[]>;
  for (let k = 0; k < o.runs; k++) {
    for (const [name, run] of Object.entries(variants) as [Name, () => Promise<Run>][]) all[name]!.push(await run());
    process.stderr.write(`run ${k + 1}/${o.runs}: load ${load().join(' ')}\n`);
  }
  const med = (name: Name) => medianOfRuns(all[name].map(x => x.summary));
  const cpuUs = (name: Name) => {
    const xs = all[name].map(x => x.cpuMs).sort((a, b) => a - b);
    return Math.round((xs[xs.length >> 1]! * 1000) / (o.messages - o.warmup));
  };
  const m = Object.fromEntries(Object.keys(variants).map(k => [k, med(k as Name)])) as Record<Name, RunSummary>;
  const diff = (a: RunSummary, b: RunSummary) => ({ p50: round(a.p50 - b.p50), p99: round(a.p99 - b.p99) });
  const same = (names: Name[]) => {
    const first = all[names[0]!][0]!.responses;
    return names.every(n => all[n].every(r => r.responses === first));
  };
  const expected = expectedServerRead(o.messages);
  const results: ProxyHttpResults = {
    meta: {
      date: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      loadavg: before,
      loadavgAfter: load(),
      build,
      ...(scheduling() === undefined ? {} : { scheduling: scheduling()! }),
    },
    messages: o.messages,
    rate: o.rate,
    warmup: o.warmup,
    runs: o.runs,
    json: {
      direct: m.jsonDirect,
      floor: { ...m.jsonFloor, cpuPerMessageUs: cpuUs('jsonFloor') },
      watch: { ...m.jsonWatch, findings: all.jsonWatch[0]!.findings, cpuPerMessageUs: cpuUs('jsonWatch') },
      directClean: m.jsonDirectClean,
      watchClean: { ...m.jsonWatchClean, findings: all.jsonWatchClean[0]!.findings, cpuPerMessageUs: cpuUs('jsonWatchClean') },
    },
    sse: {
      direct: m.sseDirect,
      floor: { ...m.sseFloor, cpuPerMessageUs: cpuUs('sseFloor') },
      watch: { ...m.sseWatch, findings: all.sseWatch[0]!.findings, cpuPerMessageUs: cpuUs('sseWatch') },
    },
    added: {
      json: diff(m.jsonWatch, m.jsonDirect),
      jsonClean: diff(m.jsonWatchClean, m.jsonDirectClean),
      sse: diff(m.sseWatch, m.sseDirect),
    },
    ...(o.compare === undefined
      ? {}
      : {
          compare: {
            cli: o.compare,
            json: { ...m.jsonCompare, findings: all.jsonCompare[0]!.findings, cpuPerMessageUs: cpuUs('jsonCompare') },
            jsonClean: { ...m.jsonCompareClean, findings: all.jsonCompareClean[0]!.findings, cpuPerMessageUs: cpuUs('jsonCompareClean') },
            sse: { ...m.sseCompare, findings: all.sseCompare[0]!.findings, cpuPerMessageUs: cpuUs('sseCompare') },
            added: {
              json: diff(m.jsonCompare, m.jsonDirect),
              jsonClean: diff(m.jsonCompareClean, m.jsonDirectClean),
              sse: diff(m.sseCompare, m.sseDirect),
            },
          },
        }),
    addedByFloor: { json: diff(m.jsonFloor, m.jsonDirect), sse: diff(m.sseFloor, m.sseDirect) },
    bytes: {
      responsesEqual:
        same(['jsonDirect', 'jsonFloor', 'jsonWatch', ...(o.compare === undefined ? [] : ['jsonCompare' as const])]) &&
        same(['jsonDirectClean', 'jsonWatchClean', ...(o.compare === undefined ? [] : ['jsonCompareClean' as const])]) &&
        same(['sseDirect', 'sseFloor', 'sseWatch', ...(o.compare === undefined ? [] : ['sseCompare' as const])]),
      received: { json: all.jsonWatch[0]!.received, sse: all.sseWatch[0]!.received },
      serverReadEqual: Object.values(all).every(runs => runs.every(r => r.serverRead === expected)),
      sent: Number(expected.split(' ')[1]),
    },
  };
  if (!o.dry) {
    writeFileSync(HTTP_RESULTS, JSON.stringify(results, null, 2) + '\n');
    writeHttpDocs();
  }
  process.stdout.write(JSON.stringify(results, null, 2) + '\n');
  if (!results.bytes.responsesEqual || !results.bytes.serverReadEqual) process.exitCode = 1;
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  runUnless(usageProblem(argv), async () => main(readOptions(argv)));
}
