/**
 * `check --cache` (as ESLint's): one JSON file remembering, per file, the hash of its content, what it
 * declares and references, and its diagnostics with the version of the cross-file facts they depend
 * on — the declarations (in any other file) of every code name it references, and, when it has a
 * mapping.unknown-code (whose suggestions read every name), the set of all declared names; in the
 * order of the run, since the first declaration of a name wins. A file is
 * re-indexed when its content changed and re-validated when its content or those facts changed; the
 * whole cache is dropped when the tool's version changes. Results equal a full check.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import type { Diagnostic } from 'vscode-languageserver-types';
import type { CodeDeclaration } from '../service';
import { VERSION } from './deps';
import type { IndexedFile } from './parallel';

interface Entry {
  hash: string;
  adapter: boolean;
  decls: readonly CodeDeclaration[];
  refs: string[];
  deps?: string;
  diagnostics?: Diagnostic[];
}
interface CacheData {
  version: 1;
  config: string;
  files: Record<string, Entry>;
}

export const contentHash = (text: string): string => createHash('sha1').update(text).digest('hex');

const declSig = (d: CodeDeclaration) =>
  `${d.uri}|${d.code}|${d.category ?? ''}|${d.details.map(x => `${x.name}/${x.type ?? ''}/${x.required ?? ''}`).join('+')}|${d.mapsFromHttp.join('+')}|${d.template ?? ''}`;

export class CheckCache {
  private byCode = new Map<string, CodeDeclaration[]>();
  private allNames = '';
  private constructor(
    private readonly file: string,
    private readonly config: string,
    private data: CacheData,
  ) {}

  /** `hash` of an entry covers the file's content and its options (config files give each file its own). */
  static load(file: string): CheckCache {
    const config = contentHash(JSON.stringify({ VERSION }));
    let data: CacheData = { version: 1, config, files: {} };
    try {
      const read = JSON.parse(readFileSync(file, 'utf8')) as CacheData;
      if (read && read.version === 1 && read.config === config && read.files && typeof read.files === 'object') data = read;
    } catch {
      /* no cache yet, or unreadable: start empty */
    }
    return new CheckCache(file, config, data);
  }

  /** What a file declares and references, if its content is unchanged. */
  indexed(uri: string, hash: string): IndexedFile | undefined {
    const e = this.data.files[uri];
    return e && e.hash === hash ? { uri, adapter: e.adapter, decls: e.decls, refs: e.refs } : undefined;
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
    const e = this.data.files[uri];
    if (!e || e.hash !== hash || !e.diagnostics || e.deps === undefined) return undefined;
    return e.deps === this.depsOf(uri, refs, e.diagnostics) ? e.diagnostics : undefined;
  }

  store(uri: string, hash: string, f: IndexedFile, diagnostics: Diagnostic[] | undefined): void {
    this.data.files[uri] = {
      hash,
      adapter: f.adapter,
      decls: f.decls,
      refs: f.refs,
      ...(diagnostics ? { diagnostics, deps: this.depsOf(uri, f.refs, diagnostics) } : {}),
    };
  }

  save(): void {
    try {
      writeFileSync(this.file, JSON.stringify({ ...this.data, config: this.config }));
    } catch {
      /* a cache that cannot be written only costs time */
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
