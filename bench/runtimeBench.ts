/**
 * npm run bench:runtime: the run-time commands against their floors (docs/performance.md).
 *
 * - `probe` of a generated MCP server with 100 read-only tools that answers at once (bench/manyToolsServer.mjs), end
 *   to end: wall time, the probe process's CPU and peak RSS, the server's own CPU and life; beside it the same
 *   server driven by a bare client (initialize, tools/list, and as many calls as the probe sent, all at once):
 *   the server's own time, which the probe's is compared to.
 * - `verify <adapter> <transcript.jsonl>` and `infer <transcript.jsonl>` over a generated transcript (the example
 *   server's recorded traffic, examples/server, repeated with fresh ids up to --transcript-mb, default 1,024 MiB, in a
 *   temporary folder deleted after; the free disk is checked first and the size halved until it fits with room to
 *   spare, with a note): CPU, peak RSS and wall time of each against a plain Node JSON Lines read (readline +
 *   JSON.parse, bench/jsonLinesFloor.mjs). A command that fails (a transcript larger than a string can hold) is
 *   recorded with its error, and then also run on a transcript of --small-mb (default 128 MiB).
 *
 * Each round runs every command once (interleaved, so a change in the machine's load hits all alike); figures are the
 * medians over the rounds. Options: --probe-runs=N (default 5), --runs=N transcript rounds (default 3),
 * --tools=N (default 100), --transcript-mb=N, --small-mb=N, --dry (print, write nothing). Writes
 * bench/runtime-results.json and its section of bench/REPORT.md. `watch`'s HTTP figure is `npm run bench:proxy-http`.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './linearity';
import { publish, savedSection } from './reportSection';
import { runNode, type ProcessRun } from './spectralBench';
import { runUnless, usageOf, type UsageProblem } from './usage';

const ROOT = join(__dirname, '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const RESULTS = join(ROOT, 'bench', 'runtime-results.json');
const REPORT = join(ROOT, 'bench', 'REPORT.md');
const SERVER = join(ROOT, 'bench', 'manyToolsServer.mjs');
const MIB = 1024 * 1024;

export interface RuntimeOptions {
  probeRuns: number;
  runs: number;
  tools: number;
  transcriptMb: number;
  smallMb: number;
  dry: boolean;
}

const DEFAULTS = { 'probe-runs': 5, runs: 3, tools: 100, 'transcript-mb': 1024, 'small-mb': 128 } as const;
type Count = keyof typeof DEFAULTS;
const COUNTS = Object.keys(DEFAULTS) as Count[];

export const usageProblem = (argv: readonly string[]): UsageProblem | undefined =>
  usageOf(__filename, argv, a => a === '--dry' || COUNTS.some(c => a.startsWith(`--${c}=`) && /^[1-9]\d*$/.test(a.slice(c.length + 3))));

/** The options of a command line `usageProblem` accepted. */
export function readOptions(argv: readonly string[]): RuntimeOptions {
  const count = (name: Count) => {
    const a = argv.find(x => x.startsWith(`--${name}=`));
    return a === undefined ? DEFAULTS[name] : Number(a.slice(name.length + 3));
  };
  const o = {
    probeRuns: count('probe-runs'),
    runs: count('runs'),
    tools: count('tools'),
    transcriptMb: count('transcript-mb'),
    smallMb: count('small-mb'),
    dry: argv.includes('--dry'),
  };
  if (o.smallMb > o.transcriptMb) throw new Error(`--small-mb (${o.smallMb}) must not exceed --transcript-mb (${o.transcriptMb})`);
  return o;
}

/** The size the transcript can have on a disk with `freeBytes` free: halved until it takes at most a third of it. */
export function fittingMb(wantedMb: number, freeBytes: number): number {
  let mb = wantedMb;
  while (mb > 1 && mb * MIB * 3 > freeBytes) mb = Math.floor(mb / 2);
  return mb;
}

interface Run {
  wallMs: number;
  cpuMs: number;
  rssMb: number;
}
const med = (rs: Run[]): Run => ({
  wallMs: median(rs.map(r => r.wallMs)),
  cpuMs: median(rs.map(r => r.cpuMs)),
  rssMb: median(rs.map(r => r.rssMb)),
});
const brief = (r: ProcessRun): Run => ({ wallMs: r.wallMs, cpuMs: r.cpuMs, rssMb: r.maxRssMb });

/** Read the server's stats lines (bench/manyToolsServer.mjs) written since `from` lines. */
function serverStats(file: string): { cpuMs: number; lifeMs: number; maxRssKb: number }[] {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map(l => JSON.parse(l) as { cpuMs: number; lifeMs: number; maxRssKb: number });
  } catch {
    return [];
  }
}

/** The server driven by a bare client: initialize, tools/list, then `calls` calls sent at once; wall to the last answer. */
function bareClient(tools: number, calls: number, statsFile: string): Promise<{ wallMs: number; answers: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const p = spawn(process.execPath, [SERVER, String(tools)], {
      stdio: ['pipe', 'pipe', 'ignore'],
      env: { ...process.env, BENCH_SERVER_STATS: statsFile },
    });
    const send = (m: object) => p.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
    let buf = '',
      answers = 0,
      listed = false,
      wallMs = NaN;
    const want = 2 + calls;
    p.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (!line.trim()) continue;
        const m = JSON.parse(line) as { id?: number };
        if (m.id === undefined) continue;
        answers++;
        if (m.id === 0) {
          send({ method: 'notifications/initialized' });
          send({ id: 1, method: 'tools/list', params: {} });
        } else if (m.id === 1 && !listed) {
          listed = true;
          // The probe's three calls a tool (a required parameter missing, one of the wrong type, an id that cannot exist).
          for (let i = 0; i < calls; i++) {
            const t = `tool_${String(Math.floor(i / 3) % tools).padStart(3, '0')}`;
            const args = i % 3 === 0 ? {} : i % 3 === 1 ? { id: 1 } : { id: 'missing', path: 'missing' };
            send({ id: 2 + i, method: 'tools/call', params: { name: t, arguments: args } });
          }
        }
        if (answers === want) {
          wallMs = performance.now() - t0;
          p.stdin.end();
        }
      }
    });
    p.on('error', reject);
    p.on('close', () => resolve({ wallMs, answers }));
    send({
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '0' } },
    });
  });
}

interface ProbeRound {
  load: number;
  probe: Run;
  server: { cpuMs: number; lifeMs: number };
  bare: { wallMs: number; cpuMs: number };
  sent: string;
}

async function probeRound(o: RuntimeOptions, dir: string, k: number): Promise<ProbeRound> {
  const load = loadavg()[0]!;
  const stats = join(dir, `probe-server-${k}.jsonl`);
  const r = await runNode([CLI, 'probe', '--format', 'json', '--', process.execPath, SERVER, String(o.tools)], ROOT, {
    ...process.env,
    BENCH_SERVER_STATS: stats,
  });
  if (r.exit === 2) throw new Error(`probe exited 2: ${r.stdout.slice(0, 300)}`);
  const s = serverStats(stats)[0] ?? { cpuMs: NaN, lifeMs: NaN };
  // The probe's own summary: "301 of 301 calls sent, to 100 of 100 listed tools".
  const sent = /(\d+ of \d+ calls sent, to \d+ of \d+ listed tools)/.exec(r.stderr)?.[1] ?? `no summary: ${r.stderr.slice(0, 200)}`;
  const bareStats = join(dir, `bare-server-${k}.jsonl`);
  const bare = await bareClient(o.tools, 3 * o.tools + 1, bareStats);
  const b = serverStats(bareStats)[0] ?? { cpuMs: NaN };
  if (bare.answers !== 3 * o.tools + 3) throw new Error(`the bare client got ${bare.answers} answers`);
  return {
    load,
    probe: brief(r),
    server: { cpuMs: s.cpuMs, lifeMs: s.lifeMs },
    bare: { wallMs: bare.wallMs, cpuMs: b.cpuMs },
    sent,
  };
}

/** The example server's traffic, recorded by `probe --record` (a dozen requests and answers, failures and successes). */
async function recordedLines(dir: string): Promise<string[]> {
  const rec = join(dir, 'recorded.jsonl');
  const r = await runNode([
    CLI,
    'probe',
    '--contract',
    join(ROOT, 'examples/server/notes.adapter.yaml'),
    '--record',
    rec,
    '--',
    process.execPath,
    join(ROOT, 'examples/server/server.mjs'),
  ]);
  if (r.exit === 2) throw new Error('probe --record of the example server failed');
  return readFileSync(rec, 'utf8').split('\n').filter(Boolean);
}

/** Write a transcript of about `mb` MiB: the recorded lines again and again, each pass with fresh ids. Returns records. */
export function writeTranscript(file: string, lines: readonly string[], mb: number): { records: number; bytes: number } {
  const MARK = '@@bench-id@@';
  const parts = lines.map(l => {
    const m = JSON.parse(l) as { id?: number };
    if (typeof m.id !== 'number') return { pre: l, post: undefined, id: 0 };
    const [pre, post] = JSON.stringify({ ...m, id: MARK }).split(`"${MARK}"`);
    return { pre: pre!, post: post!, id: m.id };
  });
  const stride = Math.max(...parts.map(p => p.id)) + 1;
  const fd = openSync(file, 'w');
  let bytes = 0,
    records = 0,
    chunk: string[] = [],
    chunkChars = 0;
  try {
    for (let pass = 0; bytes + chunkChars < mb * MIB; pass++) {
      for (const p of parts) {
        const line = p.post === undefined ? p.pre : `${p.pre}${pass * stride + p.id}${p.post}`;
        chunk.push(line);
        chunkChars += line.length + 1;
        records++;
      }
      if (chunkChars >= 8 * MIB) {
        bytes += writeSync(fd, chunk.join('\n') + '\n');
        chunk = [];
        chunkChars = 0;
      }
    }
    if (chunk.length) bytes += writeSync(fd, chunk.join('\n') + '\n');
  } finally {
    closeSync(fd);
  }
  return { records, bytes };
}

interface TranscriptRound {
  load: number;
  floor: Run;
  verify: Run & { exit: number; findings: number };
  infer: Run & { exit: number; error?: string };
}

async function transcriptRound(file: string, out: string): Promise<TranscriptRound> {
  const load = loadavg()[0]!;
  const floor = await runNode([join(ROOT, 'bench', 'jsonLinesFloor.mjs'), file]);
  const v = await runNode([CLI, 'verify', join(ROOT, 'examples/server/notes.adapter.yaml'), file, '--format', 'json']);
  let findings = -1;
  try {
    findings = (JSON.parse(v.stdout) as { diagnostics: unknown[] }[]).reduce((s, f) => s + f.diagnostics.length, 0);
  } catch {
    /* not JSON: the exit code says why */
  }
  const i = await runNode([CLI, 'infer', file, '-o', out]);
  return {
    load,
    floor: brief(floor),
    verify: { ...brief(v), exit: v.exit, findings },
    infer: { ...brief(i), exit: i.exit, ...(i.exit === 0 ? {} : { error: i.stderr.trim().slice(0, 300) }) },
  };
}

export interface TranscriptSet {
  mb: number;
  bytes: number;
  records: number;
  rounds: TranscriptRound[];
  floor: Run;
  verify: Run;
  infer: Run | undefined;
  inferError?: string;
}

export interface RuntimeResults {
  date: string;
  options: RuntimeOptions;
  note?: string;
  probe: {
    rounds: ProbeRound[];
    wallMs: number;
    cpuMs: number;
    rssMb: number;
    serverCpuMs: number;
    serverLifeMs: number;
    bareWallMs: number;
  };
  transcripts: TranscriptSet[];
}

async function transcriptSet(dir: string, lines: string[], mb: number, runs: number): Promise<TranscriptSet> {
  const file = join(dir, `transcript-${mb}.jsonl`);
  const { records, bytes } = writeTranscript(file, lines, mb);
  const rounds: TranscriptRound[] = [];
  try {
    for (let k = 0; k < runs; k++) {
      const r = await transcriptRound(file, join(dir, 'inferred.adapter.yaml'));
      rounds.push(r);
      process.stdout.write(
        `transcript ${mb} MiB, round ${k + 1} (load ${r.load.toFixed(1)}): floor ${(r.floor.cpuMs / 1000).toFixed(1)} s CPU ${r.floor.rssMb.toFixed(0)} MB | verify ${(r.verify.cpuMs / 1000).toFixed(1)} s CPU ${r.verify.rssMb.toFixed(0)} MB exit ${r.verify.exit} | infer ${(r.infer.cpuMs / 1000).toFixed(1)} s CPU ${r.infer.rssMb.toFixed(0)} MB exit ${r.infer.exit}${r.infer.error ? ` (${r.infer.error.split('\n')[0]})` : ''}\n`,
      );
    }
  } finally {
    rmSync(file, { force: true });
  }
  const ok = rounds.filter(r => r.infer.exit === 0);
  return {
    mb,
    bytes,
    records,
    rounds,
    floor: med(rounds.map(r => r.floor)),
    verify: med(rounds.map(r => r.verify)),
    infer: ok.length ? med(ok.map(r => r.infer)) : undefined,
    ...(ok.length < rounds.length ? { inferError: rounds.find(r => r.infer.error)?.infer.error ?? 'failed' } : {}),
  };
}

export async function main(o: RuntimeOptions): Promise<RuntimeResults> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-aql-runtime-bench-'));
  try {
    const rounds: ProbeRound[] = [];
    for (let k = 0; k < o.probeRuns; k++) {
      const r = await probeRound(o, dir, k);
      rounds.push(r);
      process.stdout.write(
        `probe of ${o.tools} tools, run ${k + 1} (load ${r.load.toFixed(1)}): ${(r.probe.wallMs / 1000).toFixed(2)} s wall, ${(r.probe.cpuMs / 1000).toFixed(2)} s CPU, ${r.probe.rssMb.toFixed(0)} MB; server ${(r.server.cpuMs / 1000).toFixed(2)} s CPU; bare client ${(r.bare.wallMs / 1000).toFixed(2)} s wall; ${r.sent}\n`,
      );
    }
    const probe = {
      rounds,
      wallMs: median(rounds.map(r => r.probe.wallMs)),
      cpuMs: median(rounds.map(r => r.probe.cpuMs)),
      rssMb: median(rounds.map(r => r.probe.rssMb)),
      serverCpuMs: median(rounds.map(r => r.server.cpuMs)),
      serverLifeMs: median(rounds.map(r => r.server.lifeMs)),
      bareWallMs: median(rounds.map(r => r.bare.wallMs)),
    };
    const free = statfsSync(dir).bavail * statfsSync(dir).bsize;
    const mb = fittingMb(o.transcriptMb, free);
    const note =
      mb < o.transcriptMb
        ? `${(free / MIB / 1024).toFixed(1)} GiB free in ${tmpdir()}: the transcript is ${mb} MiB, not ${o.transcriptMb}`
        : undefined;
    const lines = await recordedLines(dir);
    const transcripts = [await transcriptSet(dir, lines, mb, o.runs)];
    if (transcripts[0]!.inferError && o.smallMb < mb) transcripts.push(await transcriptSet(dir, lines, o.smallMb, o.runs));
    return { date: new Date().toISOString(), options: o, ...(note ? { note } : {}), probe, transcripts };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const s2 = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const x = (a: number, b: number) => `${(a / b).toFixed(2)} ×`;

/** The section of bench/REPORT.md. */
export function runtimeMarkdown(r: RuntimeResults): string {
  const p = r.probe;
  const loads = (xs: number[]) => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;
  const rows = r.transcripts.flatMap(t => [
    `| ${t.mb} MiB (${t.records} records) | the floor (readline + JSON.parse) | ${s2(t.floor.cpuMs)} | ${t.floor.rssMb.toFixed(0)} MB | ${s2(t.floor.wallMs)} | 1 × |`,
    `| | \`verify\` | ${s2(t.verify.cpuMs)} | ${t.verify.rssMb.toFixed(0)} MB | ${s2(t.verify.wallMs)} | ${x(t.verify.cpuMs, t.floor.cpuMs)} |`,
    t.infer
      ? `| | \`infer\` | ${s2(t.infer.cpuMs)} | ${t.infer.rssMb.toFixed(0)} MB | ${s2(t.infer.wallMs)} | ${x(t.infer.cpuMs, t.floor.cpuMs)} |`
      : `| | \`infer\` | failed: ${(t.inferError ?? '').split('\n')[0]!.replace(/\|/g, '\\|')} | | | |`,
  ]);
  return [
    '## The run-time commands (`npm run bench:runtime`)',
    '',
    `${r.date.slice(0, 16).replace('T', ' ')} UTC. ${r.note ? `${r.note}. ` : ''}Medians of interleaved runs; CPU and peak RSS of the command's own process (all its threads).`,
    '',
    `**\`probe\` of a server with ${r.options.tools} tools** (bench/manyToolsServer.mjs, answering at once; ${p.rounds.length} runs, load ${loads(p.rounds.map(x => x.load))}; ${p.rounds[0]?.sent}): ${s2(p.wallMs)} wall end to end, the probe's process ${s2(p.cpuMs)} of CPU and ${p.rssMb.toFixed(0)} MB; the server ${s2(p.serverCpuMs)} of CPU over a life of ${s2(p.serverLifeMs)}. A bare client sending the same number of calls at once to the same server gets every answer ${s2(p.bareWallMs)} after starting it: the probe takes ${s2(p.wallMs - p.bareWallMs)} beyond the server's own time (target ≤ 10 s).`,
    '',
    `**\`verify\` and \`infer\` over a transcript** (the example server's recorded traffic repeated with fresh ids; \`verify examples/server/notes.adapter.yaml <t> --format json\`, \`infer <t> -o …\`; ${r.options.runs} rounds, load ${loads(r.transcripts.flatMap(t => t.rounds.map(x => x.load)))}):`,
    '',
    '| transcript | command | CPU | peak RSS | wall | CPU ÷ the floor |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

/** The section from bench/runtime-results.json, or '' without it. */
export const runtimeSection = (): string => savedSection<RuntimeResults>(RESULTS, runtimeMarkdown);

async function run(o: RuntimeOptions): Promise<void> {
  const r = await main(o);
  publish(r, runtimeMarkdown(r), { results: RESULTS, report: REPORT }, o.dry);
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  runUnless(usageProblem(argv), () => run(readOptions(argv)));
}
