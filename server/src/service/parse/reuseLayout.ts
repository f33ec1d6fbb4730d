/**
 * The keystroke path of the chunked parse (ARCHITECTURE.md, "The incremental parse"): find what changed
 * between the previous text and this one, and when the change lies inside one error_codes / error_mapping
 * entry and keeps the line-based split as it was, reuse the previous layout: every other chunk keeps its
 * parsed nodes (the ones after the edit move by the edit's length), only the touched entry is parsed again.
 * No chunk text is sliced or hashed, the text is not split again. Anything else returns undefined and the
 * caller splits the whole text.
 */
import type { TextSource } from '../model/textSource';

export interface Piece<C = unknown> {
  start: number;
  end: number;
  sub?: Piece<C>[];
  header?: Piece<C>;
  /** The chunk parsed from exactly this text last time. */ chunk?: C;
}

/** An edit: [start, oldEnd) of the previous text became [start, newEnd) of this one. */
export interface Change {
  readonly start: number;
  readonly oldEnd: number;
  readonly newEnd: number;
}

/** The changed range, from the common prefix and suffix (or from the caller's hint when it has one). */
export function diff(old: string, text: string): Change {
  const min = Math.min(old.length, text.length);
  let p = 0;
  while (p < min && old.charCodeAt(p) === text.charCodeAt(p)) p++;
  let s = 0;
  const max = min - p;
  while (s < max && old.charCodeAt(old.length - 1 - s) === text.charCodeAt(text.length - 1 - s)) s++;
  return { start: p, oldEnd: old.length - s, newEnd: text.length - s };
}

/** `a` then `b` as one change: the union of what they touched. */
export function mergeChanges(a: Change, b: Change): Change {
  const start = Math.min(a.start, b.start);
  const mid = Math.max(a.newEnd, b.oldEnd);
  return { start, oldEnd: mid - (a.newEnd - a.oldEnd), newEnd: mid + (b.newEnd - b.oldEnd) };
}

const NOT_A_KEY_START = new Set([' ', '\t', '#', '\n', '\r', '-', '?', '{', '[']);

/** Where an edit lies in the layout: top piece `top`, its entry `sub`, whose end moves to `newEnd`. */
export interface EditSite {
  readonly top: number;
  readonly sub: number;
  readonly newEnd: number;
  readonly delta: number;
}

/**
 * Where `change` lies when it stays inside one entry chunk of a split block and keeps the split as it
 * was; `unsafe` tests the chunk's new text for what the chunked parse refuses. Undefined otherwise.
 */
export function locateEdit<C>(
  pieces: readonly Piece<C>[],
  old: TextSource,
  text: TextSource,
  change: Change,
  unsafe: (t: string) => boolean,
): EditSite | undefined {
  const { start, oldEnd } = change;
  const delta = change.newEnd - oldEnd;
  const ti = findPiece(pieces, start);
  const top = ti < 0 ? undefined : pieces[ti]!;
  if (!top?.sub) return undefined;
  const si = findPiece(top.sub, start);
  if (si < 0) return undefined;
  const leaf = top.sub[si]!;
  // The damage ends before the chunk's last newline: the indentation of the next entry's key is untouched.
  const lastNl = old.lastIndexOf('\n', leaf.end - 1);
  if (lastNl >= leaf.start ? oldEnd > lastNl : leaf.end !== old.length) return undefined;
  const newEnd = leaf.end + delta;
  if (newEnd <= leaf.start || NOT_A_KEY_START.has(text.slice(leaf.start, leaf.start + 1))) return undefined;
  const first = top.sub[0]!.start;
  const indent = first - (old.lastIndexOf('\n', first - 1) + 1);
  // Every line of the new chunk after its first (and before its tail) stays inside the entry.
  const tail = lastNl >= leaf.start ? lastNl + delta : newEnd;
  for (let nl = text.indexOf('\n', leaf.start); nl >= 0 && nl < tail; nl = text.indexOf('\n', nl + 1)) {
    let i = nl + 1;
    while (i < newEnd && text.charCodeAt(i) === 32) i++;
    const c = text.slice(i, i + 1);
    if (i >= newEnd || c === '\n' || c === '\r' || c === '#' || c === '\t') continue;
    if (i - nl - 1 <= indent) return undefined;
  }
  if (unsafe(text.slice(leaf.start, newEnd))) return undefined;
  return { top: ti, sub: si, newEnd, delta };
}

/**
 * The pieces of `text`, reusing `pieces` (the previous text's) when the edit stays inside one entry
 * chunk of a split block (see locateEdit): a copy, the edited entry without its chunk.
 */
export function reuseLayout<C>(
  pieces: readonly Piece<C>[],
  old: string,
  text: string,
  change: Change,
  unsafe: (t: string) => boolean,
): Piece<C>[] | undefined {
  const site = locateEdit(pieces, old, text, change, unsafe);
  if (!site) return undefined;
  const { top: ti, sub: si, newEnd, delta } = site;
  const move = (p: Piece<C>, d: number): Piece<C> => ({ start: p.start + d, end: p.end + d, chunk: p.chunk });
  return pieces.map((p, i) => {
    if (i < ti) return p.sub ? { ...p, sub: p.sub.slice() } : { ...p };
    if (i > ti)
      return p.sub
        ? { start: p.start + delta, end: p.end + delta, header: move(p.header!, delta), sub: p.sub.map(x => move(x, delta)) }
        : move(p, delta);
    return {
      start: p.start,
      end: p.end + delta,
      header: { ...p.header! },
      sub: p.sub!.map((x, j) => (j < si ? { ...x } : j > si ? move(x, delta) : { start: x.start, end: newEnd, chunk: undefined })),
    };
  });
}

/** Index of the piece holding offset `at` (pieces are sorted and contiguous). */
function findPiece<C>(pieces: readonly Piece<C>[], at: number): number {
  let lo = 0,
    hi = pieces.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1,
      p = pieces[mid]!;
    if (at < p.start) hi = mid - 1;
    else if (at >= p.end) lo = mid + 1;
    else return mid;
  }
  return -1;
}
