/**
 * "Did you mean" over a workspace's code names without reading them all: the names kept sorted by
 * their lower case, and a walk that behaves as a walk down a trie of them. Distances run down the
 * candidate's characters (util/closest.ts `distancesTo`), so a prefix whose row is already beyond the
 * bound rules out every name that starts with it, and the walk jumps past them all (one binary
 * search). The work is the number of name prefixes within the bound of the word, not the number of
 * names: a workspace of 20,000 files costs what one of 2,000 does. Answers equal `closest` over the
 * same names (test/service/nameTable.test.ts).
 */
import { Best, distancesTo } from './closest';

/** Steps of one walk (tests count them instead of timing). */
export interface WalkStats {
  /** Names whose distance was computed or that were skipped one by one. */
  visited: number;
}

const before = (la: string, a: string, lb: string, b: string) => la < lb || (la === lb && a < b);

/** Names sorted by lower case, then name, read one at a time: arrays (`NameTable`) or one packed string (workspace/nameIndex.ts). */
export interface SortedNames {
  readonly size: number;
  name(i: number): string;
  lower(i: number): string;
}

/**
 * Two sorted arrays read as `SortedNames`. A class, not closures made per question: a call through a closure made
 * afresh each time is a new call target to optimized code that has seen the last one (bench/NOTES.md, "twelfth sitting").
 */
class SortedArrays implements SortedNames {
  constructor(
    private readonly names: readonly string[],
    private readonly lowers: readonly string[],
  ) {}
  get size(): number {
    return this.names.length;
  }
  name(i: number): string {
    return this.names[i]!;
  }
  lower(i: number): string {
    return this.lowers[i]!;
  }
}

/** First index in [from, to) whose lower-case name is not below `key` (sorted by lower case). */
function lowerBound(sorted: SortedNames, key: string, from: number, to: number): number {
  while (from < to) {
    const mid = (from + to) >>> 1;
    if (sorted.lower(mid) < key) from = mid + 1;
    else to = mid;
  }
  return from;
}

/**
 * `lowerBound` for a key that is usually near `from` (the names a cut skips are few next to the
 * table): steps of 1, 2, 4… from `from` find a bracket, then a binary search inside it. Time in the
 * log of the distance skipped, not of the table, and on neighbouring memory (at 140,000 names a plain
 * binary search per cut made "did you mean" twice as slow as at 28,000).
 */
export function gallop(lower: readonly string[], key: string, from: number, to: number): number {
  return gallopBy(new SortedArrays(lower, lower), key, from, to);
}

function gallopBy(sorted: SortedNames, key: string, from: number, to: number): number {
  let step = 1,
    lo = from;
  while (lo + step < to && sorted.lower(lo + step - 1) < key) {
    lo += step;
    step *= 2;
  }
  return lowerBound(sorted, key, lo, Math.min(to, lo + step));
}

/**
 * The at most `limit` names that `accept` takes, within the bound of `word` (closest's rule), best first
 * with their distances. `sorted`: sorted by lower case (then name).
 */
export function closestSorted(
  word: string,
  sorted: SortedNames,
  limit: number,
  accept: (name: string) => boolean,
  stats?: WalkStats,
): [string, number][] {
  if (limit <= 0) return [];
  const w = word.toLowerCase();
  const distance = distancesTo(w);
  const best = new Best(word, limit);
  const size = sorted.size;
  let i = 0;
  while (i < size) {
    if (stats) stats.visited++;
    const c = sorted.name(i);
    if (c === word) {
      i++;
      continue;
    }
    const lc = sorted.lower(i);
    // Always walked for its prefixes (a cut skips the names that share one); the distance itself only
    // counts inside the band, that is when the lengths differ by at most the bound.
    const d = distance(lc, best.bound);
    if (d <= best.bound && Math.abs(lc.length - w.length) <= best.bound && accept(c)) best.offer(c, d);
    // Every later name with the prefix that ruled this one out is ruled out too: those sort before
    // prefix + U+FFFF (a name going on with U+FFFF itself is merely not skipped).
    i = distance.cut > 0 ? gallopBy(sorted, lc.slice(0, distance.cut) + '\uffff', i + 1, size) : i + 1;
  }
  return best.result();
}

/**
 * A set of names kept sorted for `closestSorted`. Names come and go through `touch` (a name born or
 * died); the order is repaired at the next question: one binary search and splice per touched name,
 * or one sort when most of the table changed (the first question after a scan).
 */
export class NameTable {
  private lower: string[] = [];
  private names: string[] = [];
  private readonly pending = new Set<string>();

  /** Every name may have come or gone (`touchAll`): the next question sorts them all. */
  private everything = false;
  constructor(
    /** Every name that exists now. */
    private readonly all: () => Iterable<string>,
    /** Whether a name exists now. */
    private readonly has: (name: string) => boolean,
  ) {}

  touch(name: string): void {
    if (!this.everything) this.pending.add(name);
  }

  /** Every name may have come or gone (a table filled at once): cheaper than touching each of 100,000 names. */
  touchAll(): void {
    this.everything = true;
    this.pending.clear();
  }

  get size(): number {
    this.flush();
    return this.names.length;
  }

  nearest(word: string, limit: number, accept: (name: string) => boolean, stats?: WalkStats): [string, number][] {
    this.flush();
    return closestSorted(word, new SortedArrays(this.names, this.lower), limit, accept, stats);
  }

  private flush(): void {
    if (this.everything) {
      this.everything = false;
      this.rebuild();
      return;
    }
    if (!this.pending.size) return;
    if (this.pending.size > 64 && this.pending.size * 8 > this.names.length) this.rebuild();
    else for (const n of this.pending) this.repair(n);
    this.pending.clear();
  }

  private rebuild(): void {
    const pairs = [...this.all()].map(n => [n.toLowerCase(), n] as const);
    pairs.sort((a, b) => (before(a[0], a[1], b[0], b[1]) ? -1 : a[0] === b[0] && a[1] === b[1] ? 0 : 1));
    this.lower = pairs.map(p => p[0]);
    this.names = pairs.map(p => p[1]);
  }

  private repair(name: string): void {
    const ln = name.toLowerCase();
    let at = lowerBound(new SortedArrays(this.names, this.lower), ln, 0, this.names.length);
    while (at < this.names.length && this.lower[at] === ln && this.names[at]! < name) at++;
    const present = this.names[at] === name;
    const wanted = this.has(name);
    if (wanted && !present) {
      this.lower.splice(at, 0, ln);
      this.names.splice(at, 0, name);
    } else if (!wanted && present) {
      this.lower.splice(at, 1);
      this.names.splice(at, 1);
    }
  }
}
