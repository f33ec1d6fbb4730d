/**
 * The CLI's side of the shared "adapter files → index → validate" path (node/workspacePass): index
 * every adapter, then validate each against the whole index — in this process, or on all cores
 * (cli/parallel.ts) — with an optional cache (cli/cache.ts). Bytes that are not UTF-8 become U+FFFD,
 * which text.invalid-character reports. Text is kept only for files with problems (the code frames),
 * so memory is bounded by those, not by the workspace. Reports come back in the input order.
 */
import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-types';
import { createAdapterService, createWorkspaceIndex, type CodeDeclaration, type ServiceOptions } from '../service';
import { indexFiles, validateFiles } from '../node/workspacePass';
import { CheckCache, contentHash } from './cache';
import { deps } from './deps';
import { UsageError, type Found } from './files';
import type { Io } from './io';
import { WorkerError, WorkerPool, type IndexedFile } from './parallel';
import type { FileReport } from './report';

const decoder = new TextDecoder('utf-8', { fatal: false });

export function readDecoded(path: string, cwd: string): string {
  try {
    return decoder.decode(readFileSync(path));
  } catch (e) {
    throw new UsageError(`cannot read '${relative(cwd, path)}': ${(e as Error).message}`);
  }
}

export interface CheckRun {
  /** Worker threads (1: in this process). */
  readonly jobs: number;
  /** The cache file, or undefined for no cache. */
  readonly cacheFile?: string;
}

type OnResult = (uri: string, diagnostics: Diagnostic[], text: string) => void;
interface Backend {
  index(uris: readonly string[]): Promise<IndexedFile[]>;
  validate(uris: readonly string[], declarations: [string, readonly CodeDeclaration[]][], onResult: OnResult): Promise<void>;
  close(): Promise<void>;
}

function inProcess(opts: ServiceOptions, cwd: string): Backend {
  const index = createWorkspaceIndex();
  const service = createAdapterService({ ...deps, workspace: index });
  const read = (uri: string) => readDecoded(fileURLToPath(uri), cwd);
  return {
    async index(uris) {
      const out: IndexedFile[] = [];
      for (const r of indexFiles(service, index, uris, read, () => opts)) out.push({ uri: r.uri, adapter: index.has(r.uri), decls: index.declaredIn(r.uri), refs: index.referencedIn(r.uri) });
      return out;
    },
    async validate(uris, declarations, onResult) {
      // The same index, in the same order, as a worker builds: the first declaration of a name wins.
      for (const uri of index.uris()) index.remove(uri);
      for (const [uri, decls] of declarations) index.update(uri, decls, []);
      for (const r of validateFiles(service, uris, read, () => opts)) onResult(r.uri, r.diagnostics, r.diagnostics.length ? r.text : '');
    },
    async close() { /* nothing to release */ },
  };
}

function pooled(pool: WorkerPool, opts: ServiceOptions): Backend {
  return {
    index: uris => pool.index(uris, opts),
    validate: (uris, declarations, onResult) => pool.validate(uris, declarations, opts, onResult),
    close: () => pool.close(),
  };
}

export async function checkFiles(files: readonly Found[], opts: ServiceOptions, io: Io, named: readonly string[], run: CheckRun = { jobs: 1 }): Promise<FileReport[]> {
  const byUri = new Map(files.filter(f => f.path !== run.cacheFile).map(f => [pathToFileURL(f.path).href, f] as const));
  const uris = [...byUri.keys()];
  const cache = run.cacheFile ? CheckCache.load(run.cacheFile, opts) : undefined;
  const hashes = new Map<string, string>();
  const known = new Map<string, IndexedFile>();
  if (cache) {
    for (const uri of uris) {
      const h = contentHash(readDecoded(byUri.get(uri)!.path, io.cwd));
      hashes.set(uri, h);
      const hit = cache.indexed(uri, h);
      if (hit) known.set(uri, hit);
    }
  }
  const toIndex = uris.filter(u => !known.has(u));
  const jobs = Math.max(1, Math.min(run.jobs, Math.floor(toIndex.length / 2) || 1));
  const backend: Backend = jobs > 1 ? pooled(new WorkerPool(jobs), opts) : inProcess(opts, io.cwd);
  try {
    for (const f of await backend.index(toIndex).catch(rethrow(io.cwd))) known.set(f.uri, f);
    const adapters = uris.filter(u => known.get(u)!.adapter);
    for (const uri of uris) {
      const f = byUri.get(uri)!;
      if (!known.get(uri)!.adapter && f.explicit) io.stderr(`${relative(io.cwd, f.path)}: not an adapter file (see README "Which files"); skipped\n`);
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
        if (hit) results.set(uri, { diagnostics: hit, text: hit.length ? readDecoded(byUri.get(uri)!.path, io.cwd) : '' });
        else toValidate.push(uri);
      }
    }
    await backend.validate(toValidate, declarations, (uri, diagnostics, text) => results.set(uri, { diagnostics, text })).catch(rethrow(io.cwd));
    if (cache) {
      for (const uri of uris) {
        const r = results.get(uri);
        cache.store(uri, hashes.get(uri)!, known.get(uri)!, r?.diagnostics);
      }
      cache.save();
    }
    return adapters.map(uri => {
      const path = byUri.get(uri)!.path, r = results.get(uri)!;
      return { path, rel: relative(io.cwd, path).split(sep).join('/'), uri, text: r.text, diagnostics: r.diagnostics };
    });
  } finally {
    await backend.close();
  }
}

const rethrow = (cwd: string) => (e: unknown): never => {
  if (e instanceof WorkerError && e.uri) throw new UsageError(`cannot read '${relative(cwd, fileURLToPath(e.uri))}': ${e.message}`);
  throw e;
};
