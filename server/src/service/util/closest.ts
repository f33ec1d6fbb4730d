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

const counts = new Int32Array(128);

/**
 * A lower bound of `editDistance` (the bag distance): how many more of some characters one string has
 * than the other (an edit changes at most one count on each side, a transposition none). ASCII only;
 * 0 (no bound) for other text. With `fold`, A-Z count as a-z (a bound of the distance between the
 * lower-cased strings). Lets `closest` skip most of a large workspace's names without the quadratic distance.
 */
export function bagDistance(a: string, b: string, fold = false): number {
  let ok = true;
  for (let k = 0; k < 2; k++) {
    const s = k ? b : a,
      step = k ? -1 : 1;
    for (let i = 0; i < s.length; i++) {
      let c = s.charCodeAt(i);
      if (fold && c >= 65 && c <= 90) c += 32;
      if (c < 128) counts[c]! += step;
      else ok = false;
    }
  }
  let more = 0,
    fewer = 0;
  for (let k = 0; k < 2; k++) {
    const s = k ? b : a;
    for (let i = 0; i < s.length; i++) {
      let c = s.charCodeAt(i);
      if (fold && c >= 65 && c <= 90) c += 32;
      if (c >= 128) continue;
      const n = counts[c]!;
      if (n > 0) more += n;
      else fewer -= n;
      counts[c] = 0;
    }
  }
  return ok ? Math.max(more, fewer) : 0;
}

/**
 * Candidates within a distance that grows with the word's length (a third of it, at least 2),
 * compared case-insensitively, best first, at most `limit`.
 */
export function closest(word: string, candidates: Iterable<string>, limit = 3): string[] {
  const w = word.toLowerCase();
  const max = Math.max(2, Math.floor(word.length / 3));
  const scored: [string, number][] = [];
  const seen = new Set<string>();
  for (const c of candidates) {
    // Most candidates of a large workspace end here, before any copy or set: the bound is already too far.
    if (c === word || bagDistance(w, c, true) > max || seen.has(c)) continue;
    seen.add(c);
    const lc = c.toLowerCase();
    const d = editDistance(w, lc, max);
    if (d <= max) scored.push([c, d]);
  }
  scored.sort((x, y) => x[1] - y[1] || x[0].localeCompare(y[0]));
  return scored.slice(0, limit).map(([c]) => c);
}

/**
 * Like `closest`, for keys made of `_`-separated words: a candidate also matches when the word is
 * close to one of its leading parts (`mesage` → `message_template` through `message`).
 */
export function closestKey(word: string, candidates: Iterable<string>, limit = 3): string[] {
  const w = word.toLowerCase();
  const max = Math.max(2, Math.floor(word.length / 3));
  const scored: [string, number][] = [];
  for (const c of new Set(candidates)) {
    if (c === word) continue;
    const d = keyDistance(w, c.toLowerCase(), max);
    if (d <= max) scored.push([c, d]);
  }
  scored.sort((x, y) => x[1] - y[1] || x[0].localeCompare(y[0]));
  return scored.slice(0, limit).map(([c]) => c);
}

/** Edit distance to a key or to one of its leading `_` parts (plus one): `mesage` is 2 from `message_template`. */
export function keyDistance(word: string, key: string, max = Infinity): number {
  let d = editDistance(word, key, max);
  for (let i = key.indexOf('_'); i >= 4; i = key.indexOf('_', i + 1)) d = Math.min(d, editDistance(word, key.slice(0, i), max) + 1);
  return d;
}
