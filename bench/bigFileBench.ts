/**
 * Big files (docs/performance.md, "Big files"): one generated adapter of 1 / 3.6 / 7 / 14.4 MiB checked with
 * `mcpAql.maxFileSize` at its 16 MiB ceiling, and one 200 MB document over the limit (the default), by the CLI
 * (`check --format json`, CPU user+sys of the process and its peak RSS) and by the language server over stdio
 * (didOpen → publishDiagnostics: the server's CPU over that span and its VmHWM after). Runs are interleaved
 * (each round runs every case once) and medians are written to bench/big-results.json; every run's
 * diagnostics are counted (2 for a generated adapter, 1 for the over-limit one), so a wrong answer shows.
 *
 *   npm run bench:big [-- --runs=3] [--sizes=1,3.6,7,14.4] [--no-over] [--compare=<another build's dist/>] [--dry]
 *     [--editor] [--server-only | --cli-only]
 *
 * `--editor`: the server runs with the editor's V8 flags (protocol.ts SERVER_EXEC_ARGV; its environment always is).
 *
 * `--compare`: every case is run by that build too, in the same rounds (its rows have `build: "compare"`).
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { answerAsEditor } from './answerAsEditor';
import { generate } from './gen';
import { SERVER_ENV, SERVER_EXEC_ARGV } from '../server/src/protocol';

const ROOT = join(__dirname, '..');
const WORK = join(ROOT, 'bench', 'work', 'big');
export const BIG_RESULTS = join(ROOT, 'bench', 'big-results.json');
const CEILING = 16 * 1024 * 1024;
/** Codes per MiB of bench/gen.ts's adapters (85,000 codes: 18.1 MiB; 67,500: 14.4 MiB). */
const CODES_PER_MIB = 4687.5;
const OVER_BYTES = 200 * 1000 * 1000;

const arg = (name: string) => process.argv.find(a => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const runs = Number(arg('runs') ?? 3);
const sizes = (arg('sizes') ?? '1,3.6,7,14.4').split(',').filter(Boolean).map(Number);
const over = !process.argv.includes('--no-over');
const dry = process.argv.includes('--dry');
const builds: [string, string][] = [
  ['this', join(ROOT, 'dist')],
  ...(arg('compare') ? [['compare', arg('compare')!] as [string, string]] : []),
];
/** Node options for every process measured (`--node-arg=--cpu-prof`, repeatable): to profile, not to measure. */
const nodeArgs = process.argv.filter(a => a.startsWith('--node-arg=')).map(a => a.slice('--node-arg='.length));
/** `--editor`: the server is started with the editor's V8 flags too (SERVER_EXEC_ARGV), as the client starts it. */
const serverArgs = process.argv.includes('--editor') ? [...SERVER_EXEC_ARGV, ...nodeArgs] : nodeArgs;
/** `--server-only` / `--cli-only`: one side of each case. */
const sides = (['cli', 'server'] as const).filter(s => !process.argv.includes(`--${s === 'cli' ? 'server' : 'cli'}-only`));

interface Sample {
  cpuS: number;
  rssMb: number;
  wallS: number;
  diagnostics: number;
}
interface Case {
  name: string;
  mib: number;
  codes?: number;
  file: string;
  want: number;
  /** Raise maxFileSize to the ceiling (a config file beside the file; settings for the server). */
  raised: boolean;
}

/** CPU of every thread of a process so far, in s (/proc/<pid>/task/<tid>/schedstat: ns on the CPU). */
function cpuS(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`))
    ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
  return ns / 1e9;
}
const vmHwmMb = (pid: number) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

function prepare(): Case[] {
  const cases: Case[] = [];
  for (const mib of sizes) {
    const codes = Math.round(mib * CODES_PER_MIB);
    const dir = join(WORK, `${mib}mib`);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'big.adapter.yaml');
    const text = generate(codes);
    writeFileSync(file, text);
    writeFileSync(join(dir, '.mcp-aql.yaml'), `maxFileSize: ${CEILING}\n`);
    cases.push({ name: `${mib} MiB`, mib: text.length / 1048576, codes, file, want: 2, raised: true });
  }
  if (over) {
    const dir = join(WORK, 'over');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'huge.adapter.yaml');
    const unit = Buffer.from(generate(20_000));
    const fd = openSync(file, 'w');
    for (let n = 0; n < OVER_BYTES; n += unit.length) writeSync(fd, unit);
    closeSync(fd);
    cases.push({
      name: 'over the limit (200 MB)',
      mib: (Math.ceil(OVER_BYTES / unit.length) * unit.length) / 1048576,
      file,
      want: 1,
      raised: false,
    });
  }
  return cases;
}

function runCli(c: Case, dist: string): Sample {
  const t0 = performance.now();
  const r = spawnSync(
    process.execPath,
    [...nodeArgs, '-r', join(ROOT, 'bench', 'rss.cjs'), join(dist, 'cli.js'), 'check', c.file, '--format', 'json'],
    {
      cwd: dirname(c.file),
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const wallS = (performance.now() - t0) / 1000;
  const m = /BENCH (\{.*\})/.exec(r.stderr);
  if (!m) throw new Error(`cli: no figures (status ${r.status}): ${r.stderr.slice(0, 500)}`);
  const b = JSON.parse(m[1]!) as { maxRssKb: number; cpuMs: number };
  const report = JSON.parse(r.stdout) as { diagnostics: unknown[] }[];
  return { cpuS: b.cpuMs / 1000, rssMb: b.maxRssKb / 1024, wallS, diagnostics: report.reduce((s, f) => s + f.diagnostics.length, 0) };
}

async function runServer(c: Case, dist: string): Promise<Sample> {
  const proc = spawn(process.execPath, [...serverArgs, join(dist, 'server.js'), '--stdio'], {
    stdio: ['pipe', 'pipe', 'ignore'],
    env: { ...process.env, ...SERVER_ENV }, // as the editor's client starts it
  });
  const conn = createProtocolConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
  const uri = pathToFileURL(c.file).href;
  const settings = c.raised ? { maxFileSize: CEILING } : {};
  let got: ((p: PublishDiagnosticsParams) => void) | undefined;
  conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    if (p.uri === uri && p.version === 1) got?.(p);
  });
  answerAsEditor(conn, settings);
  conn.listen();
  try {
    // No workspace folder: the server reads only the opened document (the workspace scan is first-diagnostics' bench).
    await conn.sendRequest('initialize', {
      processId: process.pid,
      rootUri: null,
      workspaceFolders: null,
      capabilities: { workspace: { configuration: true }, textDocument: { publishDiagnostics: {} } },
    });
    await conn.sendNotification('initialized', {});
    await new Promise(res => setTimeout(res, 300));
    const text = readFileSync(c.file, 'utf8');
    const diagnostics = new Promise<PublishDiagnosticsParams>(res => (got = res));
    const c0 = cpuS(proc.pid!);
    const t0 = performance.now();
    await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    const p = await diagnostics;
    const wallS = (performance.now() - t0) / 1000;
    return { cpuS: cpuS(proc.pid!) - c0, rssMb: vmHwmMb(proc.pid!), wallS, diagnostics: p.diagnostics.length };
  } finally {
    conn.dispose();
    proc.kill();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main(): Promise<void> {
  const cases = prepare();
  const samples = new Map<string, Sample[]>();
  const loads: number[] = [loadavg()[0]!];
  const wrong: string[] = [];
  for (let round = 0; round < runs; round++)
    for (const c of cases)
      for (const [build, dist] of builds)
        for (const side of sides) {
          const s = side === 'cli' ? runCli(c, dist) : await runServer(c, dist);
          loads.push(loadavg()[0]!);
          if (s.diagnostics !== c.want) wrong.push(`${build} ${side} ${c.name}: ${s.diagnostics} diagnostics, not ${c.want}`);
          const key = `${build}|${side}|${c.name}`;
          samples.set(key, [...(samples.get(key) ?? []), s]);
          console.log(
            `${build.padEnd(8)} ` +
              `${side.padEnd(6)} ${c.name.padEnd(24)} cpu ${s.cpuS.toFixed(2)} s  peak ${s.rssMb.toFixed(0)} MB  wall ${s.wallS.toFixed(2)} s  (${s.diagnostics} diagnostics)`,
          );
        }
  const rows = cases.flatMap(c =>
    builds.flatMap(([build]) =>
      sides.map(side => {
        const ss = samples.get(`${build}|${side}|${c.name}`)!;
        return {
          build,
          side,
          case: c.name,
          mib: Number(c.mib.toFixed(2)),
          codes: c.codes,
          cpuS: Number(median(ss.map(s => s.cpuS)).toFixed(2)),
          peakRssMb: Math.round(median(ss.map(s => s.rssMb))),
          wallS: Number(median(ss.map(s => s.wallS)).toFixed(2)),
          runs: ss.length,
        };
      }),
    ),
  );
  const result = {
    date: new Date().toISOString(),
    commit: spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim(),
    load: { min: Math.min(...loads), max: Math.max(...loads) },
    compare: arg('compare'),
    note: 'medians of interleaved runs; cpuS = user+sys of the CLI process / of the server from didOpen to its diagnostics; peak = maxRSS / VmHWM',
    rows,
    wrong,
  };
  console.table(rows);
  if (wrong.length) console.log('WRONG:', wrong);
  if (!dry) writeFileSync(BIG_RESULTS, JSON.stringify(result, null, 2) + '\n');
}

void main();
