/**
 * The CLI's side of the shared "adapter files → index → validate" path (node/workspacePass): index
 * every adapter, then validate each against the whole index — in this process, or on all cores
 * (cli/parallel.ts) — with an optional cache (cli/cache.ts). Bytes that are not UTF-8 become U+FFFD,
 * which text.invalid-character reports. Text is kept only for files with problems (the code frames),
 * so memory is bounded by those, not by the workspace. Reports come back in the input order. Only
 * regular files are read, without blocking (issue 13); a file that cannot be read — gone since the
 * listing, swapped for a FIFO — is one message on stderr and the run goes on.
 */
import { relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-types';
import { createAdapterService, createWorkspaceIndex, type CodeDeclaration, type ServiceOptions } from '../service';
import { readRegularFile, type ReadResult } from '../node/readRegularFile';
import { indexFiles, validateFiles } from '../node/workspacePass';
import { CheckCache, contentHash } from './cache';
import { deps } from './deps';
import { UsageError, type Found } from './files';
import { escapeControls } from './format/escape';
import type { Io } from './io';
import { slim, WorkerPool, type IndexedFile, type ReadFailure } from './parallel';
import type { FileReport } from './report';

const decoder = new TextDecoder('utf-8', { fatal: false });

/** Read a file's text, or record why it cannot be read (a worker does the same and sends the failure back). */
export function readText(path: string, failed: (f: ReadFailure) => void): string | undefined {
  const r = readRegularFile(path);
  if (r.ok) return decoder.decode(r.bytes);
  failed({ path, reason: r.reason, message: r.message });
  return undefined;
}

/** Failures, each said once on stderr. */
class Failures {
  readonly byPath = new Map<string, Exclude<ReadResult, { ok: true }>>();
  constructor(private readonly io: Io) {}
  add = (f: ReadFailure) => {
    if (this.byPath.has(f.path)) return;
    this.byPath.set(f.path, { ok: false, reason: f.reason, message: f.message });
    this.io.stderr(`${escapeControls(relative(this.io.cwd, f.path))}: cannot read: ${f.message}; skipped\n`);
  };
  /** Files that exist but could not be read (not those gone since the listing, nor FIFOs and devices). */
  get unreadable(): number { return [...this.byPath.values()].filter(r => r.reason === 'error').length; }
}

export interface CheckRun {
  /** Worker threads (1: in this process). */
  readonly jobs: number;
  /** The cache file, or undefined for no cache. */
  readonly cacheFile?: string;
}

export interface CheckResult {
  readonly reports: FileReport[];
  /** Files that exist but could not be read (not those gone since the listing, nor FIFOs and devices). */
  readonly unreadable: number;
}

type OnResult = (uri: string, diagnostics: Diagnostic[], text: string) => void;
interface Backend {
  index(uris: readonly string[]): Promise<IndexedFile[]>;
  validate(uris: readonly string[], declarations: [string, readonly CodeDeclaration[]][], onResult: OnResult): Promise<void>;
  close(): Promise<void>;
}

function inProcess(opts: ServiceOptions, failures: Failures): Backend {
  const index = createWorkspaceIndex();
  const service = createAdapterService({ ...deps, workspace: index });
  const read = (uri: string) => readText(fileURLToPath(uri), failures.add);
  return {
    async index(uris) {
      const out: IndexedFile[] = [];
      for (const r of indexFiles(service, index, uris, read, () => opts)) out.push({ uri: r.uri, adapter: index.has(r.uri), decls: index.declaredIn(r.uri).map(slim), refs: index.referencedIn(r.uri) });
      return out;
    },
    async validate(uris, declarations, onResult) {
      // The same index, in the same order, as a worker builds.
      for (const uri of index.uris()) index.remove(uri);
      for (const [uri, decls] of declarations) index.update(uri, decls, []);
      for (const r of validateFiles(service, uris, read, () => opts)) onResult(r.uri, r.diagnostics, r.diagnostics.length ? r.text : '');
    },
    async close() { /* nothing to release */ },
  };
}

function pooled(pool: WorkerPool, opts: ServiceOptions, failures: Failures): Backend {
  return {
    index: uris => pool.index(uris, opts, failures.add),
    validate: (uris, declarations, onResult) => pool.validate(uris, declarations, opts, onResult, failures.add),
    close: () => pool.close(),
  };
}

export async function checkFiles(files: readonly Found[], opts: ServiceOptions, io: Io, named: readonly string[], run: CheckRun = { jobs: 1 }): Promise<CheckResult> {
  const byUri = new Map(files.filter(f => f.path !== run.cacheFile).map(f => [pathToFileURL(f.path).href, f] as const));
  const uris = [...byUri.keys()];
  const failures = new Failures(io);
  const cache = run.cacheFile ? CheckCache.load(run.cacheFile, opts) : undefined;
  const hashes = new Map<string, string>();
  const known = new Map<string, IndexedFile>();
  if (cache) {
    for (const uri of uris) {
      const text = readText(byUri.get(uri)!.path, failures.add);
      if (text === undefined) { known.set(uri, { uri, adapter: false, decls: [], refs: [] }); continue; }
      const h = contentHash(text);
      hashes.set(uri, h);
      const hit = cache.indexed(uri, h);
      if (hit) known.set(uri, hit);
    }
  }
  const toIndex = uris.filter(u => !known.has(u));
  const jobs = Math.max(1, Math.min(run.jobs, Math.floor(toIndex.length / 2) || 1));
  const backend = jobs > 1 ? pooled(new WorkerPool(jobs), opts, failures) : inProcess(opts, failures);
  try {
    for (const f of await backend.index(toIndex)) known.set(f.uri, f);
    const adapters = uris.filter(u => known.get(u)!.adapter);
    for (const uri of uris) {
      const f = byUri.get(uri)!;
      if (!known.get(uri)!.adapter && f.explicit && !failures.byPath.has(f.path)) io.stderr(`${escapeControls(relative(io.cwd, f.path))}: not an adapter file (see README "Which files"); skipped\n`);
    }
    if (!adapters.length) throw new UsageError(`no adapter files found in ${named.length ? named.join(' ') : 'the current directory'}`);
    const declarations = adapters.map(u => [u, known.get(u)!.decls] as [string, readonly CodeDeclaration[]]);
    const results = new Map<string, { diagnostics: Diagnostic[]; text: string }>();
    let toValidate = adapters;
    if (cache) {
      cache.setWorkspace(declarations);
      toValidate = [];
      for (const uri of adapters) {
        const hit = cache.result(uri, hashes.get(uri)!, known.get(uri)!.refs);
        const text = hit?.length ? readText(byUri.get(uri)!.path, failures.add) : '';
        if (hit && text !== undefined) results.set(uri, { diagnostics: hit, text });
        else toValidate.push(uri);
      }
    }
    await backend.validate(toValidate, declarations, (uri, diagnostics, text) => results.set(uri, { diagnostics, text }));
    if (cache) {
      for (const uri of uris) if (hashes.has(uri)) cache.store(uri, hashes.get(uri)!, known.get(uri)!, results.get(uri)?.diagnostics);
      cache.save();
    }
    const reports = adapters.filter(uri => results.has(uri)).map(uri => {
      const path = byUri.get(uri)!.path, r = results.get(uri)!;
      return { path, rel: relative(io.cwd, path).split(sep).join('/'), uri, text: r.text, diagnostics: r.diagnostics };
    });
    return { reports, unreadable: failures.unreadable };
  } finally {
    await backend.close();
  }
}
