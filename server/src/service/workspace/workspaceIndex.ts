/**
 * An in-memory index of every adapter file's custom codes and code occurrences, implementing
 * WorkspaceCodes. Keyed by code name, declarations apart from uses, maintained per file: updating a
 * file costs its own entries; resolving a code costs O(1) plus that code's own declarations (never
 * the files that merely use it, never the workspace). Pure data: the LSP layer and the CLI feed it
 * what the service extracted from each file (declaredCodes / codeOccurrences); nothing here reads a file.
 */
import type { CodeDeclaration, CodeOccurrence, WorkspaceCodes } from '../model/workspace';
import { flat } from '../parse/flat';
import { NameTable, type WalkStats } from '../util/nameTable';

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
   * The code names whose declarations in other files one file's diagnostics depend on: those it
   * references and those it declares (code.declared-elsewhere), each once (the CLI cache's keys).
   */
  dependsOn(uri: string): string[];
  /**
   * What other files' results depend on in one file: its declared codes with category, details
   * (names, types, required) and statuses, as a string; '' for a file that declares nothing.
   */
  signature(uri: string): string;
}

type Detail = CodeDeclaration['details'][number];

/**
 * A declaration as the index keeps it: the range as four numbers, strings flattened, and the details
 * and status lists shared by every declaration of the file that has the same ones (a generated file of
 * 10,000 codes holds one details list, not 10,000). The CodeDeclaration is made again when read.
 */
interface PackedDecl {
  readonly code: string;
  readonly sl: number;
  readonly sc: number;
  readonly el: number;
  readonly ec: number;
  readonly category: string | undefined;
  readonly template: string | undefined;
  readonly description: string | undefined;
  readonly details: readonly Detail[];
  readonly maps: readonly (number | string)[];
}

/** Occurrences of one file: their code names, and per occurrence five numbers (range, then 1 for a declaration). */
interface PackedOccs {
  readonly codes: readonly string[];
  readonly at: Int32Array;
}

interface FileEntry {
  readonly decls: readonly PackedDecl[];
  readonly occs: PackedOccs;
  readonly sig: string;
}

/**
 * Code name → the files that hold it → their items. Most names live in one file: that is kept as one
 * pair, and a map of files is made only for a name in two or more.
 */
type Holders<T> = { readonly uri: string; readonly items: T[] } | Map<string, T[]>;
type ByCode<T> = Map<string, Holders<T>>;

function add<T>(by: ByCode<T>, uri: string, code: string, item: T, born?: (code: string) => void): void {
  const h = by.get(code);
  if (!h) {
    by.set(code, { uri, items: [item] });
    born?.(code);
  } else if (!(h instanceof Map)) {
    if (h.uri === uri) h.items.push(item);
    else
      by.set(
        code,
        new Map([
          [h.uri, h.items],
          [uri, [item]],
        ]),
      );
  } else {
    const list = h.get(uri);
    if (list) list.push(item);
    else h.set(uri, [item]);
  }
}

function drop<T>(by: ByCode<T>, uri: string, code: string, died?: (code: string) => void): void {
  const h = by.get(code);
  if (!h) return;
  if (h instanceof Map) {
    h.delete(uri);
    if (h.size === 1) {
      const [u, items] = h.entries().next().value as [string, T[]];
      by.set(code, { uri: u, items });
    }
    return;
  }
  if (h.uri !== uri) return;
  by.delete(code);
  died?.(code);
}

function* holders<T>(h: Holders<T> | undefined): Iterable<[string, T[]]> {
  if (!h) return;
  if (h instanceof Map) yield* h;
  else yield [h.uri, h.items];
}

/** The one file holding a name alone, if so. */
const onlyHolder = <T>(h: Holders<T>): string | undefined => (h instanceof Map ? (h.size === 1 ? [...h.keys()][0] : undefined) : h.uri);

/** Names are also filed by their first three letters (upper case), so completion of a typed prefix reads only those. */
const PREFIX = 3;
const bucketOf = (s: string) => s.slice(0, PREFIX).toUpperCase();

/**
 * Copies whose strings do not keep the file's whole text alive (a code name or template is a slice of
 * it): the index of 10,000 files then holds their codes, not their texts.
 */
const own = (s: string | undefined) => (s === undefined ? s : flat(s));

/** Packs one file's declarations and occurrences; equal strings and lists within the file are stored once. */
function pack(declarations: readonly CodeDeclaration[], occurrences: readonly CodeOccurrence[]): Omit<FileEntry, 'sig'> {
  const strings = new Map<string, string>();
  const str = (x: string): string => {
    let v = strings.get(x);
    if (v === undefined) strings.set(x, (v = flat(x)));
    return v;
  };
  const opt = (x: string | undefined) => (x === undefined ? x : str(x));
  const lists = new Map<string, readonly Detail[]>();
  const statuses = new Map<string, readonly (number | string)[]>();
  const decls = declarations.map((d): PackedDecl => {
    const dk = JSON.stringify(d.details.map(x => [x.name, x.type, x.required, x.description]));
    let details = lists.get(dk);
    if (!details)
      lists.set(
        dk,
        (details = d.details.map(x => ({ name: str(x.name), type: opt(x.type), required: x.required, description: own(x.description) }))),
      );
    const mk = JSON.stringify(d.mapsFromHttp);
    let maps = statuses.get(mk);
    if (!maps) statuses.set(mk, (maps = d.mapsFromHttp.map(x => (typeof x === 'string' ? str(x) : x))));
    const r = d.range;
    return {
      code: str(d.code),
      sl: r.start.line,
      sc: r.start.character,
      el: r.end.line,
      ec: r.end.character,
      category: opt(d.category),
      template: own(d.template),
      description: own(d.description),
      details,
      maps,
    };
  });
  const at = new Int32Array(occurrences.length * 5);
  const codes = occurrences.map((o, i) => {
    at.set([o.range.start.line, o.range.start.character, o.range.end.line, o.range.end.character, o.kind === 'declaration' ? 1 : 0], i * 5);
    return str(o.code);
  });
  return { decls, occs: { codes, at } };
}

const declOf = (uri: string, p: PackedDecl): CodeDeclaration => ({
  uri,
  code: p.code,
  range: { start: { line: p.sl, character: p.sc }, end: { line: p.el, character: p.ec } },
  category: p.category,
  template: p.template,
  description: p.description,
  details: p.details,
  mapsFromHttp: p.maps,
});

const occOf = (uri: string, o: PackedOccs, i: number): CodeOccurrence => {
  const a = o.at,
    k = i * 5;
  return {
    uri,
    code: o.codes[i]!,
    range: { start: { line: a[k]!, character: a[k + 1]! }, end: { line: a[k + 2]!, character: a[k + 3]! } },
    kind: a[k + 4] ? 'declaration' : 'reference',
  };
};

function declarationSignature(d: PackedDecl): string {
  return `${d.code}:${d.category ?? ''}:${d.details.map(x => `${x.name}/${x.type ?? ''}/${x.required ?? ''}`).join('+')}:${d.maps.join('+')}`;
}

/** The most words remembered as having no name near them (past that, each is walked); longer words are not remembered. */
const MAX_FAR_WORDS = 10_000;
const MAX_FAR_LENGTH = 256;

/** `stats` (tests): counts the names "did you mean" walks. */
export function createWorkspaceIndex(stats?: WalkStats): WorkspaceIndex {
  const files = new Map<string, FileEntry>();
  const decls: ByCode<PackedDecl> = new Map();
  /** Per code name and file: the indexes of its occurrences in the file's PackedOccs. */
  const occs: ByCode<number> = new Map();
  const buckets = new Map<string, Set<string>>();
  /** Every declared name, sorted, for "did you mean" (rebuilt at the first question after a scan, then repaired per name). */
  const table = new NameTable(
    () => decls.keys(),
    code => decls.has(code),
  );
  /**
   * Words with no declared name within "did you mean"'s bound (which depends on the word alone): empty for every
   * file and filter, without a walk, until a name is born (a name that dies brings no other nearer).
   */
  const far = new Set<string>();
  const born = (code: string) => {
    table.touch(code);
    if (far.size) far.clear(); // clear() on an empty set still allocates a new table
    const k = bucketOf(code);
    let b = buckets.get(k);
    if (!b) buckets.set(k, (b = new Set()));
    b.add(code);
  };
  const died = (code: string) => {
    table.touch(code);
    const k = bucketOf(code);
    const b = buckets.get(k);
    b?.delete(code);
    if (b && !b.size) buckets.delete(k);
  };

  const index: WorkspaceIndex = {
    update(uri, declarations, occurrences) {
      index.remove(uri);
      const packed = pack(declarations, occurrences);
      files.set(uri, { ...packed, sig: packed.decls.map(declarationSignature).join(',') });
      for (const d of packed.decls) add(decls, uri, d.code, d, born);
      packed.occs.codes.forEach((code, i) => add(occs, uri, code, i));
    },
    remove(uri) {
      const f = files.get(uri);
      if (!f) return;
      for (const d of f.decls) drop(decls, uri, d.code, died);
      for (const code of f.occs.codes) drop(occs, uri, code);
      files.delete(uri);
    },
    uris: () => [...files.keys()],
    *names(exceptUri, prefix) {
      const only = (code: string) => exceptUri === undefined || onlyHolder(decls.get(code)!) !== exceptUri;
      const p = prefix?.toUpperCase() ?? '';
      // Code names are mostly upper case already: no upper-case copy for those.
      const starts = (code: string) => !p || code.startsWith(p) || code.toUpperCase().startsWith(p);
      const all = prefix && prefix.length >= PREFIX ? (buckets.get(bucketOf(prefix)) ?? []) : decls.keys();
      for (const code of all) if (starts(code) && only(code)) yield code;
    },
    nearNames(word, limit, exceptUri, accept) {
      if (far.has(word)) return [];
      const found = table.nearest(
        word,
        limit,
        code => (exceptUri === undefined || onlyHolder(decls.get(code)!) !== exceptUri) && accept(code),
        stats,
      );
      if (!found.length && far.size < MAX_FAR_WORDS && word.length <= MAX_FAR_LENGTH && !table.nearest(word, 1, () => true, stats).length)
        far.add(word);
      return found;
    },
    has: uri => files.has(uri),
    get size() {
      return files.size;
    },
    declaredIn: uri => files.get(uri)?.decls.map(d => declOf(uri, d)) ?? [],
    referencedIn(uri) {
      const o = files.get(uri)?.occs;
      if (!o) return [];
      return [...new Set(o.codes.filter((_, i) => !o.at[i * 5 + 4]))];
    },
    dependsOn(uri) {
      const o = files.get(uri)?.occs;
      return o ? [...new Set(o.codes)] : [];
    },
    signature: uri => files.get(uri)?.sig ?? '',
    declarations(code, exceptUri) {
      const out: CodeDeclaration[] = [];
      const h = decls.get(code);
      // Most names have one holder: read it without the generator.
      if (h && !(h instanceof Map)) {
        if (h.uri !== exceptUri) for (const d of h.items) out.push(declOf(h.uri, d));
      } else for (const [uri, list] of holders(h)) if (uri !== exceptUri) for (const d of list) out.push(declOf(uri, d));
      return out;
    },
    *allDeclarations(exceptUri) {
      for (const [uri, f] of files) if (uri !== exceptUri) for (const d of f.decls) yield declOf(uri, d);
    },
    occurrences(code, exceptUri) {
      const out: CodeOccurrence[] = [];
      for (const [uri, list] of holders(occs.get(code))) {
        if (uri === exceptUri) continue;
        const o = files.get(uri)!.occs;
        for (const i of list) out.push(occOf(uri, o, i));
      }
      return out;
    },
  };
  return index;
}
