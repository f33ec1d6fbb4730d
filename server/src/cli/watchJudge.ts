/**
 * `watch`'s judge as the forwarding thread sees it (issue 24): a worker thread (cli/watchWorker.ts)
 * started once the server is spawned, fed through the gate (cli/watchGate.ts), and told to end when the
 * session does. A judge that dies (a throw outside the checker's guard, its heap limit) is logged once;
 * the session goes on, and the summary is given from the counts it left in shared memory.
 */
import { join } from 'node:path';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { summaryLine, type Dir } from './watchChecker';
import { WatchGate } from './watchGate';
import { RingWriter, ringMemory } from './watchRing';
import { CALLS, COUNTERS, ERRORS, FINDINGS, JUDGE_NICE, WATCH_MARK, type ToJudge, type WatchWorkerData } from './watchWorker';

/** The judge's heap: past it the judging thread ends (and is logged), never the session. */
const JUDGE_HEAP_MB = 2048;

/** The worker script: the bundle itself (dist/cli.js holds watchWorker.ts), or the source under tsx. */
function workerFile(): string {
  return __filename.endsWith('.ts') ? join(__dirname, 'watchWorker.ts') : __filename;
}

export type JudgeOptions = Omit<WatchWorkerData, 'mark' | 'counters' | 'ring' | 'port'>;

export class WatchJudge {
  private readonly worker: Worker;
  private readonly counts = new Int32Array(new SharedArrayBuffer(COUNTERS * 4));
  private readonly gate: WatchGate;
  private ended: Promise<void>;
  private done = false;
  private readonly port: MessagePort;

  /** `script`: the worker's code instead of the bundle's (tests). */
  constructor(
    opts: JudgeOptions,
    private readonly log: (s: string) => void,
    script?: string,
  ) {
    const ring = ringMemory();
    const { port1, port2 } = new MessageChannel();
    const data: WatchWorkerData = { ...opts, mark: WATCH_MARK, counters: this.counts.buffer as SharedArrayBuffer, ring, port: port2 };
    const options = {
      workerData: data,
      transferList: [port2],
      stdout: true,
      resourceLimits: { maxOldGenerationSizeMb: JUDGE_HEAP_MB },
      eval: true,
    };
    // Lower the thread's priority before it loads anything (Linux: that thread only); from the sources
    // (tests run under tsx), load them through tsx's require hook.
    const file = workerFile();
    const nice = process.platform === 'linux' ? `try { require('node:os').setPriority(${JUDGE_NICE}); } catch {}\n` : '';
    const load = file.endsWith('.ts') ? `require('tsx/cjs'); require(${JSON.stringify(file)});` : `require(${JSON.stringify(file)});`;
    this.worker = new Worker(script ?? nice + load, options);
    this.port = port1;
    this.gate = new WatchGate(new RingWriter(ring), c => port1.postMessage(c), log);
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
        this.port.close();
        await this.worker.terminate();
        return;
      }
    }
    this.done = true;
    this.port.close();
    const n = (i: number) => Atomics.load(this.counts, i);
    this.log(summaryLine(n(CALLS), n(FINDINGS), n(ERRORS), this.gate.unchecked + this.gate.unread()));
  }

  /** The session never started: end the judge, say nothing. */
  stop(): void {
    this.done = true;
    this.port.close();
    void this.worker.terminate();
  }
}
