/**
 * `watch`'s judge as the forwarding thread sees it: a worker thread (cli/runtime/watch/worker.ts)
 * started once the server is spawned, fed through the gate (cli/runtime/watch/gate.ts), and told to end when the
 * session does. A judge that dies (a throw outside the checker's guard, its heap limit) is logged once;
 * the session goes on, and the summary is given from the counts it left in shared memory.
 */
import { join } from 'node:path';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { serialScavenges } from '../../collections';
import { summaryLine, type Dir } from './checker';
import { WatchGate } from './gate';
import { RingWriter, ringMemory } from './ring';
import { CALLS, COUNTERS, ERRORS, FINDINGS, JUDGE_NICE, WATCH_MARK, type ToJudge, type WatchWorkerData } from './worker';

/** The judge's heap: past it the judging thread ends (and is logged), never the session. */
const JUDGE_HEAP_MB = 2048;
/**
 * How long the end waits for the judge to take what is pending, write the summary and the report (ms): a judge
 * starved of CPU (it yields to everything else) still finishes a full ring well within it; one that does not
 * (a bug) is stopped, and the summary comes from its counts.
 */
const END_WAIT_MS = 60_000;
/** The judge starts by then even if the server has said nothing (ms). */
const START_AT_LATEST_MS = 1000;

/**
 * The judging thread's first lines, before it loads anything (Linux, where a thread's nice value is its
 * own): every thread of the process but the forwarding (main) one goes JUDGE_NICE below it (a nice value
 * that much higher, at most 19) — the judge itself and V8's helper threads, which compile the judge's code
 * and do its concurrent collection work. At the forwarding thread's own priority those helpers could keep a
 * core for a whole time slice against the forwarding thread, the client and the server; below it by a fixed
 * step, `watch` started with `nice` keeps the same order (its judge does not end up above the forwarding
 * thread, nor at the same level as the rest of the machine). Young-generation collections use no helpers at
 * all (below): each isolate does its own.
 */
const LOWER_PRIORITIES = `try {
  const { readdirSync } = require('node:fs'), { getPriority, setPriority } = require('node:os');
  let nice = ${JUDGE_NICE};
  try { nice = Math.min(19, getPriority(process.pid) + ${JUDGE_NICE}); } catch {}
  try { setPriority(nice); } catch {}
  try {
    for (const t of readdirSync('/proc/self/task')) if (Number(t) !== process.pid) try { setPriority(Number(t), nice); } catch {}
  } catch {} // no /proc (a sandbox): the judge's own thread is lowered all the same
} catch {}
`;

/** The worker script: the bundle itself (dist/cli.js holds watchWorker.ts), or the source under tsx. */
function workerFile(): string {
  return __filename.endsWith('.ts') ? join(__dirname, 'worker.ts') : __filename;
}

export type JudgeOptions = Omit<WatchWorkerData, 'mark' | 'counters' | 'ring' | 'port'>;

export class WatchJudge {
  private worker: Worker | undefined;
  private readonly counts = new Int32Array(new SharedArrayBuffer(COUNTERS * 4));
  private readonly gate: WatchGate;
  private ended: Promise<void> = Promise.resolve();
  private done = false;
  private readonly port: MessagePort;
  private readonly start: () => void;
  private starting = false;

  /** `script`: the worker's code instead of the bundle's, `endWaitMs`: the wait at the end (tests). */
  constructor(
    opts: JudgeOptions,
    private readonly log: (s: string) => void,
    script?: string,
    private readonly endWaitMs = END_WAIT_MS,
  ) {
    // Young-generation collections without helper threads, for the process: the judge's (a few a second)
    // run on its own lowered thread instead of on helpers that either hold a core against the forwarding
    // thread or, lowered, keep the judge's collection waiting; the forwarding thread's are small.
    serialScavenges();
    const ring = ringMemory();
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.gate = new WatchGate(new RingWriter(ring), c => port1.postMessage(c), log);
    this.start = () => {
      if (this.worker || this.done) return;
      const data: WatchWorkerData = { ...opts, mark: WATCH_MARK, counters: this.counts.buffer as SharedArrayBuffer, ring, port: port2 };
      const options = {
        workerData: data,
        transferList: [port2],
        stdout: true,
        resourceLimits: { maxOldGenerationSizeMb: JUDGE_HEAP_MB },
        eval: true,
      };
      // Lower the priorities before the judge loads anything; from the sources (tests run under tsx), load
      // them through tsx's require hook.
      const file = workerFile();
      const nice = process.platform === 'linux' ? LOWER_PRIORITIES : '';
      const load = file.endsWith('.ts') ? `require('tsx/cjs'); require(${JSON.stringify(file)});` : `require(${JSON.stringify(file)});`;
      const worker = (this.worker = new Worker(script ?? nice + load, options));
      worker.on('error', e => {
        if (this.done) return;
        this.gate.broken = true; // from now on copies are only counted ('exit' follows)
        log(`checker failed, checking stopped (the session goes on): ${e.stack ?? e.message}`);
      });
      this.ended = new Promise(res =>
        worker.on('exit', () => {
          if (!this.done) this.gate.broken = true;
          res();
        }),
      );
    };
    setTimeout(this.start, START_AT_LATEST_MS).unref();
  }

  /**
   * Start the judging thread now. `watch` starts it once the server's first output is forwarded (the
   * handshake's answer, as a rule), so loading it never competes with the server's start-up; the copies
   * wait in shared memory meanwhile. A server silent for START_AT_LATEST_MS, or the end, starts it too.
   */
  startNow(): void {
    this.start();
  }

  /** A copy of a chunk the client sent (already forwarded). */
  client(c: Buffer): void {
    this.gate.pass(0 satisfies Dir, c);
  }

  /** A copy of a chunk the server sent (already forwarded); the first starts the judge after this turn. */
  server(c: Buffer): void {
    this.gate.pass(1 satisfies Dir, c);
    if (!this.starting) {
      this.starting = true;
      setImmediate(this.start);
    }
  }

  /** The session is over: the judge judges what is pending, writes the summary and the report, and ends. */
  async finish(): Promise<void> {
    this.start();
    const worker = this.worker!;
    if (!this.gate.broken) {
      let timer: NodeJS.Timeout | undefined;
      const said = new Promise<boolean>(res => {
        worker.once('message', m => res(m === 'done'));
        void this.ended.then(() => res(false));
        timer = setTimeout(() => {
          this.log(`the checker did not finish within ${this.endWaitMs / 1000} s of the session's end; it was stopped`);
          res(false);
        }, this.endWaitMs);
      });
      worker.postMessage({ end: this.gate.unchecked } satisfies ToJudge);
      const finished = await said;
      clearTimeout(timer);
      if (finished) {
        this.done = true;
        this.port.close();
        await worker.terminate();
        return;
      }
    }
    this.done = true;
    this.port.close();
    await worker.terminate();
    const n = (i: number) => Atomics.load(this.counts, i);
    this.log(summaryLine(n(CALLS), n(FINDINGS), n(ERRORS), this.gate.unchecked + this.gate.unread()));
  }

  /** The session never started: end the judge, say nothing. */
  stop(): void {
    this.done = true;
    this.port.close();
    void this.worker?.terminate();
  }
}
