/**
 * `check` on all cores: worker threads (cli/checkWorker.ts) each take a share of the files. Pass 1:
 * every worker indexes its share and sends back each file's declarations and referenced names. Pass
 * 2: every worker gets all declarations and validates its share, streaming one result per file.
 * Results are put back in the input order, so the output does not depend on scheduling.
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { CodeDeclaration, ServiceOptions } from '../service';
import type { Diagnostic } from 'vscode-languageserver-types';
import { WORKER_MARK } from './checkWorker';

/** Each file's options: distinct option sets, and for each URI (same order) the index of its set. */
interface OptionsTable {
  readonly sets: ServiceOptions[];
  readonly of: number[];
}

export type ToWorker =
  | { readonly type: 'index'; readonly uris: string[]; readonly opts: OptionsTable }
  | {
      readonly type: 'validate';
      readonly uris: string[];
      readonly declarations: [string, readonly CodeDeclaration[]][];
      readonly opts: OptionsTable;
    };

function table(uris: readonly string[], opts: (uri: string) => ServiceOptions): OptionsTable {
  const keys = new Map<string, number>(),
    sets: ServiceOptions[] = [];
  const of = uris.map(u => {
    const o = opts(u),
      k = JSON.stringify(o);
    let i = keys.get(k);
    if (i === undefined) {
      keys.set(k, (i = sets.length));
      sets.push(o);
    }
    return i;
  });
  return { sets, of };
}

export interface IndexedFile {
  readonly uri: string;
  readonly adapter: boolean;
  readonly decls: readonly CodeDeclaration[];
  readonly refs: string[];
}

/** A file that could not be read (node/readRegularFile's reasons). */
export interface ReadFailure {
  readonly path: string;
  readonly reason: 'missing' | 'not-regular' | 'too-large' | 'error';
  readonly message: string;
}

export type FromWorker =
  | { readonly type: 'indexed'; readonly files: IndexedFile[]; readonly failed: ReadFailure[] }
  | { readonly type: 'result'; readonly uri: string; readonly diagnostics: Diagnostic[]; readonly text: string }
  | { readonly type: 'validated'; readonly failed: ReadFailure[] }
  | { readonly type: 'error'; readonly message: string };

/** The worker script: the bundle itself (dist/cli.js holds checkWorker.ts), or the source under tsx. */
function workerFile(): string {
  return __filename.endsWith('.ts') ? join(__dirname, 'checkWorker.ts') : __filename;
}

const NO_RANGE = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/**
 * What validation reads of another file's declaration (the resolver: name, category, details; messages:
 * the file): a CLI run keeps and sends only that, so memory per declaration stays small.
 */
export function slim(d: CodeDeclaration): CodeDeclaration {
  return {
    uri: d.uri,
    code: d.code,
    range: NO_RANGE,
    category: d.category,
    details: d.details.map(x => ({ name: x.name, type: x.type, required: x.required })),
    mapsFromHttp: [],
  };
}

export class WorkerPool {
  private readonly workers: Worker[];
  constructor(readonly size: number) {
    const file = workerFile();
    const limits = { resourceLimits: { maxOldGenerationSizeMb: 768 }, workerData: { mark: WORKER_MARK } };
    // From the sources (tests run under tsx), the worker loads them through tsx's require hook.
    this.workers = Array.from({ length: size }, () =>
      file.endsWith('.ts')
        ? new Worker(`require('tsx/cjs'); require(${JSON.stringify(file)});`, { eval: true, ...limits })
        : new Worker(file, limits),
    );
  }

  /** Split `uris` into `size` contiguous shares (neighbouring files share a folder, and so its codes). */
  shares(uris: readonly string[]): string[][] {
    const per = Math.ceil(uris.length / this.size);
    return this.workers.map((_, i) => uris.slice(i * per, (i + 1) * per));
  }

  async index(uris: readonly string[], opts: (uri: string) => ServiceOptions, failed: (f: ReadFailure) => void): Promise<IndexedFile[]> {
    const parts = await Promise.all(
      this.shares(uris).map((share, i) =>
        this.run<[IndexedFile[], ReadFailure[]]>(i, { type: 'index', uris: share, opts: table(share, opts) }, (m, done) => {
          if (m.type === 'indexed') done([m.files, m.failed]);
        }),
      ),
    );
    parts.flatMap(p => p[1]).forEach(failed); // in the input order: shares are contiguous
    return parts.flatMap(p => p[0]);
  }

  async validate(
    uris: readonly string[],
    declarations: [string, readonly CodeDeclaration[]][],
    opts: (uri: string) => ServiceOptions,
    onResult: (uri: string, diagnostics: Diagnostic[], text: string) => void,
    failed: (f: ReadFailure) => void,
  ): Promise<void> {
    const parts = await Promise.all(
      this.shares(uris).map((share, i) =>
        this.run<ReadFailure[]>(i, { type: 'validate', uris: share, declarations, opts: table(share, opts) }, (m, done) => {
          if (m.type === 'result') onResult(m.uri, m.diagnostics, m.text);
          else if (m.type === 'validated') done(m.failed);
        }),
      ),
    );
    parts.flat().forEach(failed);
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map(w => w.terminate()));
  }

  private run<T>(i: number, msg: ToWorker, on: (m: FromWorker, done: (v: T) => void) => void): Promise<T> {
    const w = this.workers[i]!;
    return new Promise<T>((resolve, reject) => {
      const cleanup = () => {
        w.off('message', onMessage);
        w.off('error', onError);
        w.off('exit', onExit);
      };
      const onMessage = (m: FromWorker) => {
        if (m.type === 'error') {
          cleanup();
          reject(new Error(`a check worker failed: ${m.message}`));
          return;
        }
        on(m, v => {
          cleanup();
          resolve(v);
        });
      };
      const onError = (e: Error) => {
        cleanup();
        reject(e);
      };
      const onExit = (code: number) => {
        cleanup();
        reject(new Error(`a check worker exited (${code})`));
      };
      w.on('message', onMessage);
      w.on('error', onError);
      w.on('exit', onExit);
      if (!msg.uris.length) {
        cleanup();
        resolve((msg.type === 'index' ? [[], []] : []) as T);
        return;
      }
      w.postMessage(msg);
    });
  }
}
