/**
 * text.invalid-character without reading the whole text per keystroke: the positions of every invalid
 * character are kept with the text they were found in; the next text is compared with it (common
 * prefix and suffix, in large blocks), and only the part between is scanned again.
 */
import { BAD } from './text';
import type { TextSource } from '../model/textSource';
import { commonPrefixOfPieces, commonSuffixOfPieces } from '../util/pieceText';

export interface TextScan {
  /** In pieces when the document is (util/pieceText.ts): then compared piece by piece, never made whole here. */
  readonly text: TextSource;
  /** Offsets of every invalid character, ascending. */
  readonly hits: readonly number[];
}

function scan(text: TextSource, from: number, to: number): number[] {
  const out: number[] = [];
  const part = from === 0 && to === text.length ? text.toString() : text.slice(from, to);
  BAD.lastIndex = 0;
  for (const m of part.matchAll(BAD)) out.push(from + m.index);
  return out;
}

/** Length of the common prefix of `a` and `b`, at most `max`. Blocks compare natively; only the last is read per unit. */
export function commonPrefix(a: string, b: string, max = Math.min(a.length, b.length)): number {
  let i = 0;
  let block = 4096;
  while (i < max) {
    const e = Math.min(max, i + block);
    if (a.slice(i, e) !== b.slice(i, e)) {
      let hi = e;
      while (hi - i > 64) {
        const mid = (i + hi) >> 1;
        if (a.slice(i, mid) === b.slice(i, mid)) i = mid;
        else hi = mid;
      }
      while (i < hi && a.charCodeAt(i) === b.charCodeAt(i)) i++;
      return i;
    }
    i = e;
    block = Math.min(block * 2, 1 << 20);
  }
  return i;
}

/** Length of the common suffix of `a` and `b`, at most `max`. */
export function commonSuffix(a: string, b: string, max = Math.min(a.length, b.length)): number {
  let n = 0;
  let block = 4096;
  const A = a.length,
    B = b.length;
  while (n < max) {
    const m = Math.min(max, n + block);
    if (a.slice(A - m, A - n) !== b.slice(B - m, B - n)) {
      let hi = m;
      while (hi - n > 64) {
        const mid = (n + hi) >> 1;
        if (a.slice(A - mid, A - n) === b.slice(B - mid, B - n)) n = mid;
        else hi = mid;
      }
      while (n < hi && a.charCodeAt(A - n - 1) === b.charCodeAt(B - n - 1)) n++;
      return n;
    }
    n = m;
    block = Math.min(block * 2, 1 << 20);
  }
  return n;
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** The invalid characters of `text`, reusing what `prev` found outside the changed part. */
export function scanText(prev: TextScan | undefined, text: TextSource): TextScan {
  if (!prev) return { text, hits: scan(text, 0, text.length) };
  if (prev.text === text) return prev;
  const old = prev.text;
  const max = Math.min(old.length, text.length);
  const pre = commonPrefixOfPieces(old, text, max) ?? commonPrefix(old.toString(), text.toString(), max);
  const suf = commonSuffixOfPieces(old, text, max - pre) ?? commonSuffix(old.toString(), text.toString(), max - pre);
  // Rescan one unit more on each side (a surrogate's neighbour decides whether it is lone), never
  // splitting a surrogate pair at the window's edges.
  let a = Math.max(0, pre - 1);
  while (a > 0 && isLow(text.charCodeAt(a)) && isHigh(text.charCodeAt(a - 1))) a--;
  let b = Math.min(text.length, text.length - suf + 1);
  while (b < text.length && isLow(text.charCodeAt(b)) && isHigh(text.charCodeAt(b - 1))) b++;
  const delta = text.length - old.length;
  const bOld = b - delta;
  const hits: number[] = [];
  for (const h of prev.hits) {
    if (h >= a) break;
    hits.push(h);
  }
  for (const h of scan(text, a, b)) hits.push(h);
  for (const h of prev.hits) if (h >= bOld) hits.push(h + delta);
  return { text, hits };
}
