/**
 * An in-memory index of every adapter file's custom codes and code occurrences, implementing
 * WorkspaceCodes. Keyed by code name, declarations apart from uses, maintained per file: updating a
 * file costs its own entries; resolving a code costs O(1) plus that code's own declarations (never
 * the files that merely use it, never the workspace). Pure data: the LSP layer and the CLI feed it
 * what the service extracted from each file (declaredCodes / codeOccurrences); nothing here reads a file.
 */
import type { CodeDeclaration, CodeOccurrence, WorkspaceCodes } from '../model/workspace';

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
  /**
   * What other files' results depend on in one file: its declared codes with category, details
   * (names, types, required) and statuses, as a string; '' for a file that declares nothing.
   */
  signature(uri: string): string;
}

interface FileEntry { readonly decls: readonly CodeDeclaration[]; readonly occs: readonly CodeOccurrence[]; readonly sig: string }

type ByCode<T> = Map<string, Map<string, T[]>>;

function add<T extends { code: string }>(by: ByCode<T>, uri: string, items: readonly T[]): void {
  for (const x of items) {
    let files = by.get(x.code);
    if (!files) by.set(x.code, (files = new Map()));
    const list = files.get(uri);
    if (list) list.push(x); else files.set(uri, [x]);
  }
}

function drop<T extends { code: string }>(by: ByCode<T>, uri: string, items: readonly T[]): void {
  for (const x of items) {
    const files = by.get(x.code);
    if (!files) continue;
    files.delete(uri);
    if (!files.size) by.delete(x.code);
  }
}

export function declarationSignature(d: CodeDeclaration): string {
  return `${d.code}:${d.category ?? ''}:${d.details.map(x => `${x.name}/${x.type ?? ''}/${x.required ?? ''}`).join('+')}:${d.mapsFromHttp.join('+')}`;
}

export function createWorkspaceIndex(): WorkspaceIndex {
  const files = new Map<string, FileEntry>();
  const decls: ByCode<CodeDeclaration> = new Map();
  const occs: ByCode<CodeOccurrence> = new Map();

  const index: WorkspaceIndex = {
    update(uri, declarations, occurrences) {
      index.remove(uri);
      files.set(uri, { decls: declarations, occs: occurrences, sig: declarations.map(declarationSignature).join(',') });
      add(decls, uri, declarations);
      add(occs, uri, occurrences);
    },
    remove(uri) {
      const f = files.get(uri);
      if (!f) return;
      drop(decls, uri, f.decls);
      drop(occs, uri, f.occs);
      files.delete(uri);
    },
    uris: () => [...files.keys()],
    has: uri => files.has(uri),
    get size() { return files.size; },
    declaredIn: uri => files.get(uri)?.decls ?? [],
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
