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
import { mapPacked } from '../util/mapPacked';

/**
 * A list read one item at a time: an array, or a document's entries made from its model as they are read
 * (features/liveEntries.ts), so that a re-index keeps none of what it compared. `at(i)` for 0 ≤ i < length.
 */
export type IndexList<T> =
  | readonly T[]
  | {
      readonly length: number;
      at(i: number): T | undefined;
    };

/** One file's entries as the index reads them: arrays, or made as they are read (`IndexList`). */
export interface LiveEntries {
  readonly declarations: IndexList<CodeDeclaration>;
  readonly occurrences: IndexList<CodeOccurrence>;
}

export interface WorkspaceIndex extends WorkspaceCodes {
  /** Replace what is known of one file (what equals what it held before is kept: `IndexStats`). */
  update(uri: string, declarations: IndexList<CodeDeclaration>, occurrences: IndexList<CodeOccurrence>): void;
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
 * Counts, for tests (`stats`): the names "did you mean" walks, and what a re-index made again — declarations
 * packed, signatures made, files whose names were filed again. A re-index of a text whose declarations did not
 * change makes none of these.
 */
export interface IndexStats extends WalkStats {
  packed?: number;
  signatures?: number;
  refiled?: number;
}

/**
 * A declaration as the index keeps it: strings flattened, and the details and status lists shared by every
 * declaration of the file that has the same ones (a generated file of 10,000 codes holds one details list, not
 * 10,000). Its range is kept apart (`FileEntry.nums`), so a line added above it keeps the packed declaration.
 * The CodeDeclaration is made again when read.
 */
interface PackedDecl {
  readonly code: string;
  readonly category: string | undefined;
  readonly template: string | undefined;
  readonly description: string | undefined;
  readonly details: readonly Detail[];
  readonly maps: readonly (number | string)[];
}

/**
 * One file's entries. A re-index replaces only what changed (`update`): the declarations in place, the numbers as a
 * whole array, the signature when something it holds changed.
 */
interface FileEntry {
  decls: PackedDecl[];
  /** The code name of each occurrence. */
  codes: readonly string[];
  /**
   * The file's numbers in one array: per occurrence five (its range, then 1 for a declaration), then from
   * `codes.length * 5` per declaration four (its range).
   */
  nums: Int32Array;
  sig: string;
}

/**
 * Code name → the files that hold it → their items (positions in the file's entries). Most names live in one
 * file: that is kept as one pair, and a map of files is made only for a name in two or more.
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

function sameDetails(a: readonly Detail[], b: readonly Detail[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!,
      y = b[i]!;
    if (x.name !== y.name || x.type !== y.type || x.required !== y.required || x.description !== y.description) return false;
  }
  return true;
}

function sameMaps(a: readonly (number | string)[], b: readonly (number | string)[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Whether a declaration holds what a packed one holds (its range apart). */
const sameDecl = (d: CodeDeclaration, p: PackedDecl): boolean =>
  d.code === p.code &&
  d.category === p.category &&
  d.template === p.template &&
  d.description === p.description &&
  sameDetails(d.details, p.details) &&
  sameMaps(d.mapsFromHttp, p.maps);

/** Whether two packed declarations give the same signature (`declarationSignature`). */
function sameSignature(a: PackedDecl, b: PackedDecl): boolean {
  if (a.code !== b.code || a.category !== b.category || !sameMaps(a.maps, b.maps)) return false;
  if (a.details === b.details) return true;
  if (a.details.length !== b.details.length) return false;
  for (let i = 0; i < a.details.length; i++) {
    const x = a.details[i]!,
      y = b.details[i]!;
    if (x.name !== y.name || x.type !== y.type || x.required !== y.required) return false;
  }
  return true;
}

/** Packs one declaration; its details and status lists are those of `like` (declarations near it) when equal. */
function packDecl(d: CodeDeclaration, like: readonly (PackedDecl | undefined)[]): PackedDecl {
  let details: readonly Detail[] | undefined, maps: readonly (number | string)[] | undefined;
  for (const p of like) {
    if (!p) continue;
    if (!details && sameDetails(d.details, p.details)) details = p.details;
    if (!maps && sameMaps(d.mapsFromHttp, p.maps)) maps = p.maps;
  }
  return {
    code: own(d.code)!,
    category: own(d.category),
    template: own(d.template),
    description: own(d.description),
    details:
      details ??
      mapPacked(d.details, x => ({ name: flat(x.name), type: own(x.type), required: x.required, description: own(x.description) })),
    maps: maps ?? mapPacked(d.mapsFromHttp, x => (typeof x === 'string' ? flat(x) : x)),
  };
}

/** The items of a list, as an array (an array as it is). */
export const itemsOf = <T>(l: IndexList<T>): readonly T[] =>
  Array.isArray(l) ? (l as readonly T[]) : Array.from({ length: l.length }, (_, i) => l.at(i)!);

/**
 * Packs one file's declarations and occurrences; equal strings and lists within the file are stored once. Each item
 * is read once and dropped (a list made as it is read keeps none: V8 then never allocates its items in old space).
 */
function pack(declarations: IndexList<CodeDeclaration>, occurrences: IndexList<CodeOccurrence>): Omit<FileEntry, 'sig'> {
  const strings = new Map<string, string>();
  const str = (x: string): string => {
    let v = strings.get(x);
    if (v === undefined) strings.set(x, (v = flat(x)));
    return v;
  };
  const opt = (x: string | undefined) => (x === undefined ? x : str(x));
  const lists = new Map<string, readonly Detail[]>();
  const statuses = new Map<string, readonly (number | string)[]>();
  const n = declarations.length,
    m = occurrences.length;
  const decls = new Array<PackedDecl>(n);
  const nums = new Int32Array(m * 5 + n * 4);
  for (let i = 0; i < n; i++) {
    const d = declarations.at(i)!;
    const dk = JSON.stringify(d.details.map(x => [x.name, x.type, x.required, x.description]));
    let details = lists.get(dk);
    if (!details)
      lists.set(
        dk,
        (details = mapPacked(d.details, x => ({
          name: str(x.name),
          type: opt(x.type),
          required: x.required,
          description: own(x.description),
        }))),
      );
    const mk = JSON.stringify(d.mapsFromHttp);
    let maps = statuses.get(mk);
    if (!maps) statuses.set(mk, (maps = mapPacked(d.mapsFromHttp, x => (typeof x === 'string' ? str(x) : x))));
    decls[i] = { code: str(d.code), category: opt(d.category), template: own(d.template), description: own(d.description), details, maps };
    putRange(nums, m * 5 + i * 4, d.range);
  }
  const codes = new Array<string>(m);
  for (let i = 0; i < m; i++) {
    const o = occurrences.at(i)!;
    codes[i] = str(o.code);
    putPlace(nums, i * 5, o);
  }
  return { decls, codes, nums };
}

function putRange(out: Int32Array, k: number, r: CodeDeclaration['range']): void {
  out[k] = r.start.line;
  out[k + 1] = r.start.character;
  out[k + 2] = r.end.line;
  out[k + 3] = r.end.character;
}

const sameRange = (a: Int32Array, k: number, r: CodeDeclaration['range']): boolean =>
  a[k] === r.start.line && a[k + 1] === r.start.character && a[k + 2] === r.end.line && a[k + 3] === r.end.character;

function putPlace(out: Int32Array, k: number, o: CodeOccurrence): void {
  putRange(out, k, o.range);
  out[k + 4] = o.kind === 'declaration' ? 1 : 0;
}

const samePlace = (a: Int32Array, k: number, o: CodeOccurrence): boolean =>
  sameRange(a, k, o.range) && a[k + 4] === (o.kind === 'declaration' ? 1 : 0);

const declOf = (uri: string, f: FileEntry, i: number): CodeDeclaration => {
  const p = f.decls[i]!,
    a = f.nums,
    k = f.codes.length * 5 + i * 4;
  return {
    uri,
    code: p.code,
    range: { start: { line: a[k]!, character: a[k + 1]! }, end: { line: a[k + 2]!, character: a[k + 3]! } },
    category: p.category,
    template: p.template,
    description: p.description,
    details: p.details,
    mapsFromHttp: p.maps,
  };
};

const occOf = (uri: string, f: FileEntry, i: number): CodeOccurrence => {
  const a = f.nums,
    k = i * 5;
  return {
    uri,
    code: f.codes[i]!,
    range: { start: { line: a[k]!, character: a[k + 1]! }, end: { line: a[k + 2]!, character: a[k + 3]! } },
    kind: a[k + 4] ? 'declaration' : 'reference',
  };
};

function declarationSignature(d: PackedDecl): string {
  return `${d.code}:${d.category ?? ''}:${d.details.map(x => `${x.name}/${x.type ?? ''}/${x.required ?? ''}`).join('+')}:${d.maps.join('+')}`;
}

const signatureOf = (decls: readonly PackedDecl[]) => decls.map(declarationSignature).join(',');

/** The most words remembered as having no name near them (past that, each is walked); longer words are not remembered. */
const MAX_FAR_WORDS = 10_000;
const MAX_FAR_LENGTH = 256;

/** `stats` (tests): counts the names "did you mean" walks, and what re-indexing makes again (`IndexStats`). */
export function createWorkspaceIndex(stats?: IndexStats): WorkspaceIndex {
  const files = new Map<string, FileEntry>();
  /** Per code name and file: the positions of its declarations in the file's entry. */
  const decls: ByCode<number> = new Map();
  /** Per code name and file: the indexes of its occurrences in the file's entry. */
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
  const count = (k: 'packed' | 'signatures' | 'refiled', n = 1) => {
    if (stats && stats[k] !== undefined) stats[k] = stats[k] + n;
  };
  const fileDecls = (uri: string, f: FileEntry) => f.decls.forEach((d, i) => add(decls, uri, d.code, i, born));
  const fileOccs = (uri: string, f: FileEntry) => f.codes.forEach((code, i) => add(occs, uri, code, i));

  /**
   * A file indexed before, indexed again (the server re-indexes an open document each time typing pauses): what
   * equals what the file held stays — each declaration equal to the one at its place, its details and status
   * lists, the ranges and occurrences when no number moved, the signature when nothing it holds changed, the
   * names filed when no code name changed. What changed is packed again; the index answers as if the file were
   * indexed afresh (test/service/workspaceIndexReuse.test.ts). Each item is read once and dropped: a re-index
   * that changes nothing keeps nothing new, so the next scavenge promotes nothing (bench/NOTES.md, "the re-index
   * after a pause").
   */
  const reindex = (uri: string, f: FileEntry, declarations: IndexList<CodeDeclaration>, occurrences: IndexList<CodeOccurrence>) => {
    const n = declarations.length,
      m = occurrences.length,
      from = m * 5;
    /** The file's numbers: a copy made at the first that moved, or an array of the new length filled anew. */
    let nums = n === f.decls.length && m === f.codes.length ? undefined : new Int32Array(from + n * 4);
    const range = (k: number, r: CodeDeclaration['range']) => {
      if (nums || !sameRange(f.nums, k, r)) putRange((nums ??= f.nums.slice()), k, r);
    };
    const place = (k: number, o: CodeOccurrence) => {
      if (nums || !samePlace(f.nums, k, o)) putPlace((nums ??= f.nums.slice()), k, o);
    };
    if (!redeclare(f, declarations, from, range)) refile(uri, f, declarations, from, range);
    if (!reoccur(f, occurrences, place)) reoccurAll(uri, f, occurrences, place);
    if (nums) f.nums = nums;
  };

  type Put<T> = (k: number, x: T) => void;

  /** The declarations' names are those filed, in order: what changed is replaced in place. False (nothing changed) when a name differs. */
  const redeclare = (
    f: FileEntry,
    declarations: IndexList<CodeDeclaration>,
    from: number,
    range: Put<CodeDeclaration['range']>,
  ): boolean => {
    const n = declarations.length,
      before = f.decls;
    if (n !== before.length) return false;
    const changes: { i: number; p: PackedDecl }[] = [];
    for (let i = 0; i < n; i++) {
      const d = declarations.at(i)!,
        old = before[i]!;
      if (d.code !== old.code) return false;
      if (!sameDecl(d, old)) {
        const last = changes[changes.length - 1];
        changes.push({ i, p: packDecl(d, [old, last?.i === i - 1 ? last.p : before[i - 1]]) });
      }
      range(from + i * 4, d.range);
    }
    let sameSig = true;
    for (const { i, p } of changes) {
      if (sameSig && !sameSignature(p, before[i]!)) sameSig = false;
      before[i] = p;
    }
    count('packed', changes.length);
    if (!sameSig) {
      count('signatures');
      f.sig = signatureOf(before);
    }
    return true;
  };

  /**
   * A code name added, renamed, removed or moved: the file's names are filed again. A declaration equal to the one
   * at its place, or at its place counted from the end (after a code added or removed above it), is kept.
   */
  const refile = (
    uri: string,
    f: FileEntry,
    declarations: IndexList<CodeDeclaration>,
    from: number,
    range: Put<CodeDeclaration['range']>,
  ) => {
    count('refiled');
    const n = declarations.length,
      before = f.decls,
      shift = before.length - n;
    const next = new Array<PackedDecl>(n);
    for (let i = 0; i < n; i++) {
      const d = declarations.at(i)!,
        at = before[i],
        fromEnd = shift && i + shift >= 0 ? before[i + shift] : undefined;
      if (at && sameDecl(d, at)) next[i] = at;
      else if (fromEnd && sameDecl(d, fromEnd)) next[i] = fromEnd;
      else {
        next[i] = packDecl(d, [at, i ? next[i - 1] : undefined, fromEnd]);
        count('packed');
      }
      range(from + i * 4, d.range);
    }
    for (const d of before) drop(decls, uri, d.code, died);
    f.decls = next;
    fileDecls(uri, f);
    count('signatures');
    f.sig = signatureOf(next);
  };

  /** The occurrences' names are those filed, in order: their numbers replaced if any moved. False (nothing changed) when a name differs. */
  const reoccur = (f: FileEntry, occurrences: IndexList<CodeOccurrence>, place: Put<CodeOccurrence>): boolean => {
    const m = occurrences.length;
    if (m !== f.codes.length) return false;
    for (let i = 0; i < m; i++) {
      const x = occurrences.at(i)!;
      if (x.code !== f.codes[i]) return false;
      place(i * 5, x);
    }
    return true;
  };

  /** A code name written, renamed or removed: the file's occurrences are filed again. */
  const reoccurAll = (uri: string, f: FileEntry, occurrences: IndexList<CodeOccurrence>, place: Put<CodeOccurrence>) => {
    const before = f.codes,
      m = occurrences.length;
    for (const code of before) drop(occs, uri, code);
    // A name written before at the same place keeps its string; a declared name shares the declaration's.
    const names = new Map<string, string>();
    for (const p of f.decls) names.set(p.code, p.code);
    const codes = new Array<string>(m);
    for (let i = 0; i < m; i++) {
      const x = occurrences.at(i)!;
      codes[i] = x.code === before[i] ? before[i]! : (names.get(x.code) ?? own(x.code)!);
      place(i * 5, x);
    }
    f.codes = codes;
    fileOccs(uri, f);
  };

  const index: WorkspaceIndex = {
    update(uri, declarations, occurrences) {
      const f = files.get(uri);
      if (f) return reindex(uri, f, declarations, occurrences);
      const packed = pack(declarations, occurrences);
      count('packed', packed.decls.length);
      count('signatures');
      const entry: FileEntry = { ...packed, sig: signatureOf(packed.decls) };
      files.set(uri, entry);
      fileDecls(uri, entry);
      fileOccs(uri, entry);
    },
    remove(uri) {
      const f = files.get(uri);
      if (!f) return;
      for (const d of f.decls) drop(decls, uri, d.code, died);
      for (const code of f.codes) drop(occs, uri, code);
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
    declaredIn(uri) {
      const f = files.get(uri);
      return f ? f.decls.map((_, i) => declOf(uri, f, i)) : [];
    },
    referencedIn(uri) {
      const f = files.get(uri);
      if (!f) return [];
      return [...new Set(f.codes.filter((_, i) => !f.nums[i * 5 + 4]))];
    },
    dependsOn(uri) {
      const f = files.get(uri);
      return f ? [...new Set(f.codes)] : [];
    },
    signature: uri => files.get(uri)?.sig ?? '',
    declarations(code, exceptUri) {
      const out: CodeDeclaration[] = [];
      const h = decls.get(code);
      // Most names have one holder: read it without the generator.
      if (h && !(h instanceof Map)) {
        if (h.uri !== exceptUri) {
          const f = files.get(h.uri)!;
          for (const i of h.items) out.push(declOf(h.uri, f, i));
        }
      } else
        for (const [uri, list] of holders(h))
          if (uri !== exceptUri) {
            const f = files.get(uri)!;
            for (const i of list) out.push(declOf(uri, f, i));
          }
      return out;
    },
    *allDeclarations(exceptUri) {
      for (const [uri, f] of files) if (uri !== exceptUri) for (let i = 0; i < f.decls.length; i++) yield declOf(uri, f, i);
    },
    occurrences(code, exceptUri) {
      const out: CodeOccurrence[] = [];
      for (const [uri, list] of holders(occs.get(code))) {
        if (uri === exceptUri) continue;
        const f = files.get(uri)!;
        for (const i of list) out.push(occOf(uri, f, i));
      }
      return out;
    },
  };
  return index;
}
