/**
 * `watch`'s judge as the forwarding thread sees it (issue 24): a worker thread (cli/watchWorker.ts)
 * started once the server is spawned, fed through the gate (cli/watchGate.ts), and told to end when the
 * session does. A judge that dies (a throw outside the checker's guard, its heap limit) is logged once;
 * the session goes on, and the summary is given from the counts it left in shared memory.
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { summaryLine, type Dir } from './watchChecker';
import { WatchGate } from './watchGate';
import { CALLS, COUNTERS, ERRORS, FINDINGS, WATCH_MARK, type ToJudge, type WatchWorkerData } from './watchWorker';

/** The judge's heap: past it the judging thread ends (and is logged), never the session. */
const JUDGE_HEAP_MB = 2048;

/** The worker script: the bundle itself (dist/cli.js holds watchWorker.ts), or the source under tsx. */
function workerFile(): string {
  return __filename.endsWith('.ts') ? join(__dirname, 'watchWorker.ts') : __filename;
}

export type JudgeOptions = Omit<WatchWorkerData, 'mark' | 'counters'>;

export class WatchJudge {
  private readonly worker: Worker;
  private readonly counts = new Int32Array(new SharedArrayBuffer(COUNTERS * 4));
  private readonly gate: WatchGate;
  private ended: Promise<void>;
  private done = false;

  /** `script`: the worker's code instead of the bundle's (tests). */
  constructor(
    opts: JudgeOptions,
    private readonly log: (s: string) => void,
    script?: string,
  ) {
    const file = workerFile();
    const data: WatchWorkerData = { ...opts, mark: WATCH_MARK, counters: this.counts.buffer as SharedArrayBuffer };
    const options = { workerData: data, stdout: true, resourceLimits: { maxOldGenerationSizeMb: JUDGE_HEAP_MB } };
    this.worker =
      script !== undefined
        ? new Worker(script, { ...options, eval: true })
        : file.endsWith('.ts')
          ? new Worker(`require('tsx/cjs'); require(${JSON.stringify(file)});`, { ...options, eval: true })
          : new Worker(file, options);
    this.gate = new WatchGate(m => this.worker.postMessage(m satisfies ToJudge), this.counts, log);
    this.worker.on('error', e => {
      if (!this.done) log(`checker failed, checking stopped (the session goes on): ${e.stack ?? e.message}`);
    });
    this.ended = new Promise(res =>
      this.worker.on('exit', () => {
        if (!this.done) this.gate.broken = true;
        res();
      }),
    );
  }

  /** A copy of a chunk the client sent (already forwarded). */
  client(c: Buffer): void {
    this.gate.pass(0 satisfies Dir, c);
  }

  /** A copy of a chunk the server sent (already forwarded). */
  server(c: Buffer): void {
    this.gate.pass(1 satisfies Dir, c);
  }

  /** The session is over: the judge judges what is pending, writes the summary and the report, and ends. */
  async finish(): Promise<void> {
    if (!this.gate.broken) {
      const said = new Promise<boolean>(res => {
        this.worker.once('message', m => res(m === 'done'));
        void this.ended.then(() => res(false));
      });
      this.worker.postMessage({ end: this.gate.unchecked } satisfies ToJudge);
      if (await said) {
        this.done = true;
        await this.worker.terminate();
        return;
      }
    }
    this.done = true;
    const n = (i: number) => Atomics.load(this.counts, i);
    this.log(summaryLine(n(CALLS), n(FINDINGS), n(ERRORS), this.gate.unchecked + this.gate.unread()));
  }

  /** The session never started: end the judge, say nothing. */
  stop(): void {
    this.done = true;
    void this.worker.terminate();
  }
}
