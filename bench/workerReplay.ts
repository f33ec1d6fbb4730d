/**
 * node --import tsx bench/workerReplay.ts --ws=<folder> <worker script>…: what one worker thread of `check` costs, apart
 * from the rest of the run. A `check --jobs 2` of the folder (with the first script's dist/cli.js beside it, or
 * --cli=<dist/cli.js>) is run once with a preload that records every message the main thread posts to its worker; then,
 * in rounds, each script in turn is started as that worker in this process and given the same messages, one after
 * the other, and its CPU is read from /proc/self/task: the worker's own thread, and the worker with V8's helper
 * threads (its TurboFan compiles: this process's main thread only waits). The same work for every script, no main
 * thread's share and no report to print, so a few milliseconds show that a whole run's spread hides
 * (bench/NOTES.md, "the worker's fixed cost"). Options: --rounds=N (default 10), --curve (one round of the first
 * script, batch by batch: its warm-up), --flags=<flag>[,<flag>…] (repeatable: one more variant, the first script with
 * these V8 flags set by `v8.setFlagsFromString` before its worker is made, as the CLI's entry would; flags are the
 * process's, so with --flags every variant, the plain ones too, replays in a process of its own: "eleventh sitting"),
 * --save=<file> (record the messages into that file and stop: `node --trace-opt --trace-deopt --import tsx
 * bench/workerReplay.ts --one <file> <script>` then replays them once under whatever flags node is given, the trace on
 * standard output before the one line of figures: "twelfth sitting").
 * A script is a check worker bundle (dist/check-worker.js) or a dist/cli.js that is its own worker (builds before
 * dist/check-worker.js). Linux only; prints, writes nothing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { deserialize, serialize, setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { median } from './linearity';
import { runUnless, usageOf, type UsageProblem } from './usage';

const positive = (s: string) => /^[1-9]\d*$/.test(s);
export function usageProblem(argv: readonly string[]): UsageProblem | undefined {
  const problem = usageOf(
    __filename,
    argv,
    a =>
      a === '--curve' ||
      (a.startsWith('--flags=') &&
        a
          .slice(8)
          .split(',')
          .every(f => /^--[a-z0-9-]+(=\S+)?$/.test(f))) ||
      (a.startsWith('--ws=') && existsSync(a.slice(5))) ||
      (a.startsWith('--save=') && a.length > 7) ||
      (a.startsWith('--cli=') && existsSync(a.slice(6))) ||
      (a.startsWith('--rounds=') && positive(a.slice(9))) ||
      (!a.startsWith('-') && existsSync(a)),
  );
  if (problem) return problem;
  if (!argv.some(a => a.startsWith('--ws=')) || !argv.some(a => !a.startsWith('-')))
    return { text: 'bench/workerReplay.ts: --ws=<folder> and at least one worker script (--help)\n', code: 2 };
  return undefined;
}

/** The messages the main thread of `check --jobs 2` posts to its one worker, recorded by a preload. */
function record(cli: string, ws: string): unknown[] {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-aql-worker-replay-'));
  try {
    const preload = join(dir, 'record.cjs');
    const out = join(dir, 'messages.bin');
    writeFileSync(
      preload,
      `const wt = require('node:worker_threads');
if (wt.isMainThread) {
  const msgs = [];
  const post = wt.Worker.prototype.postMessage;
  wt.Worker.prototype.postMessage = function (m, ...r) { msgs.push(m); return post.call(this, m, ...r); };
  process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, require('node:v8').serialize(msgs)));
}
`,
    );
    const r = spawnSync(process.execPath, ['-r', preload, cli, 'check', ws, '--jobs', '2', '--format', 'json'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (r.status !== 0 && r.status !== 1) throw new Error(`check ${ws} exited ${r.status}`);
    return deserialize(readFileSync(out)) as unknown[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const tasks = () => new Set(readdirSync('/proc/self/task'));
/** A thread's CPU so far, ms (schedstat: ns on the CPU). */
const cpu = (tid: string) => Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
const processCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

interface Replay {
  /** The worker's own thread, ms. */
  readonly worker: number;
  /** The worker and V8's helper threads (the process less its idle main thread), ms. */
  readonly withHelpers: number;
  /** Per batch (`--curve`): files, the worker's ms, the helpers' ms. */
  readonly batches: { files: number; worker: number; helpers: number }[];
}

async function replay(script: string, messages: readonly { type?: string; uris?: string[] }[], oneByOne: boolean): Promise<Replay> {
  const before = tasks();
  const main = String(process.pid);
  const helpers = () => [...before].filter(t => t !== main).reduce((s, t) => s + cpu(t), 0);
  const p0 = processCpu() - cpu(main);
  const w = new Worker(script, {
    workerData: { mark: 'mcp-aql-check-worker' },
    resourceLimits: { maxOldGenerationSizeMb: 768, maxYoungGenerationSizeMb: 48 },
  });
  const failed = new Promise<never>((_, reject) => w.once('error', reject));
  await Promise.race([new Promise(r => w.once('online', r)), failed]);
  const tid = [...tasks()].find(t => !before.has(t))!;
  const answered = (n: number) =>
    Promise.race([
      failed,
      new Promise<void>((res, rej) => {
        let got = 0;
        const on = (m: { type: string; message?: string }) => {
          if (m.type === 'error') rej(new Error(m.message));
          if (++got === n) {
            w.off('message', on);
            res();
          }
        };
        w.on('message', on);
      }),
    ]);
  const batches: Replay['batches'] = [];
  if (oneByOne) {
    let lw = cpu(tid),
      lh = helpers();
    for (const m of messages) {
      const done = m.type === 'names' ? Promise.resolve() : answered(1);
      w.postMessage(m);
      await done;
      if (m.type === 'names') continue;
      const [cw, ch] = [cpu(tid), helpers()];
      batches.push({ files: m.uris?.length ?? 0, worker: cw - lw, helpers: ch - lh });
      [lw, lh] = [cw, ch];
    }
  } else {
    const done = answered(messages.filter(m => m.type !== 'names').length);
    for (const m of messages) w.postMessage(m);
    await done;
  }
  const worker = cpu(tid);
  const withHelpers = processCpu() - cpu(main) - p0;
  await w.terminate();
  return { worker, withHelpers, batches };
}

interface Variant {
  readonly label: string;
  readonly script: string;
  /** V8 flags set in the replaying process before the worker is made. */
  readonly flags: readonly string[];
}

/** The recorded messages in a file, for replays in processes of their own. */
function saved(messages: readonly unknown[]): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-aql-worker-replay-'));
  const file = join(dir, 'messages.bin');
  writeFileSync(file, serialize(messages));
  return { dir, file };
}

/** One replay in a fresh process (this script, `--one`), its flags set there first. */
function replayApart(v: Variant, messagesFile: string): Replay {
  const out = execFileSync(process.execPath, [...process.execArgv, __filename, '--one', messagesFile, v.script, ...v.flags], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out.trim().split('\n').pop()!) as Replay;
}

/** The child's side of `replayApart`: argv is `--one <messages file> <script> [flag…]`. */
async function one(argv: readonly string[]): Promise<void> {
  const [file, script, ...flags] = argv.slice(1);
  for (const f of flags) setFlagsFromString(f);
  const r = await replay(resolve(script!), deserialize(readFileSync(file!)) as { type?: string; uris?: string[] }[], false);
  console.log(JSON.stringify(r));
}

async function main(argv: readonly string[]): Promise<void> {
  const value = (name: string) => argv.find(a => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const scripts = argv.filter(a => !a.startsWith('-')).map(s => resolve(s));
  const cli = resolve(value('cli') ?? join(dirname(scripts[0]!), 'cli.js'));
  const messages = record(cli, resolve(value('ws')!)) as { type?: string; uris?: string[] }[];
  const files = messages.reduce((n, m) => n + (m.type === 'validate' ? (m.uris?.length ?? 0) : 0), 0);
  console.log(`${messages.length} messages to the worker (${files} files to validate), recorded from ${cli}`);
  const save = value('save');
  if (save) {
    writeFileSync(save, serialize(messages));
    console.log(`saved to ${save}`);
    return;
  }
  if (argv.includes('--curve')) {
    const r = await replay(scripts[0]!, messages, true);
    for (const b of r.batches)
      console.log(
        `${b.files} files: worker ${b.worker.toFixed(0)} ms, helpers ${b.helpers.toFixed(0)} ms (${(b.worker / b.files).toFixed(2)} ms a file)`,
      );
    return;
  }
  const rounds = Number(value('rounds') ?? 10);
  const flagSets = argv.filter(a => a.startsWith('--flags=')).map(a => a.slice(8).split(','));
  const variants: Variant[] = [
    ...scripts.map(script => ({ label: script, script, flags: [] })),
    ...flagSets.map(flags => ({ label: `${scripts[0]!} ${flags.join(' ')}`, script: scripts[0]!, flags })),
  ];
  const apart = flagSets.length > 0 ? saved(messages) : undefined;
  const runs = new Map(variants.map(v => [v.label, [] as Replay[]]));
  const loads: number[] = [];
  try {
    for (let r = 0; r < rounds; r++) {
      loads.push(loadavg()[0]!);
      for (let i = 0; i < variants.length; i++) {
        const v = variants[(i + r) % variants.length]!;
        runs.get(v.label)!.push(apart ? replayApart(v, apart.file) : await replay(v.script, messages, false));
      }
    }
  } finally {
    if (apart) rmSync(apart.dir, { recursive: true, force: true });
  }
  console.log(`${rounds} rounds, load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}; medians:`);
  const first = runs.get(variants[0]!.label)!;
  for (const [s, v] of runs) {
    const line = `${s}: worker ${median(v.map(x => x.worker)).toFixed(0)} ms, with the helpers ${median(v.map(x => x.withHelpers)).toFixed(0)} ms`;
    if (v === first) console.log(line);
    else {
      const d = v.map((x, i) => x.withHelpers - first[i]!.withHelpers);
      console.log(
        `${line}; against the first, per round ${median(d) >= 0 ? '+' : ''}${median(d).toFixed(0)} ms (lower in ${d.filter(x => x < 0).length} of ${d.length})`,
      );
    }
  }
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  if (argv[0] === '--one') runUnless(undefined, () => one(argv));
  else runUnless(usageProblem(argv), () => main(argv));
}
