/**
 * A text kept in pieces of at most PIECE characters, each version a new object sharing the pieces an edit did not
 * touch (bench/NOTES.md, "the text of every keystroke"). A keystroke in a 2 MB text then makes a new piece or two, each a
 * small string the young generation frees, instead of a new 2 MB string, which V8 makes a large object, promotes
 * and frees only in a full collection. `toString()` flattens the whole text once per version, only when asked.
 * The reads a validation makes near an edit (`charCodeAt`, `slice`, `indexOf`, `lastIndexOf`) go to the pieces.
 * test/service/pieceText.test.ts compares every read with the same reads of a plain string.
 */
import type { TextSource } from '../model/textSource';

export type { TextSource };

/** Characters per piece at most: a piece stays a regular heap object (V8's large objects start at 128 KiB). */
export const PIECE = 16 * 1024;

/** A copy of `s` that refers to no parent string (a slice would keep its whole parent alive). */
const own = (s: string): string => (s.length < 13 ? s : (' ' + s).slice(1));

export class PieceText implements TextSource {
  /** Where each piece starts; `starts[pieces.length]` is the length. */
  private readonly starts: number[];
  private flat: string | undefined;

  private constructor(
    private readonly pieces: readonly string[],
    /** Characters per piece at most (PIECE; tests use small ones to cross piece boundaries often). */
    private readonly size: number,
    flat?: string,
  ) {
    const starts = new Array<number>(pieces.length + 1);
    let at = 0;
    for (let i = 0; i < pieces.length; i++) {
      starts[i] = at;
      at += pieces[i]!.length;
    }
    starts[pieces.length] = at;
    this.starts = starts;
    this.flat = flat;
  }

  /** `text` in pieces that are views into it (no copy): `text` itself answers `toString()`. */
  static of(text: string, size = PIECE): PieceText {
    const pieces: string[] = [];
    for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
    return new PieceText(pieces, size, text);
  }

  get length(): number {
    return this.starts[this.pieces.length]!;
  }

  /** The whole text as one string: made once per version, on first use. */
  toString(): string {
    return (this.flat ??= this.pieces.join(''));
  }

  /** Whether the whole text is already one string (`toString()` would cost nothing). */
  get isFlat(): boolean {
    return this.flat !== undefined;
  }

  /** The pieces, in order. */
  get pieceList(): readonly string[] {
    return this.pieces;
  }

  /** How many pieces (tests: edits keep them few). */
  get pieceCount(): number {
    return this.pieces.length;
  }

  /** The index of the piece holding offset `i` (0 ≤ i < length), by binary search. */
  private pieceAt(i: number): number {
    const s = this.starts;
    let lo = 0,
      hi = this.pieces.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (s[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  charCodeAt(i: number): number {
    i = Math.trunc(i) || 0;
    if (!(i >= 0 && i < this.length)) return NaN;
    if (this.flat !== undefined) return this.flat.charCodeAt(i);
    const k = this.pieceAt(i);
    return this.pieces[k]!.charCodeAt(i - this.starts[k]!);
  }

  slice(start = 0, end = this.length): string {
    const n = this.length;
    const a = clampIndex(start, n),
      b = clampIndex(end, n);
    if (b <= a) return '';
    if (this.flat !== undefined) return this.flat.slice(a, b);
    const k = this.pieceAt(a);
    const s0 = this.starts[k]!;
    if (b <= this.starts[k + 1]!) return this.pieces[k]!.slice(a - s0, b - s0);
    const parts = [this.pieces[k]!.slice(a - s0)];
    let j = k + 1;
    while (this.starts[j + 1]! < b) parts.push(this.pieces[j++]!);
    parts.push(this.pieces[j]!.slice(0, b - this.starts[j]!));
    return parts.join('');
  }

  indexOf(s: string, from = 0): number {
    const n = this.length;
    let i = Math.min(Math.max(Math.trunc(from) || 0, 0), n);
    if (this.flat !== undefined) return this.flat.indexOf(s, i);
    if (s.length === 0) return i;
    // Piece by piece: a match inside the piece comes before one that starts in its last s.length - 1 characters
    // and crosses into the next pieces (only those are read as a copy).
    while (i < n) {
      const k = this.pieceAt(i);
      const start = this.starts[k]!,
        piece = this.pieces[k]!;
      const at = piece.indexOf(s, i - start);
      if (at >= 0) return start + at;
      const end = start + piece.length;
      if (s.length > 1) {
        const cross = Math.max(i, end - s.length + 1);
        const c = this.slice(cross, Math.min(n, end + s.length - 1)).indexOf(s);
        if (c >= 0) return cross + c;
      }
      i = end;
    }
    return -1;
  }

  lastIndexOf(s: string, from = Infinity): number {
    const n = this.length;
    if (this.flat !== undefined) return this.flat.lastIndexOf(s, from);
    const f = Number.isNaN(Number(from)) ? Infinity : Math.trunc(Number(from));
    let i = Math.min(Math.max(f, 0), n - s.length);
    if (i < 0) return -1;
    if (s.length === 0) return i;
    // The last match starting at i or before: one crossing out of the piece holding i starts after any inside it.
    for (;;) {
      const k = this.pieceAt(i);
      const start = this.starts[k]!,
        piece = this.pieces[k]!;
      const inside = piece.length - s.length; // the last start of a match inside the piece (relative)
      if (s.length > 1 && i - start > inside) {
        const cross = Math.max(start, start + inside + 1);
        const c = this.slice(cross, i + s.length).lastIndexOf(s);
        if (c >= 0) return cross + c;
      }
      if (inside >= 0) {
        const at = piece.lastIndexOf(s, Math.min(i - start, inside));
        if (at >= 0) return start + at;
      }
      if (start === 0) return -1;
      i = start - 1;
    }
  }

  /** The common prefix's length with `other`, at most `max`: shared pieces skipped, then compared in blocks. */
  prefixWith(other: PieceText, max: number): number {
    let i = 0,
      at = 0;
    // Pieces at the same offset that are the same string are equal.
    while (i < this.pieces.length && i < other.pieces.length && at < max && this.pieces[i] === other.pieces[i])
      at += this.pieces[i++]!.length;
    at = Math.min(at, max);
    // Then blocks compared natively, and the first block that differs halved down to a few characters.
    for (let block = 1024; at < max; block = Math.min(block * 2, PIECE)) {
      const e = Math.min(max, at + block);
      const x = this.slice(at, e),
        y = other.slice(at, e);
      if (x === y) {
        at = e;
        continue;
      }
      let lo = 0,
        hi = x.length;
      while (hi - lo > 16) {
        const mid = (lo + hi) >> 1;
        if (x.slice(lo, mid) === y.slice(lo, mid)) lo = mid;
        else hi = mid;
      }
      while (lo < hi && x.charCodeAt(lo) === y.charCodeAt(lo)) lo++;
      return at + lo;
    }
    return at;
  }

  /** The common suffix's length with `other`, at most `max`. */
  suffixWith(other: PieceText, max: number): number {
    let i = this.pieces.length - 1,
      j = other.pieces.length - 1,
      n = 0;
    while (i >= 0 && j >= 0 && n < max && this.pieces[i] === other.pieces[j]) {
      n += this.pieces[i]!.length;
      i--;
      j--;
    }
    n = Math.min(n, max);
    const A = this.length,
      B = other.length;
    for (let block = 1024; n < max; block = Math.min(block * 2, PIECE)) {
      const m = Math.min(max, n + block);
      const x = this.slice(A - m, A - n),
        y = other.slice(B - m, B - n);
      if (x === y) {
        n = m;
        continue;
      }
      // x and y end where the common suffix found so far starts; how far back from their ends do they agree?
      let lo = 0,
        hi = x.length;
      const L = x.length;
      while (hi - lo > 16) {
        const mid = (lo + hi) >> 1;
        if (x.slice(L - mid, L - lo) === y.slice(L - mid, L - lo)) lo = mid;
        else hi = mid;
      }
      while (lo < hi && x.charCodeAt(L - lo - 1) === y.charCodeAt(L - lo - 1)) lo++;
      return n + lo;
    }
    return n;
  }

  includes(s: string, from = 0): boolean {
    return this.indexOf(s, from) >= 0;
  }

  /**
   * This text with [start, end) replaced by `text` (offsets clamped as `slice` does): a new version that shares
   * every piece the edit does not touch; the touched ones are made again, each a string of its own.
   */
  edit(start: number, end: number, text: string): PieceText {
    const n = this.length;
    const a = clampIndex(start, n);
    const b = Math.max(a, clampIndex(end, n));
    if (!this.pieces.length) return PieceText.of(own(text), this.size);
    const first = this.pieceAt(Math.min(a, n - 1));
    const last = this.pieceAt(Math.max(0, Math.min(b, n) - (b > a ? 1 : 0)));
    // The touched pieces' text with the edit made, and the next and previous pieces' too when they fit with it.
    let lastTouched = Math.max(first, last);
    let firstTouched = first;
    let middle = this.slice(this.starts[first]!, a) + text + this.slice(b, this.starts[lastTouched + 1]!);
    if (lastTouched + 1 < this.pieces.length && middle.length + this.pieces[lastTouched + 1]!.length <= this.size)
      middle += this.pieces[++lastTouched]!;
    if (firstTouched > 0 && middle.length + this.pieces[firstTouched - 1]!.length <= this.size)
      middle = this.pieces[--firstTouched]! + middle;
    // Cut into pieces of equal length: a character typed into a full piece makes two halves, not a full piece
    // and a piece of one character (which, typed at random places, left tens of thousands of tiny pieces and
    // made each version's lists large objects again; test/service/pieceText.test.ts counts them).
    const made: string[] = [];
    const step = Math.ceil(middle.length / Math.max(1, Math.ceil(middle.length / this.size)));
    for (let i = 0; i < middle.length; i += step) made.push(own(middle.slice(i, i + step)));
    const pieces = [...this.pieces.slice(0, firstTouched), ...made, ...this.pieces.slice(lastTouched + 1)];
    return new PieceText(pieces, this.size);
  }
}

/**
 * The length of the common prefix of two texts, at most `max`, when both are in pieces: the pieces two versions
 * share are the same strings, so they are passed over by identity and only the first piece that differs is read.
 * Undefined when either is a plain string (the caller compares strings).
 */
export function commonPrefixOfPieces(a: TextSource, b: TextSource, max: number): number | undefined {
  if (!(a instanceof PieceText && b instanceof PieceText)) return undefined;
  return a.prefixWith(b, max);
}

/** As `commonPrefixOfPieces`, from the ends. */
export function commonSuffixOfPieces(a: TextSource, b: TextSource, max: number): number | undefined {
  if (!(a instanceof PieceText && b instanceof PieceText)) return undefined;
  return a.suffixWith(b, max);
}

/** The strings a text is made of, in order: its pieces, or the string itself (a hash over them equals one over the whole). */
export function piecesOf(t: TextSource): readonly string[] {
  return t instanceof PieceText ? t.pieceList : [t.toString()];
}

/** A document's text as the service reads it: in pieces when the document keeps it so (lsp/pieceDocument.ts). */
export function sourceOf(doc: { getText(): string }): TextSource {
  const source = (doc as { source?: unknown }).source;
  return source instanceof PieceText ? source : doc.getText();
}

/**
 * `obj` with a `text` property read from `source`: the string itself, or for a text in pieces a getter that makes the
 * whole text on first read, and `source` kept beside it (so a model or section built on the keystroke path costs no 2 MB string until read).
 */
export function withText<T extends object>(obj: T, source: TextSource): T & { readonly text: string; readonly source?: TextSource } {
  if (typeof source === 'string') return Object.assign(obj, { text: source });
  Object.defineProperty(obj, 'text', { get: () => source.toString(), enumerable: true, configurable: true });
  return Object.assign(obj, { source }) as T & { readonly text: string; readonly source?: TextSource };
}

/** What a model or section reads on the keystroke path: its source when it has one, else its text. */
export const sourceText = (x: { readonly text: string; readonly source?: TextSource }): TextSource => x.source ?? x.text;

function clampIndex(x: number, n: number): number {
  const v = Math.trunc(Number(x)) || 0;
  return v < 0 ? Math.max(0, n + v) : Math.min(v, n);
}
