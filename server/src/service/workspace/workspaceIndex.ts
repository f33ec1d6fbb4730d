/**
 * An in-memory index of every adapter file's custom codes and code occurrences, implementing
 * WorkspaceCodes. Keyed by code name, declarations apart from uses, maintained per file: updating a
 * file costs its own entries; resolving a code costs O(1) plus that code's own declarations (never
 * the files that merely use it, never the workspace). Pure data: the LSP layer and the CLI feed it
 * what the service extracted from each file (declaredCodes / codeOccurrences); nothing here reads a file.
 */
import type { CodeDeclaration, CodeOccurrence, WorkspaceCodes } from '../model/workspace';
import { flat } from '../parse/flat';

export interface WorkspaceIndex extends WorkspaceCodes {
  /** Replace what is known of one file. */
  update(uri: string, declarations: readonly CodeDeclaration[], occurrences: readonly CodeOccurrence[]): void;
  remove(uri: string): void;
  uris(): string[];
  /** Whether a file is indexed (an adapter file, with or without codes). */
  has(uri: string): boolean;
  /** How many files are indexed. */
  readonly size: number;
  /** The declarations of one file. */
  declaredIn(uri: string): readonly CodeDeclaration[];
  /** The code names one file's error_mapping references (each once). */
  referencedIn(uri: string): string[];
  /**
   * What other files' results depend on in one file: its declared codes with category, details
   * (names, types, required) and statuses, as a string; '' for a file that declares nothing.
   */
  signature(uri: string): string;
}

interface FileEntry {
  readonly decls: readonly CodeDeclaration[];
  readonly occs: readonly CodeOccurrence[];
  readonly sig: string;
}

type ByCode<T> = Map<string, Map<string, T[]>>;

function add<T extends { code: string }>(by: ByCode<T>, uri: string, items: readonly T[], born?: (code: string) => void): void {
  for (const x of items) {
    let files = by.get(x.code);
    if (!files) {
      by.set(x.code, (files = new Map()));
      born?.(x.code);
    }
    const list = files.get(uri);
    if (list) list.push(x);
    else files.set(uri, [x]);
  }
}

function drop<T extends { code: string }>(by: ByCode<T>, uri: string, items: readonly T[], died?: (code: string) => void): void {
  for (const x of items) {
    const files = by.get(x.code);
    if (!files) continue;
    files.delete(uri);
    if (!files.size) {
      by.delete(x.code);
      died?.(x.code);
    }
  }
}

/** Names are also filed by their first three letters (upper case), so completion of a typed prefix reads only those. */
const PREFIX = 3;
const bucketOf = (s: string) => s.slice(0, PREFIX).toUpperCase();

/**
 * Copies whose strings do not keep the file's whole text alive (a code name or template is a slice of
 * it): the index of 10,000 files then holds their codes, not their texts.
 */
const own = (s: string | undefined) => (s === undefined ? s : flat(s));
const ownDecl = (d: CodeDeclaration): CodeDeclaration => ({
  uri: d.uri,
  code: flat(d.code),
  range: d.range,
  category: own(d.category),
  template: own(d.template),
  description: own(d.description),
  details: d.details.map(x => ({ name: flat(x.name), type: own(x.type), required: x.required, description: own(x.description) })),
  mapsFromHttp: d.mapsFromHttp.map(s => (typeof s === 'string' ? flat(s) : s)),
});
const ownOcc = (o: CodeOccurrence): CodeOccurrence => ({ uri: o.uri, code: flat(o.code), range: o.range, kind: o.kind });

function declarationSignature(d: CodeDeclaration): string {
  return `${d.code}:${d.category ?? ''}:${d.details.map(x => `${x.name}/${x.type ?? ''}/${x.required ?? ''}`).join('+')}:${d.mapsFromHttp.join('+')}`;
}

export function createWorkspaceIndex(): WorkspaceIndex {
  const files = new Map<string, FileEntry>();
  const decls: ByCode<CodeDeclaration> = new Map();
  const occs: ByCode<CodeOccurrence> = new Map();
  const buckets = new Map<string, Set<string>>();
  const born = (code: string) => {
    const k = bucketOf(code);
    let b = buckets.get(k);
    if (!b) buckets.set(k, (b = new Set()));
    b.add(code);
  };
  const died = (code: string) => {
    const k = bucketOf(code);
    const b = buckets.get(k);
    b?.delete(code);
    if (b && !b.size) buckets.delete(k);
  };

  const index: WorkspaceIndex = {
    update(uri, declarations, occurrences) {
      index.remove(uri);
      declarations = declarations.map(ownDecl);
      occurrences = occurrences.map(ownOcc);
      files.set(uri, { decls: declarations, occs: occurrences, sig: declarations.map(declarationSignature).join(',') });
      add(decls, uri, declarations, born);
      add(occs, uri, occurrences);
    },
    remove(uri) {
      const f = files.get(uri);
      if (!f) return;
      drop(decls, uri, f.decls, died);
      drop(occs, uri, f.occs);
      files.delete(uri);
    },
    uris: () => [...files.keys()],
    *names(exceptUri, prefix) {
      const only = (code: string) => {
        const byFile = decls.get(code)!;
        return !(exceptUri !== undefined && byFile.size === 1 && byFile.has(exceptUri));
      };
      if (prefix && prefix.length >= PREFIX) {
        const p = prefix.toUpperCase();
        for (const code of buckets.get(bucketOf(prefix)) ?? []) if (code.toUpperCase().startsWith(p) && only(code)) yield code;
      } else {
        const p = prefix?.toUpperCase() ?? '';
        for (const code of decls.keys()) if ((!p || code.toUpperCase().startsWith(p)) && only(code)) yield code;
      }
    },
    has: uri => files.has(uri),
    get size() {
      return files.size;
    },
    declaredIn: uri => files.get(uri)?.decls ?? [],
    referencedIn: uri => [...new Set((files.get(uri)?.occs ?? []).filter(o => o.kind === 'reference').map(o => o.code))],
    signature: uri => files.get(uri)?.sig ?? '',
    declarations(code, exceptUri) {
      const byFile = decls.get(code);
      if (!byFile) return [];
      const out: CodeDeclaration[] = [];
      for (const [uri, list] of byFile) if (uri !== exceptUri) out.push(...list);
      return out;
    },
    *allDeclarations(exceptUri) {
      for (const [uri, f] of files) if (uri !== exceptUri) yield* f.decls;
    },
    occurrences(code, exceptUri) {
      const byFile = occs.get(code);
      if (!byFile) return [];
      const out: CodeOccurrence[] = [];
      for (const [uri, list] of byFile) if (uri !== exceptUri) out.push(...list);
      return out;
    },
  };
  return index;
}
