/**
 * The code names a workspace declares, with the files declaring each, and nothing else: what "did
 * you mean" (`nearNames`) and the code scope's filter of its candidates (which reads a declaration's
 * file only) need. A CLI check thread holds this for the whole run instead of every declaration
 * (cli/batchWorkspace.ts), packed (`PackedNames`): the names sorted once, on the main thread, end to
 * end in one string with their ends and files in typed arrays — no string, map entry or lower-case
 * copy per name, and no sort in any worker. Lower-case names are made when a walk reads them.
 * Declarations read from it carry the name and the file only (no range, category or details).
 */
import type { CodeDeclaration, WorkspaceCodes } from '../model/workspace';
import { closestSorted, type SortedNames, type WalkStats } from '../util/nameTable';

const NO_RANGE = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** The most words remembered as having no name near them (a run's distinct unknown codes; past that, each is walked). */
const MAX_FAR_WORDS = 10_000;
/** Longer words are not remembered (a stranger's file may hold a code name of megabytes; the memo stays small). */
const MAX_FAR_LENGTH = 256;

/** A run's declared names, sorted by lower case then name (`NameTable`'s order), as one thread sends them to another. */
export interface PackedNames {
  /** Every name, in order, end to end. */
  readonly text: string;
  /** Where name `i` ends in `text` (it starts where name `i - 1` ends). */
  readonly ends: Int32Array;
  /** The files declaring name `i`: `files[first[i]]` up to `files[first[i + 1]]` (excluded), positions in `uris`, ascending. */
  readonly first: Int32Array;
  readonly files: Int32Array;
  /** Every file given to `packNames`, in its order (those declaring nothing too). */
  readonly uris: readonly string[];
}

/**
 * Each file's URI with the code names it declares (each file once), sorted and packed once. Every (name, file)
 * is sorted as a position in two flat lists, compared in lower case without a lower-case copy (ASCII in place):
 * no map of names, no pair and no copy per name while the main thread holds the run's declarations.
 */
export function packNames(files: readonly (readonly [string, readonly string[]])[]): PackedNames {
  let total = 0;
  for (const [, names] of files) total += names.length;
  const name: string[] = new Array<string>(total);
  const file = new Int32Array(total);
  let k = 0;
  files.forEach(([, names], i) => {
    for (const n of names) {
      name[k] = n;
      file[k++] = i;
    }
  });
  const order = Array.from({ length: total }, (_, j) => j);
  order.sort((x, y) => compareNames(name[x]!, name[y]!) || file[x]! - file[y]!);
  const ends: number[] = [],
    first: number[] = [0],
    held: number[] = [],
    parts: string[] = [];
  let end = 0;
  for (let j = 0; j < total; j++) {
    const at = order[j]!,
      n = name[at]!,
      f = file[at]!;
    const previous = j ? order[j - 1]! : -1;
    if (previous < 0 || name[previous] !== n) {
      parts.push(n);
      ends.push((end += n.length));
      first.push(held.length);
    }
    if (previous < 0 || name[previous] !== n || file[previous] !== f) {
      held.push(f);
      first[first.length - 1] = held.length;
    }
  }
  return {
    text: parts.join(''),
    ends: Int32Array.from(ends),
    first: Int32Array.from(first),
    files: Int32Array.from(held),
    uris: files.map(([uri]) => uri),
  };
}

/** `NameTable`'s order: by lower case, then by the names themselves (UTF-16 units), without a lower-case copy for ASCII. */
function compareNames(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i),
      y = b.charCodeAt(i);
    // Outside ASCII a lower-case copy may differ in length (İ) or context (Σ): compare the copies.
    if (x >= 128 || y >= 128) return compareCopies(a, b);
    if (x >= 65 && x <= 90) x += 32;
    if (y >= 65 && y <= 90) y += 32;
    if (x !== y) return x - y;
  }
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareCopies(a: string, b: string): number {
  const la = a.toLowerCase(),
    lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Reading `PackedNames`: a name by its position, the position of a name, the files declaring it. */
export class PackedNameList implements SortedNames {
  constructor(readonly packed: PackedNames) {}

  get size(): number {
    return this.packed.ends.length;
  }

  name(i: number): string {
    const { text, ends } = this.packed;
    return text.slice(i ? ends[i - 1]! : 0, ends[i]!);
  }

  lower(i: number): string {
    return this.name(i).toLowerCase();
  }

  /** The position of `code`, or -1 (a hash table of positions, made at the first question: no string made per question). */
  indexOf(code: string): number {
    const table = (this.table ??= this.hashTable());
    const mask = table.length - 1;
    for (let h = hashOf(code, 0, code.length) & mask; table[h]; h = (h + 1) & mask) {
      const i = table[h]! - 1;
      const from = i ? this.packed.ends[i - 1]! : 0;
      if (this.packed.ends[i]! - from === code.length && this.packed.text.startsWith(code, from)) return i;
    }
    return -1;
  }

  /** The files (positions in `uris`) declaring name `i`. */
  holders(i: number): Int32Array {
    return this.packed.files.subarray(this.packed.first[i]!, this.packed.first[i + 1]!);
  }

  private table?: Int32Array;

  /** Open addressing, at most two thirds full: each slot a name's position + 1, or 0. */
  private hashTable(): Int32Array {
    const { text, ends } = this.packed;
    let size = 16;
    while (size < ends.length * 1.5) size *= 2;
    const table = new Int32Array(size);
    for (let i = 0, from = 0; i < ends.length; from = ends[i++]!) {
      let h = hashOf(text, from, ends[i]!) & (size - 1);
      while (table[h]) h = (h + 1) & (size - 1);
      table[h] = i + 1;
    }
    return table;
  }
}

/** FNV-1a over the UTF-16 units of `s` from `from` to `to` (excluded). */
function hashOf(s: string, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * `files`: each file's URI with the code names it declares (each file once), or those packed
 * (`packNames`, made once for every thread). `stats` (tests) counts the steps of every "did you mean" walk.
 */
export function createNameIndex(files: readonly (readonly [string, readonly string[]])[] | PackedNames, stats?: WalkStats): WorkspaceCodes {
  const list = new PackedNameList('text' in files ? files : packNames(files));
  const { uris } = list.packed;
  /** Whether name `i` is declared by some file other than `except` (the index's rule: not by that file alone). */
  const elsewhere = (i: number, except: string | undefined) => {
    if (except === undefined) return true;
    const h = list.holders(i);
    return h.length !== 1 || uris[h[0]!] !== except;
  };
  const declOf = (uri: string, code: string): CodeDeclaration => ({ uri, code, range: NO_RANGE, details: [], mapsFromHttp: [] });
  /**
   * Words with no declared name within "did you mean"'s bound, whatever the filter: the names never change,
   * so the answer for such a word is empty for every file and filter, without a walk. The walk that proves a
   * word far from every name is the costly one (it cannot stop early: every prefix within the bound is
   * followed), and a workspace repeats its mistakes (one misspelt code in many files).
   */
  const far = new Set<string>();
  const nearest = (word: string, limit: number, accept: (name: string) => boolean) => closestSorted(word, list, limit, accept, stats);
  const nearNames = (word: string, limit: number, except: string | undefined, accept: (name: string) => boolean): [string, number][] => {
    if (far.has(word)) return [];
    const found = nearest(word, limit, name => elsewhere(list.indexOf(name), except) && accept(name));
    // The bound depends on the word alone, so no name within it for any filter means none for this one either.
    if (!found.length && far.size < MAX_FAR_WORDS && word.length <= MAX_FAR_LENGTH && !nearest(word, 1, () => true).length) far.add(word);
    return found;
  };
  return {
    declarations(code, except) {
      const i = list.indexOf(code);
      if (i < 0) return [];
      const out: CodeDeclaration[] = [];
      for (const f of list.holders(i)) if (uris[f] !== except) out.push(declOf(uris[f]!, code));
      return out;
    },
    /** By file in order; a file's names in the sorted order (only completion reads this, and it sorts). */
    *allDeclarations(except) {
      const byFile = new Map<number, string[]>();
      for (let i = 0; i < list.size; i++)
        for (const f of list.holders(i)) {
          if (uris[f] === except) continue;
          const ns = byFile.get(f);
          if (ns) ns.push(list.name(i));
          else byFile.set(f, [list.name(i)]);
        }
      for (const f of [...byFile.keys()].sort((a, b) => a - b)) for (const n of byFile.get(f)!) yield declOf(uris[f]!, n);
    },
    *names(except, prefix) {
      const p = prefix?.toUpperCase() ?? '';
      for (let i = 0; i < list.size; i++) {
        const name = list.name(i);
        if ((!p || name.startsWith(p) || name.toUpperCase().startsWith(p)) && elsewhere(i, except)) yield name;
      }
    },
    nearNames,
    occurrences: () => [],
  };
}
