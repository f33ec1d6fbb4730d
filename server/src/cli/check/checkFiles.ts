/**
 * The CLI's side of the shared "adapter files → index → validate" path (node/workspacePass): index
 * every adapter, then validate each against the whole index — in this process, or on all cores
 * (cli/check/pool.ts) — with an optional cache (cli/cache/checkCache.ts). Bytes that are not UTF-8 become U+FFFD,
 * which text.invalid-character reports. Reports stream in the input order: each is handed to
 * `onReport` as soon as every file before it was, then dropped (its text, kept only for a file with
 * problems, is for the code frames), so memory is bounded by the workers, not by the workspace. Only
 * regular files are read, without blocking (docs/robustness.md); a file that cannot be read — gone since the
 * listing, swapped for a FIFO — is one message on stderr and the run goes on. Standard input and a
 * fix pass (--stdin, --fix) run in this process, without the cache.
 */
import { relative, sep } from 'node:path';
import type { Diagnostic } from 'vscode-languageserver-types';
import type { AdapterService, CodeDeclaration, ServiceOptions } from '../../service';
import { fileUri, pathFromUri } from '../../node/bytePaths';
import type { ReadResult } from '../../node/readRegularFile';
import { CheckCache, contentHash, readsAllNames } from '../cache';
import { UsageError, type Found } from '../files';
import { escapeControls, shownPath } from '../format';
import type { Io } from '../io';
import { DeclarationsByCode } from './batchWorkspace';
import { inProcess, readText, type Backend, type OnResult, type Opts } from './inProcess';
import type { IndexedFile, ReadFailure } from '../indexedFile';
import { WorkerPool } from './pool';
import type { FileReport } from '../report';

export { readText };

/** How many characters of the texts `--cache` read to hash them are kept for this process's passes. */
const READ_ONCE = 8 * 1024 * 1024;

/** Failures, each said once on stderr. */
class Failures {
  readonly byPath = new Map<string, Exclude<ReadResult, { ok: true }>>();
  constructor(private readonly io: Io) {}
  add = (f: ReadFailure) => {
    if (this.byPath.has(f.path)) return;
    this.byPath.set(f.path, { ok: false, reason: f.reason, message: f.message });
    this.io.stderr(`${shownPath(relative(this.io.cwd, f.path))}: cannot read: ${f.message}; skipped\n`);
  };
  /** Files that exist but could not be read (not those gone since the listing, nor FIFOs and devices). */
  get unreadable(): number {
    return [...this.byPath.values()].filter(r => r.reason === 'error').length;
  }
}

interface CheckResult {
  /** Adapter files reported. */
  readonly files: number;
  /** Files that exist but could not be read (not those gone since the listing, nor FIFOs and devices). */
  readonly unreadable: number;
}

/** How a run goes: threads, cache, texts that replace the files' (standard input), a fix pass between indexing and validating. */
interface CheckPass {
  /** Worker threads (default 1: in this process), or how many for a number of files to index (those the cache does not know). */
  readonly jobs?: number | ((toIndex: number) => number);
  /** The cache file, or undefined for no cache. */
  readonly cacheFile?: string;
  /** Whether a report shows the files' lines (text's code frames, codeclimate's fingerprints); if not, a cached file with problems is not read again. */
  readonly lines?: boolean;
  readonly texts?: ReadonlyMap<string, string>;
  /** No adapter file at all is fine (--no-error-on-unmatched-pattern): an empty report, not a usage error. */
  readonly allowNone?: boolean;
  /** Returns the fixed texts (by URI) that the validation then reads instead of the files. */
  readonly fix?: (
    service: AdapterService,
    adapters: readonly string[],
    read: (uri: string) => string | undefined,
  ) => Promise<ReadonlyMap<string, string>>;
}

function pooled(pool: WorkerPool, opts: Opts, failures: Failures): Backend {
  return {
    index: uris => pool.index(uris, opts, failures.add),
    validate(uris, declarations, refs, onResult, _asIndexed, names) {
      // What each file's batch needs, worked out once; then only the declarations some batch needs are
      // kept, and neither `declarations` nor `refs` is held while the batches run (the caller may drop them).
      const { byCode, needs } = DeclarationsByCode.forRun(declarations, uris, refs, names);
      pool.names(byCode);
      return pool.validate(
        uris,
        opts,
        byCode,
        uri => {
          const n = needs.get(uri) ?? [];
          needs.delete(uri); // each file's batch is made once
          return n;
        },
        (batch, results, failed) => {
          failed.forEach(failures.add);
          const byUri = new Map(results.map(r => [r.uri, r]));
          for (const uri of batch) onResult(uri, byUri.get(uri));
        },
      );
    },
    close: () => pool.close(),
  };
}

export async function checkFiles(
  files: readonly Found[],
  options: ServiceOptions | Opts,
  io: Io,
  named: readonly string[],
  onReport: (r: FileReport) => void,
  pass: CheckPass = {},
): Promise<CheckResult> {
  const opts: Opts = typeof options === 'function' ? options : () => options;
  const inputs = !!(pass.texts?.size || pass.fix);
  const byUri = new Map(files.filter(f => f.path !== pass.cacheFile).map(f => [fileUri(f.path), f] as const));
  const uris = [...byUri.keys()];
  /** Each file as listed (a thread reads it by this path rather than converting its URI back). */
  const pathOf = (uri: string) => byUri.get(uri)?.path ?? pathFromUri(uri);
  /** Each file's size as listed (the pool's index pass counts bytes); a file listed without its metadata counts as empty. */
  const sizeOf = (uri: string) => byUri.get(uri)?.st?.size ?? 0;
  const failures = new Failures(io);
  const cacheNote = (m: string) => io.stderr(`${escapeControls(relative(io.cwd, pass.cacheFile!))}: ${m}\n`);
  const cache = pass.cacheFile && !inputs ? CheckCache.open(pass.cacheFile, io.cwd, cacheNote) : undefined;
  const hashes = new Map<string, string>();
  const optsKeys = new Map<string, string>();
  const known = new Map<string, IndexedFile>();
  // Unchanged files: known from their entries, declarations and references decoded only where a step needs them.
  const hits: string[] = [];
  const lazy = new Set<string>();
  // The texts the probe read (changed files), up to READ_ONCE characters: the in-process passes take them
  // instead of reading again, so a file's result comes from the very text its hash was made of.
  const probed = new Map<string, string>();
  let probedChars = 0;
  if (cache) {
    const keyOf = new Map<string, string>();
    const byObject = new Map<ServiceOptions, string>(); // the same options object: the same text, not made again
    for (const uri of uris) {
      const { path, st } = byUri.get(uri)!;
      const o = opts(uri);
      let optsKey = byObject.get(o);
      if (optsKey === undefined) {
        const json = JSON.stringify(o);
        optsKey = keyOf.get(json) ?? contentHash(json);
        keyOf.set(json, optsKey);
        byObject.set(o, optsKey);
      }
      const p = cache.probe(
        uri,
        path,
        optsKey,
        () => {
          const text = readText(path, failures.add);
          if (text !== undefined && (probedChars += text.length) <= READ_ONCE) probed.set(uri, text);
          return text;
        },
        st,
      );
      if (p.hash === undefined) {
        known.set(uri, { uri, adapter: false, decls: [], refs: [] });
        continue;
      }
      hashes.set(uri, p.hash);
      optsKeys.set(uri, optsKey);
      if (!p.hit) continue;
      hits.push(uri);
      lazy.add(uri);
      known.set(uri, { uri, adapter: cache.isAdapter(uri), decls: [], refs: [] });
    }
  }
  const toIndex = uris.filter(u => !known.has(u));
  const wanted = typeof pass.jobs === 'function' ? pass.jobs(toIndex.length) : (pass.jobs ?? 1);
  const jobs = inputs ? 1 : Math.max(1, Math.min(wanted, Math.floor(toIndex.length / 2) || 1));
  if (jobs > 1) probed.clear(); // the workers read for themselves
  const backend =
    jobs > 1
      ? pooled(new WorkerPool(jobs, true, undefined, pathOf, undefined, sizeOf), opts, failures) // the main thread is one of the `jobs` threads
      : inProcess(opts, failures.add, cache ? { ...pass, texts: probed } : { ...pass, alone: uris.length === 1 }, undefined, pathOf);
  /** Decode these unchanged files' entries; one of the wrong shape is indexed again instead. */
  const decode = async (which: readonly string[]) => {
    const again: string[] = [];
    for (const u of which) {
      if (!lazy.delete(u)) continue;
      const f = cache!.decoded(u);
      if (f) known.set(u, f);
      else again.push(u);
    }
    for (const f of await backend.index(again)) known.set(f.uri, f);
  };
  try {
    for (const f of await backend.index(toIndex)) known.set(f.uri, f);
    const adapters = uris.filter(u => known.get(u)!.adapter);
    for (const uri of uris) {
      const f = byUri.get(uri)!;
      if (!known.get(uri)!.adapter && f.explicit && !failures.byPath.has(f.path))
        io.stderr(`${shownPath(relative(io.cwd, f.path))}: not an adapter file (see README "Which files"); skipped\n`);
    }
    if (!adapters.length && pass.allowNone) return { files: 0, unreadable: failures.unreadable };
    if (!adapters.length) throw new UsageError(`no adapter files found in ${named.length ? named.join(' ') : 'the current directory'}`);
    for (const f of (await backend.fix?.(adapters)) ?? []) known.set(f.uri, f);
    const refsOf = (uri: string) => known.get(uri)!.refs;
    const declarationsNow = () => adapters.map(u => [u, known.get(u)!.decls] as [string, readonly CodeDeclaration[]]);
    /**
     * Without a cache nothing here reads a file's declarations or references once the validation starts:
     * the backend takes them (the pool keeps only what some batch needs) and this side lets them go.
     */
    const validateHandingOver = (which: readonly string[], onResult: OnResult) => {
      const all = declarationsNow();
      const refs = new Map(adapters.map(u => [u, known.get(u)!.refs] as const));
      for (const u of adapters) known.set(u, { uri: u, adapter: true, decls: [], refs: [] });
      return backend.validate(which, all, u => refs.get(u) ?? [], onResult, true);
    };
    /** Results of the cache, and of validated files waiting for an earlier one. */
    const ready = new Map<string, { diagnostics: Diagnostic[]; text: string } | undefined>();
    let toValidate = adapters;
    if (cache) {
      // The declarations changed (not only comments or mappings): every entry's dependencies are compared, so decode all.
      cache.setWorkspace(adapters, u => known.get(u)!.decls);
      if (cache.stale(adapters)) await decode(hits);
      toValidate = [];
      for (const uri of adapters) {
        const hit = cache.result(uri, hashes.get(uri)!, () => known.get(uri)!.refs);
        const text = hit?.length && pass.lines !== false ? readText(byUri.get(uri)!.path, failures.add) : '';
        if (hit && text !== undefined) ready.set(uri, { diagnostics: hit, text });
        else toValidate.push(uri);
      }
    }
    // Hand over each adapter's report in the input order: a validated file comes in toValidate's order,
    // so every cached one before it can go first.
    let next = 0,
      reported = 0;
    /** With --cache, every result (the cache file holds them all anyway), stored in the input order at the end. */
    const forCache = new Map<string, Diagnostic[]>();
    const handOver = (until: number) => {
      for (; next < until; next++) {
        const uri = adapters[next]!,
          r = ready.get(uri);
        ready.delete(uri);
        if (r && cache) forCache.set(uri, r.diagnostics);
        if (!r) continue;
        const path = byUri.get(uri)!.path;
        reported++;
        onReport({ path, rel: relative(io.cwd, path).split(sep).join('/'), uri, text: r.text, diagnostics: r.diagnostics });
      }
    };
    const position = new Map(adapters.map((u, i) => [u, i] as const));
    // Every file to validate, every entry decoded (a cold cache): the `else` below, one streamed pass as without a cache.
    if (cache && toValidate.length && (lazy.size || toValidate.length < adapters.length)) {
      // A file's diagnostics read only the declarations of the codes it references (the cache's own
      // model of what they depend on), and every name when it has a mapping.unknown-code: validate
      // against those declarations, and again against all of them where the suggestions need it.
      await decode(toValidate);
      const needed = new Set(toValidate.flatMap(u => known.get(u)!.refs));
      await decode(cache.declaring(needed, [...lazy]));
      const some = declarationsNow().map(([u, ds]) => [u, ds.filter(d => needed.has(d.code))] as [string, readonly CodeDeclaration[]]);
      const got = new Map<string, { diagnostics: Diagnostic[]; text: string } | undefined>();
      // When some file's last result read every name, every file is validated with them at once (more
      // names change no other result); else those that now read them are validated again, with them.
      const first = cache.readingAllNames(toValidate).length ? [] : toValidate;
      if (first.length) await backend.validate(first, some, refsOf, (uri, r) => got.set(uri, r), false);
      const again = first.length ? first.filter(u => readsAllNames(got.get(u)?.diagnostics ?? [])) : toValidate;
      if (again.length) {
        // Every name: an unchanged file's from its entry (not decoded), the declarations those of `needed`.
        const light = new Map(adapters.filter(u => lazy.has(u)).map(u => [u, cache.namesOf(u)] as const));
        await decode([...light].filter(([, ns]) => !ns).map(([u]) => u));
        const names = adapters.map(u => [u, light.get(u) ?? known.get(u)!.decls.map(d => d.code)] as [string, readonly string[]]);
        await backend.validate(again, some, refsOf, (uri, r) => got.set(uri, r), false, names);
      }
      for (const [uri, r] of got) ready.set(uri, r);
    } else if (toValidate.length) {
      const onResult = (uri: string, r: { diagnostics: Diagnostic[]; text: string } | undefined) => {
        ready.set(uri, r);
        handOver(position.get(uri)! + 1);
      };
      await (cache ? backend.validate(toValidate, declarationsNow(), refsOf, onResult, false) : validateHandingOver(toValidate, onResult));
    }
    handOver(adapters.length);
    if (cache) {
      await backend.close(); // the workers' memory goes before the cache's entries are made and written
      for (const uri of uris)
        if (hashes.has(uri)) cache.store(uri, hashes.get(uri)!, optsKeys.get(uri)!, known.get(uri)!, forCache.get(uri));
      cache.save(cacheNote);
    }
    return { files: reported, unreadable: failures.unreadable };
  } finally {
    await backend.close();
  }
}
