/**
 * `check --cache` (as ESLint's): remembers, per file, its size, times and inode, the hash of its
 * content and options, what it declares and references, and its diagnostics with the version of the
 * cross-file facts they depend on — the declarations (in any file) of every code name it
 * references, and, when it has a mapping.unknown-code (whose suggestions read every name), the set of
 * all declared names. A file whose size, mtime, ctime and inode are unchanged (and were not racy when
 * recorded) is not read at all; on any doubt it is read and hashed. A file is re-indexed when its
 * content changed and re-validated when its content or those facts changed (a result found current
 * under the last run's declarations stays current, without its key made again, when none of the names it
 * read changed since: cacheKeys.ts `changedSince`); the whole cache is
 * dropped when the tool's version, registry or adapter schema changes. Results equal a full check.
 *
 * Safety (docs/robustness.md): the file lives outside the checked tree by default, is
 * signed with a per-user secret and checked entry by entry on load, never read or written through a
 * link, written atomically, and pruned of files that are gone (cacheStore.ts, cacheShape.ts). A cache
 * that cannot be used is one line on stderr; the run goes on without it and its result is unchanged.
 */
import { randomBytes } from 'node:crypto';
import { statSync, type Stats } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-types';
import type { CodeDeclaration } from '../../service';
import { declText, decodeDecls, declaresOneOf, decodeRefs, DetailsTable, encodeDecls, encodeRefs, type Entry } from './shape';
import { encodeEntries, parseEntries, type Parsed, type Source } from './body';
import { FileStats, sameStat } from './stat';
import { checkCachePath, readCache, Refusal, userSecret, writeCache } from './store';
import { changedSince, contentHash, dependencyKey, namesIn, readsAllNames, toolKey } from './keys';
import type { IndexedFile } from '../indexedFile';

export { contentHash, readsAllNames };

/** What `probe` says of a file: its hash (undefined when unreadable), and whether its content and options are unchanged. */
export interface Probe {
  readonly hash?: string;
  readonly hit?: boolean;
}

export class CheckCache {
  private readonly stats = new FileStats();
  private readonly seen = new Set<string>();
  /** Files whose content and options are unchanged, and those whose cached diagnostics were found current. */
  private readonly hits = new Set<string>();
  private readonly verified = new Set<string>();
  /** The run's declarations, read when a dependency is first compared (the caller decodes them before: `stale`). */
  private declarations: () => readonly [string, readonly CodeDeclaration[]][] = () => [];
  private byCode?: Map<string, CodeDeclaration[]>;
  private readonly declFps = new Map<string, string>();
  private adapters: readonly string[] = [];
  private declsOf: (uri: string) => readonly CodeDeclaration[] = () => [];
  /** Names whose declarations changed since the last run (null: not known). */
  private changed?: Set<string> | null;
  private allNames?: string;
  private fp = '';
  private dirty = false;
  private constructor(
    private readonly file: string,
    private readonly secret: Buffer,
    private readonly entries: Map<string, Entry>,
    /** What the entries were read from (cacheBody.ts): an entry left as it was is written back as it was read. */
    private readonly source: Source | undefined,
    private readonly table: DetailsTable,
    /** The workspace fingerprint of the last run that needed the set of all names, and that set's fingerprint. */
    private names: readonly [string, string] | undefined,
    /** The workspace fingerprint of the run that wrote the cache. */
    private readonly last: string | undefined,
  ) {}

  /** The cache at `file`, or undefined (with one note) when it may not be used: a link, a FIFO, a folder, a path leading out of `root`. */
  static open(file: string, root: string, note: (message: string) => void): CheckCache | undefined {
    try {
      checkCachePath(file, root);
      const secret = userSecret();
      let body: Buffer | undefined;
      try {
        body = readCache(file, secret);
      } catch (e) {
        if (!(e instanceof Refusal) || !e.message.startsWith('not written by this user')) throw e;
        note(`cache not used: ${e.message}`);
      }
      const p: Parsed =
        body === undefined
          ? { entries: new Map<string, Entry>(), table: new DetailsTable(), names: undefined }
          : parseEntries(body, toolKey());
      return new CheckCache(file, secret, p.entries, p.source, p.table, p.names, p.last);
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      note(`cache not used: ${e.message}`);
      return undefined;
    }
  }

  /**
   * A file's hash and whether its content and options are unchanged. Size, times and inode first (`found`:
   * as the listing found them, taken before the read; else asked now); the content is read (`read`) only
   * when they differ or were racy.
   */
  probe(uri: string, path: string, optsKey: string, read: () => string | undefined, found?: Stats): Probe {
    this.seen.add(uri);
    const e = this.entries.get(uri);
    const key = this.stats.look(uri, path, found);
    if (e && key && e.stat && e.opts === optsKey && sameStat(e.stat, key)) {
      this.stats.trusted(uri, e.stat);
      this.hits.add(uri);
      return { hash: e.hash, hit: true };
    }
    const text = read();
    if (text === undefined) return {};
    const hash = contentHash(text + '\0' + optsKey);
    this.stats.read(uri);
    if (!e || e.hash !== hash) return { hash };
    this.hits.add(uri);
    return { hash, hit: true };
  }

  /** Whether an unchanged file is an adapter, without decoding its entry. */
  isAdapter(uri: string): boolean {
    return this.entries.get(uri)?.adapter ?? false;
  }

  /** An unchanged file's declarations and references, or undefined (and no longer a hit) when its entry has the wrong shape. */
  decoded(uri: string): IndexedFile | undefined {
    const e = this.entries.get(uri)!;
    const decls = decodeDecls(uri, e.decls, this.table);
    const refs = decls && decodeRefs(e.refs, decls);
    if (decls && refs) return { uri, adapter: e.adapter, decls, refs };
    this.hits.delete(uri);
    this.entries.delete(uri);
    return undefined;
  }

  /**
   * An unchanged file's declared names, read from its entry without decoding it, or undefined when the
   * entry has the wrong shape: what "did you mean" and the code scope read of a code no validated file references.
   */
  namesOf(uri: string): string[] | undefined {
    return namesIn(this.entries.get(uri)?.decls ?? '');
  }

  /** True when some unchanged adapter's diagnostics were found current under other declarations than this run's (their dependencies must be compared). */
  stale(adapters: readonly string[]): boolean {
    return adapters.some(u => {
      const e = this.entries.get(u);
      return e !== undefined && this.hits.has(u) && e.diagnostics !== undefined && e.wsfp !== this.fp;
    });
  }

  /** Of these unchanged files, those whose entry declares one of `codes` (read from the entry's text, without decoding it). */
  declaring(codes: ReadonlySet<string>, uris: readonly string[]): string[] {
    return uris.filter(u => declaresOneOf(this.entries.get(u)?.decls ?? '', codes));
  }

  /** The declarations of the whole run (in run order, read lazily), before asking for results. */
  setWorkspace(adapters: readonly string[], declsOf: (uri: string) => readonly CodeDeclaration[]): void {
    this.adapters = adapters;
    this.declsOf = declsOf;
    this.changed = undefined;
    this.declarations = () => adapters.map(u => [u, declsOf(u)]);
    this.byCode = undefined;
    this.declFps.clear();
    this.allNames = undefined;
    this.fp = this.fingerprint(adapters, declsOf);
  }

  /** The cached diagnostics of a file, if its content and every cross-file fact it read are unchanged. */
  result(uri: string, hash: string, refs: () => readonly string[]): Diagnostic[] | undefined {
    const e = this.entries.get(uri);
    if (!e || !this.hits.has(uri) || e.hash !== hash || !e.diagnostics || e.deps === undefined) return undefined;
    if (e.wsfp !== this.fp && !this.unaffected(e, refs) && e.deps !== this.depsOf(refs(), e.diagnostics)) return undefined;
    this.verified.add(uri);
    return e.diagnostics;
  }

  /** Of these files, those whose cached result read every name: validated with every declaration at once, as they most likely still do. */
  readingAllNames(uris: readonly string[]): string[] {
    return uris.filter(u => {
      const d = this.entries.get(u)?.diagnostics;
      return d !== undefined && readsAllNames(d);
    });
  }

  /** Remember a file: an unchanged one keeps its entry (new times, the current workspace); another gets a new one. */
  store(uri: string, hash: string, optsKey: string, f: IndexedFile, diagnostics: Diagnostic[] | undefined): void {
    const old = this.entries.get(uri);
    const stat = this.stats.keptFor(uri);
    const statSame = old && (old.stat && stat ? sameStat(old.stat, stat) : old.stat === stat);
    if (old && this.hits.has(uri) && (this.verified.has(uri) || (!old.adapter && diagnostics === undefined))) {
      const wsfp = this.verified.has(uri) ? this.fp : old.wsfp;
      if (statSame && wsfp === old.wsfp) return;
      this.entries.set(uri, { ...old, stat, ...(wsfp === undefined ? {} : { wsfp }) });
      this.dirty = true;
      return;
    }
    this.dirty = true;
    if (this.stats.changedSinceProbe(uri)) {
      // Changed while it was checked: a worker may have read another text than the one hashed. Kept nowhere.
      this.entries.delete(uri);
      return;
    }
    const decls = encodeDecls(f.decls, this.table);
    this.entries.set(uri, {
      hash,
      opts: optsKey,
      stat,
      adapter: f.adapter,
      decls,
      refs: encodeRefs(f.refs, f.decls),
      declFp: this.declFpOf(uri, f.decls),
      ...(diagnostics ? { diagnostics, deps: this.depsOf(f.refs, diagnostics), wsfp: this.fp } : {}),
    });
  }

  /** Drop entries of files that are gone, and write the cache if anything changed. */
  save(note: (message: string) => void): void {
    for (const uri of [...this.entries.keys()]) {
      if (this.seen.has(uri)) continue;
      let gone = false;
      try {
        gone = !statSync(fileURLToPath(uri)).isFile();
      } catch {
        gone = true;
      }
      if (gone) {
        this.entries.delete(uri);
        this.dirty = true;
      }
    }
    if (!this.dirty) return;
    // This run's adapters first, in its order: the next run rebuilds this workspace from them (`changedSince`).
    const ordered = new Map<string, Entry>();
    for (const u of this.adapters) {
      const e = this.entries.get(u);
      if (e) ordered.set(u, e);
    }
    for (const [u, e] of this.entries) if (!ordered.has(u)) ordered.set(u, e);
    try {
      writeCache(this.file, encodeEntries(ordered, this.table, toolKey(), this.names, this.fp, this.source), this.secret);
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      note(`cache not saved: ${e.message}`);
    }
  }

  /** Whether a result found current under the last run's declarations read none that changed since (`changedSince`). */
  private unaffected(e: Entry, refs: () => readonly string[]): boolean {
    if (this.last === undefined || e.wsfp !== this.last || readsAllNames(e.diagnostics ?? [])) return false;
    if (this.changed === undefined)
      this.changed =
        changedSince(
          this.last,
          this.entries,
          this.adapters,
          (u, declFp) => this.hits.has(u) || this.declFpOf(u, this.declsOf(u)) === declFp,
          u => this.namesNow(u),
        ) ?? null;
    const changed = this.changed;
    return changed !== null && !refs().some(r => changed.has(r));
  }

  /**
   * The fingerprint of the set of all declared names (sorting 100,000 names takes a while): the same
   * workspace fingerprint means the same names, so the last run's is taken when it had the same. An
   * unchanged file's names come from its entry (its declarations may not be decoded).
   */
  private namesFp(): string {
    if (this.allNames === undefined) {
      if (this.names?.[0] === this.fp) this.allNames = this.names[1];
      else {
        const all = new Set<string>();
        for (const u of this.adapters) {
          const names = this.namesNow(u);
          // Not readable (it was then decoded or indexed again, so this does not happen): a fingerprint no run repeats.
          if (!names) return (this.allNames = contentHash(randomBytes(32).toString('hex')));
          for (const n of names) all.add(n);
        }
        this.allNames = contentHash([...all].sort().join(','));
        this.names = [this.fp, this.allNames];
      }
    }
    return this.allNames;
  }

  /** A file's declared names in this run: an unchanged one's from its entry. */
  private namesNow(uri: string): readonly string[] | undefined {
    return this.hits.has(uri) ? namesIn(this.entries.get(uri)?.decls ?? '') : this.declsOf(uri).map(d => d.code);
  }

  /** The run's declarations as one value: each adapter (in run order) with the fingerprint of what it declares. */
  private fingerprint(adapters: readonly string[], declsOf: (uri: string) => readonly CodeDeclaration[] | undefined): string {
    // One text hashed once: an update per file costs more than the hashing (10,000 files: ~50 ms).
    const parts: string[] = [];
    for (const u of adapters) {
      const e = this.entries.get(u);
      parts.push(u, '\0', e && this.hits.has(u) ? e.declFp : this.declFpOf(u, declsOf(u) ?? []), '\n');
    }
    return contentHash(parts.join(''));
  }

  /** The fingerprint of a changed file's declarations (made once: the workspace's and its entry's). */
  private declFpOf(uri: string, decls: readonly CodeDeclaration[]): string {
    let fp = this.declFps.get(uri);
    if (fp === undefined) this.declFps.set(uri, (fp = contentHash(declText(decls))));
    return fp;
  }

  /** A result's dependency key (cacheKeys.ts), over the run's declarations by code name (made at the first). */
  private depsOf(refs: readonly string[], diagnostics: readonly Diagnostic[]): string {
    if (!this.byCode) {
      this.byCode = new Map();
      for (const [, ds] of this.declarations())
        for (const d of ds) {
          const list = this.byCode.get(d.code);
          if (list) list.push(d);
          else this.byCode.set(d.code, [d]);
        }
    }
    return dependencyKey(refs, diagnostics, this.byCode, () => this.namesFp());
  }
}
