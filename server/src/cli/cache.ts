/**
 * `check --cache` (as ESLint's): remembers, per file, its size, times and inode, the hash of its
 * content and options, what it declares and references, and its diagnostics with the version of the
 * cross-file facts they depend on — the declarations (in any other file) of every code name it
 * references, and, when it has a mapping.unknown-code (whose suggestions read every name), the set of
 * all declared names. A file whose size, mtime, ctime and inode are unchanged (and were not racy when
 * recorded) is not read at all; on any doubt it is read and hashed. A file is re-indexed when its
 * content changed and re-validated when its content or those facts changed; the whole cache is
 * dropped when the tool's version changes. Results equal a full check.
 *
 * Safety (issue 20, docs/robustness.md): the file lives outside the checked tree by default, is
 * signed with a per-user secret and checked entry by entry on load, never read or written through a
 * link, written atomically, and pruned of files that are gone (cacheStore.ts, cacheShape.ts). A cache
 * that cannot be used is one line on stderr; the run goes on without it and its result is unchanged.
 */
import { createHash } from 'node:crypto';
import { statSync, type Stats } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-types';
import type { CodeDeclaration } from '../service';
import { parseEntries, type Entry } from './cacheShape';
import { checkCachePath, readCache, Refusal, userSecret, writeCache } from './cacheStore';
import { VERSION } from './deps';
import type { IndexedFile } from './parallel';

export const contentHash = (text: string): string => createHash('sha1').update(text).digest('hex');

const declSig = (d: CodeDeclaration) =>
  `${d.uri}|${d.code}|${d.category ?? ''}|${d.details.map(x => `${x.name}/${x.type ?? ''}/${x.required ?? ''}`).join('+')}|${d.mapsFromHttp.join('+')}|${d.template ?? ''}`;

/** A file modified this close to when it was read may change again within the file system's time resolution. */
const RACY_MS = 2000;

type StatKey = readonly [number, number, number, number];
const statKey = (st: Stats): StatKey => [st.size, st.mtimeMs, st.ctimeMs, st.ino];
const sameStat = (a: readonly number[], b: readonly number[]) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];

/** What `probe` says of a file: its hash (undefined when unreadable) and, if unchanged, what it declares and references. */
export interface Probe {
  readonly hash?: string;
  readonly indexed?: IndexedFile;
}

export class CheckCache {
  private byCode = new Map<string, CodeDeclaration[]>();
  private allNames = '';
  private readonly stats = new Map<string, StatKey | null>();
  private readonly seen = new Set<string>();
  private dirty = false;
  private readonly started = Date.now();
  private constructor(
    private readonly file: string,
    private readonly secret: Buffer,
    private readonly entries: Map<string, Entry>,
  ) {}

  /** The cache at `file`, or undefined (with one note) when it may not be used: a link, a FIFO, a folder, a path leading out of `root`. */
  static open(file: string, root: string, note: (message: string) => void): CheckCache | undefined {
    try {
      checkCachePath(file, root);
      const secret = userSecret();
      let body: string | undefined;
      try {
        body = readCache(file, secret);
      } catch (e) {
        if (!(e instanceof Refusal) || !e.message.startsWith('not written by this user')) throw e;
        note(`cache not used: ${e.message}`);
      }
      return new CheckCache(file, secret, body === undefined ? new Map() : parseEntries(body, VERSION));
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      note(`cache not used: ${e.message}`);
      return undefined;
    }
  }

  /**
   * A file's hash and, when its content and options are unchanged, what it declares and references.
   * Size, times and inode first; the content is read (`read`) only when they differ or were racy.
   */
  probe(uri: string, path: string, optsKey: string, read: () => string | undefined): Probe {
    this.seen.add(uri);
    const e = this.entries.get(uri);
    let st: Stats | undefined;
    try {
      st = statSync(path);
    } catch {
      /* the read below reports it */
    }
    const key = st && statKey(st);
    if (e && key && e.stat && e.opts === optsKey && sameStat(e.stat, key)) {
      this.stats.set(uri, e.stat);
      return { hash: e.hash, indexed: { uri, adapter: e.adapter, decls: e.decls, refs: e.refs } };
    }
    const text = read();
    if (text === undefined) return {};
    const hash = contentHash(text + '\0' + optsKey);
    this.stats.set(uri, key && Math.max(key[1], key[2]) < this.started - RACY_MS ? key : null);
    if (!e || e.hash !== hash) return { hash };
    return { hash, indexed: { uri, adapter: e.adapter, decls: e.decls, refs: e.refs } };
  }

  /** The declarations of the whole run, before asking for results. */
  setWorkspace(declarations: readonly [string, readonly CodeDeclaration[]][]): void {
    this.byCode.clear();
    for (const [, ds] of declarations)
      for (const d of ds) {
        const list = this.byCode.get(d.code);
        if (list) list.push(d);
        else this.byCode.set(d.code, [d]);
      }
    this.allNames = contentHash([...this.byCode.keys()].sort().join(','));
  }

  /** The cached diagnostics of a file, if its content and every cross-file fact it read are unchanged. */
  result(uri: string, hash: string, refs: readonly string[]): Diagnostic[] | undefined {
    const e = this.entries.get(uri);
    if (!e || e.hash !== hash || !e.diagnostics || e.deps === undefined) return undefined;
    return e.deps === this.depsOf(uri, refs, e.diagnostics) ? e.diagnostics : undefined;
  }

  store(uri: string, hash: string, optsKey: string, f: IndexedFile, diagnostics: Diagnostic[] | undefined): void {
    const old = this.entries.get(uri);
    const stat = this.stats.get(uri) ?? null;
    const deps = diagnostics ? this.depsOf(uri, f.refs, diagnostics) : undefined;
    if (
      old &&
      old.hash === hash &&
      old.opts === optsKey &&
      (old.stat && stat ? sameStat(old.stat, stat) : old.stat === stat) &&
      old.deps === deps &&
      (diagnostics === undefined || old.diagnostics === diagnostics)
    )
      return;
    this.dirty = true;
    this.entries.set(uri, {
      hash,
      opts: optsKey,
      stat,
      adapter: f.adapter,
      decls: f.decls,
      refs: f.refs,
      ...(diagnostics ? { diagnostics, deps } : {}),
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
    try {
      writeCache(this.file, JSON.stringify({ version: 2, tool: VERSION, files: Object.fromEntries(this.entries) }), this.secret);
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      note(`cache not saved: ${e.message}`);
    }
  }

  private depsOf(uri: string, refs: readonly string[], diagnostics: readonly Diagnostic[]): string {
    const parts = [...refs].sort().map(
      code =>
        `${code}=${(this.byCode.get(code) ?? [])
          .filter(d => d.uri !== uri)
          .map(declSig)
          .join(';')}`,
    );
    if (diagnostics.some(d => d.code === 'mapping.unknown-code')) parts.push(`*=${this.allNames}`);
    return contentHash(parts.join('\n'));
  }
}
