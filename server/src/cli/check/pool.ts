/**
 * `check` on all cores: the main thread and worker threads (cli/check/worker.ts) take batches of consecutive files from one
 * queue (neighbouring files share a folder, and so its codes; a free worker takes the next batch, so
 * a slow share never holds the run). Pass 1: each batch is indexed, and each file's declarations and
 * referenced names come back. Then every thread gets every declared name once, sorted and packed on
 * the main thread (names only: "did you mean"). Pass 2: batches are validated, each sent with the
 * declarations of the codes its files need (cli/check/batchWorkspace.ts; the main thread keeps only those
 * some batch needs), and each batch is handed back in the input order as soon as every batch before it
 * is (streaming); at most WINDOW batches are out or waiting, so memory is bounded by the threads, not
 * by the workspace.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ServiceOptions } from '../../service';
import { pathFromUri } from '../../node/bytePaths';
import type { IndexedFile, ReadFailure } from '../indexedFile';
import { table, type FromWorker, type ToWorker, type ValidatedFile } from './messages';
import type { DeclarationsByCode } from './batchWorkspace';
import { sharer, unpackIndexed } from './declarationsPack';
import { checkHandler, WORKER_MARK } from './worker';
import { fullCollection, grownSinceCollection, serialScavenges } from '../collections';

/** The worker script: the bundle itself (dist/cli.js holds checkWorker.ts), or the source under tsx. */
function workerFile(): string {
  return __filename.endsWith('.ts') ? join(__dirname, 'worker.ts') : __filename;
}

/** Files per batch: small enough that results stream and the last batches spread over the workers. */
export function batchSize(files: number, workers: number): number {
  return Math.max(4, Math.min(64, Math.ceil(files / (workers * 16))));
}

/**
 * A worker's young generation: V8's default for the main thread (three 16 MB semi-spaces' worth), so a worker
 * scavenges as often per file as the main thread does. Each scavenge copies the model of the file in hand, so a
 * smaller one costs CPU per file: at 16 MB (5.3 MB semi-spaces, the value before) a thread took 15-20 % more CPU
 * per file (`--jobs 1` with `--max-semi-space-size=5`, 5,000 files), for some 10 MB less peak RSS (bench/NOTES.md,
 * "per-file cost").
 */
const WORKER_YOUNG_MB = 48;

/** Batches out or waiting to be handed back, per worker. */
const WINDOW_PER_WORKER = 4;

/** What the pool drives: a worker thread, or the main thread's own handler (`LocalPort`). */
interface Port {
  postMessage(m: ToWorker): void;
  on(event: string, f: (...args: never[]) => void): unknown;
  off(event: string, f: (...args: never[]) => void): unknown;
  terminate(): Promise<unknown>;
}

/**
 * The main thread as one of the pool's threads: each message is handled on a later turn of the event
 * loop (`setImmediate`), so the workers' answers are taken between two of its batches. A worker costs
 * its start and its own warm-up (about 1.5 s of CPU on 2,000 files, bench/workspaceNotes.md); the main
 * thread waits anyway, so `--jobs 2` is the main thread and one worker, at every size: its heap holds the
 * run's packed names and the few declarations batches need (cli/check/batchWorkspace.ts), and the pool collects
 * it in full whenever it grew by LOCAL_GROWTH (bench/workspaceNotes.md, 2026-11-26 mem5).
 */
class LocalPort implements Port {
  private readonly handle = checkHandler();
  private readonly listeners = new Set<(m: FromWorker) => void>();
  private closed = false;
  /** Batches handled (the tests see that the main thread took its share). */
  batches = 0;
  postMessage(m: ToWorker): void {
    setImmediate(() => {
      if (this.closed) return;
      const answer = this.handle(m);
      if (answer) this.batches++;
      if (answer) for (const f of [...this.listeners]) f(answer);
    });
  }
  on(event: string, f: (...args: never[]) => void): this {
    if (event === 'message') this.listeners.add(f as (m: FromWorker) => void);
    return this;
  }
  off(event: string, f: (...args: never[]) => void): this {
    if (event === 'message') this.listeners.delete(f as (m: FromWorker) => void);
    return this;
  }
  terminate(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}

/**
 * Bytes per thread in the index pass (the files' sizes as listed): with fewer, fewer threads index (the main thread
 * first, then workers), and the others wait for the validation. The index pass is the fast scan, about a tenth of a
 * file's work, and each thread that takes part pays its warm-up: TurboFan compiles the scan and the packing again in
 * each isolate, and its batches cross as JSON. A worker's share cost 0.15 / 0.28 / 0.30 s of CPU at 1,000 / 2,000 /
 * 4,000 generated files (bench/NOTES.md, "the index pass on one thread") and 0.35-0.4 s at 5,000 (26 MB; "eighth
 * sitting"), for half the pass's wall time (0.4 s or so at 5,000 files on a quiet machine, by the pass's CPU; not
 * measurable on the shared machine). Counted in bytes, not files, since the scan's work is the text's: two threads
 * index from 40 MiB (about 7,900 generated files, so 10,000 keep both).
 */
export const INDEX_BYTES_PER_THREAD = 20 * 1024 * 1024;

/** Batches a worker thread holds at once: the next is there when one is done (the main thread may be busy with its own). */
const DEPTH = 2;

/**
 * The main thread's heap has V8's default limits, far above a worker's (`resourceLimits`): left alone it grows
 * by what the index pass's results and each file it validates leave in the old generation, with a rare full
 * collection. The pool collects it in full once it holds this much more than after the last full collection.
 */
const LOCAL_GROWTH = 64 * 1024 * 1024;

export class WorkerPool {
  private readonly workers: Port[];
  /**
   * `size` threads: `size` workers, or (`join`) the main thread and `size - 1` workers; `localGrowth` (tests): `LOCAL_GROWTH`;
   * `pathOf`: each URI's file, as listed (sent with each batch, so no thread converts the URI back);
   * `sizeOf`: each URI's size in bytes, as listed (the index pass's threads, `INDEX_BYTES_PER_THREAD`; by default its
   * file's size now); `indexPerThread` (tests): `INDEX_BYTES_PER_THREAD`.
   */
  constructor(
    readonly size: number,
    join = false,
    private readonly localGrowth = LOCAL_GROWTH,
    private readonly pathOf: (uri: string) => string = pathFromUri,
    private readonly indexPerThread = INDEX_BYTES_PER_THREAD,
    private readonly sizeOf: (uri: string) => number = uri => statSync(pathOf(uri), { throwIfNoEntry: false })?.size ?? 0,
  ) {
    serialScavenges();
    const file = workerFile();
    const limits = {
      resourceLimits: { maxOldGenerationSizeMb: 768, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
      workerData: { mark: WORKER_MARK },
    };
    // From the sources (tests run under tsx), the worker loads them through tsx's require hook.
    const threads = Array.from({ length: join ? size - 1 : size }, () =>
      file.endsWith('.ts')
        ? new Worker(`require('tsx/cjs'); require(${JSON.stringify(file)});`, { eval: true, ...limits })
        : new Worker(file, limits),
    );
    // A worker lost while no pass listens (between the index pass and the validation) would leave the next pass
    // waiting for answers that never come, or its 'error' unheard (an uncaught exception): kept, and the next pass fails with it.
    for (const w of threads) {
      w.on('error', e => (this.lost ??= e));
      w.on('exit', code => (this.lost ??= new Error(`a check worker exited (${code})`)));
    }
    this.workers = join ? [...threads, new LocalPort()] : threads;
  }

  /** Why a worker stopped, once one has (its error, or its exit; `close` too). */
  private lost: Error | undefined;

  /** Batches the main thread handled. */
  get handledHere(): number {
    return this.workers.reduce((n, w) => n + (w instanceof LocalPort ? w.batches : 0), 0);
  }

  /** Full collections of the main thread's heap made to bound it (`LOCAL_GROWTH`). */
  collectionsHere = 0;

  /** After each answer, whichever thread gave it: the main thread's heap collected once it grew by `localGrowth`. */
  private bound(): void {
    if (grownSinceCollection() >= this.localGrowth && fullCollection()) this.collectionsHere++;
  }

  private batches(uris: readonly string[]): string[][] {
    const size = batchSize(uris.length, this.size);
    const out: string[][] = [];
    for (let i = 0; i < uris.length; i += size) out.push(uris.slice(i, i + size));
    return out;
  }

  async index(uris: readonly string[], opts: (uri: string) => ServiceOptions, failed: (f: ReadFailure) => void): Promise<IndexedFile[]> {
    const batches = this.batches(uris);
    const share = sharer();
    const done: (IndexedFile[] | undefined)[] = [];
    const failures: ReadFailure[][] = [];
    // The threads that index (INDEX_BYTES_PER_THREAD): the main thread first, then workers in order.
    let bytes = 0;
    for (const u of uris) bytes += this.sizeOf(u);
    const threads = Math.max(1, Math.min(this.size, Math.floor(bytes / this.indexPerThread)));
    const indexing = new Set(
      [...this.workers].sort((a, b) => Number(b instanceof LocalPort) - Number(a instanceof LocalPort)).slice(0, threads),
    );
    await this.drive(
      batches.length,
      (_b, w) => indexing.has(w),
      b => ({ type: 'index', batch: b, uris: batches[b]!, paths: batches[b]!.map(this.pathOf), opts: table(batches[b]!, opts) }),
      m => {
        if (m.type !== 'indexed') return;
        done[m.batch] = unpackIndexed(m.json, share);
        failures[m.batch] = m.failed;
      },
    );
    failures.flat().forEach(failed); // in the input order
    return done.flatMap(f => f ?? []);
  }

  /** Every worker gets every declared name (once per run). */
  names(declarations: DeclarationsByCode): void {
    const names = declarations.names;
    for (const w of this.workers) w.postMessage({ type: 'names', names } satisfies ToWorker);
  }

  /**
   * Validate `uris` in batches, each sent with the declarations of the codes `refs` gives for its files;
   * `onBatch` gets each batch's results (in input order) and failures as soon as every earlier batch
   * was handed over.
   */
  async validate(
    uris: readonly string[],
    opts: (uri: string) => ServiceOptions,
    declarations: DeclarationsByCode,
    refs: (uri: string) => readonly string[],
    onBatch: (uris: readonly string[], results: readonly ValidatedFile[], failed: readonly ReadFailure[], declarations: number) => void,
  ): Promise<void> {
    const batches = this.batches(uris);
    const waiting = new Map<number, { results: ValidatedFile[]; failed: ReadFailure[]; declarations: number }>();
    let next = 0;
    const window = WINDOW_PER_WORKER * this.size;
    // What the index pass left on this thread (the caller's declarations and references, its frames gone
    // by the next turn) goes once the first batches are out, before the validation's peak.
    setImmediate(fullCollection);
    await this.drive(
      batches.length,
      b => b < next + window,
      b => ({
        type: 'validate',
        batch: b,
        uris: batches[b]!,
        paths: batches[b]!.map(this.pathOf),
        opts: table(batches[b]!, opts),
        json: declarations.packFor(batches[b]!.flatMap(refs)),
      }),
      m => {
        if (m.type !== 'validated') return;
        waiting.set(m.batch, { results: m.results, failed: m.failed, declarations: m.declarations });
        for (let w = waiting.get(next); w; w = waiting.get(next)) {
          waiting.delete(next);
          onBatch(batches[next]!, w.results, w.failed, w.declarations);
          next++;
        }
      },
    );
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map(w => w.terminate()));
  }

  /** Hand batches 0..count-1 to free workers in order (batch `b` to worker `w` only when `may(b, w)`), feed every answer to `on`; resolves when all are answered. */
  private drive(
    count: number,
    may: (b: number, w: Port) => boolean,
    message: (b: number) => ToWorker,
    on: (m: FromWorker) => void,
  ): Promise<void> {
    if (!count) return Promise.resolve();
    if (this.lost) return Promise.reject(this.lost);
    return new Promise<void>((resolve, reject) => {
      // Batches each thread holds: up to DEPTH for a worker, one for the main thread (it takes them one by one anyway).
      const busy = this.workers.map(() => 0);
      const depth = (w: Port) => (w instanceof LocalPort ? 1 : DEPTH);
      let sent = 0,
        answered = 0,
        over = false;
      const finish = (e?: Error) => {
        if (over) return;
        over = true;
        this.workers.forEach((w, i) => {
          w.off('message', handlers[i]!.message);
          w.off('error', handlers[i]!.error);
          w.off('exit', handlers[i]!.exit);
        });
        if (e) reject(e);
        else resolve();
      };
      const pump = () => {
        for (let round = 0; round < DEPTH; round++)
          for (let i = 0; i < this.size && !over; i++) {
            if (busy[i]! >= depth(this.workers[i]!) || sent === count || !may(sent, this.workers[i]!)) continue;
            busy[i]!++;
            this.workers[i]!.postMessage(message(sent++));
          }
      };
      const handlers = this.workers.map((_, i) => ({
        message: (m: FromWorker) => {
          if (m.type === 'error') return finish(new Error(`a check worker failed: ${m.message}`));
          busy[i]!--;
          try {
            on(m);
          } catch (e) {
            return finish(e as Error);
          }
          if (++answered === count) return finish();
          pump();
          this.bound();
        },
        error: (e: Error) => finish(e),
        exit: (code: number) => finish(new Error(`a check worker exited (${code})`)),
      }));
      this.workers.forEach((w, i) => {
        w.on('message', handlers[i]!.message);
        w.on('error', handlers[i]!.error);
        w.on('exit', handlers[i]!.exit);
      });
      pump();
    });
  }
}
