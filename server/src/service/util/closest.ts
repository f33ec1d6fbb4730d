/** "Did you mean": edit distance and the closest candidates, for quick fixes and messages. */

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions), case-sensitive. */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length]!;
}

/** Three rows of the banded table, reused (the service is synchronous). */
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/**
 * The same distance when it is at most `max`, else some value above `max`: only the band of cells
 * within `max` of the diagonal is computed, in reused rows, and it stops at the first row above `max`.
 */
export function boundedDistance(a: string, b: string, max: number): number {
  if (a === b) return 0;
  const n = a.length,
    m = b.length;
  if (Math.abs(n - m) > max) return max + 1;
  if (rows[0]!.length < m + 1) rows = [new Int32Array(m + 1), new Int32Array(m + 1), new Int32Array(m + 1)];
  let prev2 = rows[0]!,
    prev = rows[1]!,
    cur = rows[2]!;
  const over = max + 1;
  for (let j = 0; j <= m; j++) prev[j] = j <= max ? j : over;
  for (let i = 1; i <= n; i++) {
    const lo = Math.max(1, i - max),
      hi = Math.min(m, i + max);
    cur[lo - 1] = lo === 1 && i <= max ? i : over;
    let rowMin = cur[lo - 1]!;
    const ai = a.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j++) {
      const bj = b.charCodeAt(j - 1);
      let v = prev[j - 1]! + (ai === bj ? 0 : 1);
      const up = (j <= i - 1 + max ? prev[j]! : over) + 1;
      if (up < v) v = up;
      const left = cur[j - 1]! + 1;
      if (left < v) v = left;
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj && prev2[j - 2]! + 1 < v) v = prev2[j - 2]! + 1;
      if (v > over) v = over;
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (hi < m) cur[hi + 1] = over;
    if (rowMin > max) return over;
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[m]!;
}

/**
 * Distances from one word to candidates met one after the other, each when it is at most a bound
 * that never grows (else a value above it). The table runs down the candidate's characters, so rows
 * depend on the candidate's prefix only: the rows of the previous candidate's common prefix are kept
 * (code names share long prefixes: VALIDATION_E000123, VALIDATION_E000124), and a prefix whose row
 * was already beyond the bound rules the candidate out at once. After a candidate ruled out that way,
 * `cut` is the length of its shortest prefix beyond the bound (every name with that prefix is out too:
 * a walk over sorted names skips them all, util/nameTable.ts); after any other answer it is 0.
 */
export function distancesTo(w: string): Distances {
  const m = w.length,
    width = m + 1;
  let table = new Int32Array(width * 32);
  /** Per row: the largest row minimum from row 1 to it (a row above the bound ends the candidate). */
  let worst = new Int32Array(32);
  let last = '';
  /** Rows 0..done of `last` are filled. */
  let done = 0;
  for (let j = 0; j <= m; j++) table[j] = j;
  const distance = ((c: string, bound: number): number => {
    const n = c.length,
      over = bound + 1;
    distance.cut = 0;
    if ((n + 1) * width > table.length) {
      const t = new Int32Array((n + 1) * width * 2);
      t.set(table);
      table = t;
      const r = new Int32Array((n + 1) * 2);
      r.set(worst);
      worst = r;
    }
    let i = 0;
    const keep = Math.min(done, n);
    while (i < keep && c.charCodeAt(i) === last.charCodeAt(i)) i++;
    if (i > 0 && worst[i]! > bound) {
      let k = 1;
      while (worst[k]! <= bound) k++;
      distance.cut = k;
      return over;
    }
    for (i++; i <= n; i++) {
      const row = i * width,
        up = row - width,
        up2 = up - width;
      const lo = Math.max(1, i - bound),
        hi = Math.min(m, i + bound);
      table[row + lo - 1] = lo === 1 && i <= bound ? i : over;
      let rowMin: number = table[row + lo - 1]!;
      const ci = c.charCodeAt(i - 1),
        cp = i > 1 ? c.charCodeAt(i - 2) : -1;
      for (let j = lo; j <= hi; j++) {
        const wj = w.charCodeAt(j - 1);
        let v = table[up + j - 1]! + (ci === wj ? 0 : 1);
        const fromUp = (j <= i - 1 + bound ? table[up + j]! : over) + 1;
        if (fromUp < v) v = fromUp;
        const left = table[row + j - 1]! + 1;
        if (left < v) v = left;
        if (cp >= 0 && j > 1 && ci === w.charCodeAt(j - 2) && cp === wj && table[up2 + j - 2]! + 1 < v) v = table[up2 + j - 2]! + 1;
        if (v > over) v = over;
        table[row + j] = v;
        if (v < rowMin) rowMin = v;
      }
      if (hi < m) table[row + hi + 1] = over;
      worst[i] = i > 1 && worst[i - 1]! > rowMin ? worst[i - 1]! : rowMin;
      last = c;
      done = i;
      if (rowMin > bound) {
        distance.cut = i;
        return over;
      }
    }
    last = c;
    done = n;
    return table[n * width + m]!;
  }) as Distances;
  distance.cut = 0;
  return distance;
}

/** The distance function of `distancesTo`, with the prefix length that ruled out the last candidate. */
export interface Distances {
  (candidate: string, bound: number): number;
  cut: number;
}

/**
 * The best `limit` candidates offered so far (distance, then name), each once. The bound starts at a
 * third of the word's length (at least 2); once `limit` are found, it drops to the worst of the best
 * `limit`: a farther candidate could not enter the answer, so its distance is cut short.
 */
export class Best {
  bound: number;
  private readonly best: number[] = []; // the smallest `limit` distances so far, sorted
  private readonly scored: [string, number][] = [];
  private readonly taken = new Set<string>();
  constructor(
    word: string,
    private readonly limit: number,
  ) {
    this.bound = Math.max(2, Math.floor(word.length / 3));
  }
  offer(c: string, d: number): void {
    // A repeated candidate scores what it scored the first time: only the accepted ones are remembered.
    if (d > this.bound || this.taken.has(c)) return;
    this.scored.push([c, d]);
    this.taken.add(c);
    const at = this.best.findIndex(x => x > d);
    this.best.splice(at === -1 ? this.best.length : at, 0, d);
    if (this.best.length > this.limit) this.best.pop();
    if (this.best.length === this.limit) this.bound = this.best[this.limit - 1]!;
  }
  /** The answer: at most `limit`, best first, each with its distance. */
  result(): [string, number][] {
    return mergeScored([this.scored], this.limit);
  }
}

/** The best `limit` of several scored lists (each a candidate's best answer), each name once, best first. */
export function mergeScored(lists: readonly (readonly (readonly [string, number])[])[], limit: number): [string, number][] {
  const seen = new Set<string>();
  const all: [string, number][] = [];
  for (const l of lists)
    for (const [c, d] of l) {
      if (seen.has(c)) continue;
      seen.add(c);
      all.push([c, d]);
    }
  all.sort((x, y) => x[1] - y[1] || x[0].localeCompare(y[0]));
  return all.slice(0, Math.max(0, limit));
}

/** The at most `limit` candidates (each once, not `word` itself) within the bound of the lower-case word, best first. */
function pick(word: string, candidates: Iterable<string>, limit: number, key: boolean): [string, number][] {
  if (limit <= 0) return [];
  const w = word.toLowerCase();
  const distance = key ? undefined : distancesTo(w);
  const best = new Best(word, limit);
  for (const c of candidates) {
    if (c === word) continue;
    const bound = best.bound;
    let d: number;
    if (distance) {
      // Lower case never shortens a string: a candidate this much longer cannot be within the bound.
      if (c.length - w.length > bound) continue;
      const lc = c.toLowerCase();
      if (Math.abs(lc.length - w.length) > bound) continue;
      d = distance(lc, bound);
    } else d = keyDistance(w, c.toLowerCase(), bound);
    best.offer(c, d);
  }
  return best.result();
}

/** `closest` with each answer's distance (to merge answers from several sources: mergeScored). */
export function closestScored(word: string, candidates: Iterable<string>, limit = 3): [string, number][] {
  return pick(word, candidates, limit, false);
}

/**
 * Candidates within a distance that grows with the word's length (a third of it, at least 2),
 * compared case-insensitively, best first, at most `limit`.
 */
export function closest(word: string, candidates: Iterable<string>, limit = 3): string[] {
  return pick(word, candidates, limit, false).map(([c]) => c);
}

/**
 * Like `closest`, for keys made of `_`-separated words: a candidate also matches when the word is
 * close to one of its leading parts (`mesage` → `message_template` through `message`).
 */
export function closestKey(word: string, candidates: Iterable<string>, limit = 3): string[] {
  return pick(word, candidates, limit, true).map(([c]) => c);
}

/** Edit distance to a key or to one of its leading `_` parts (plus one): `mesage` is 2 from `message_template`. */
export function keyDistance(word: string, key: string, max = Infinity): number {
  const dist = Number.isFinite(max) ? boundedDistance : editDistance;
  let d = dist(word, key, max);
  for (let i = key.indexOf('_'); i >= 4; i = key.indexOf('_', i + 1)) d = Math.min(d, dist(word, key.slice(0, i), max) + 1);
  return d;
}
