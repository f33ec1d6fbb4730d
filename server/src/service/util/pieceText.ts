/**
 * A text kept in pieces of at most PIECE characters, each version a new object sharing the pieces an edit did not
 * touch (bench/NOTES.md, "the text of every keystroke"). A keystroke in a 2 MB text then makes one new piece, a
 * small string the young generation frees, instead of a new 2 MB string, which V8 makes a large object, promotes
 * and frees only in a full collection. `toString()` flattens the whole text once per version, only when asked.
 * The reads a validation makes near an edit (`charCodeAt`, `slice`, `indexOf`, `lastIndexOf`) go to the pieces.
 * test/service/pieceText.test.ts compares every read with the same reads of a plain string.
 */

/** Characters per piece at most: a piece stays a regular heap object (V8's large objects start at 128 KiB). */
export const PIECE = 16 * 1024;

/** The reads of a text that a string answers too: code reading only these takes either. */
export interface TextSource {
  readonly length: number;
  charCodeAt(i: number): number;
  slice(start?: number, end?: number): string;
  indexOf(s: string, from?: number): number;
  lastIndexOf(s: string, from?: number): number;
  includes(s: string, from?: number): boolean;
  toString(): string;
}

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
    // Piece by piece, each with the first s.length - 1 characters after it (a match may cross into the next).
    while (i < n) {
      const k = this.pieceAt(i);
      const end = this.starts[k + 1]!;
      const window = this.slice(i, Math.min(n, end + s.length - 1));
      const at = window.indexOf(s);
      if (at >= 0) return i + at;
      i = end;
    }
    return -1;
  }

  lastIndexOf(s: string, from = Infinity): number {
    const n = this.length;
    const f = Number.isNaN(Number(from)) ? Infinity : Math.trunc(Number(from));
    let i = Math.min(Math.max(f, 0), n - s.length);
    if (this.flat !== undefined) return this.flat.lastIndexOf(s, from);
    if (i < 0) return -1;
    if (s.length === 0) return i;
    // A match starting at i or before: piece by piece backwards, each with what follows it up to the match's end.
    for (;;) {
      const k = this.pieceAt(i);
      const start = this.starts[k]!;
      const window = this.slice(start, i + s.length);
      const at = window.lastIndexOf(s);
      if (at >= 0) return start + at;
      if (start === 0) return -1;
      i = start - 1;
    }
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
    // The touched pieces' text with the edit made, and the next piece's too when the two are small together.
    let lastTouched = Math.max(first, last);
    let middle = this.slice(this.starts[first]!, a) + text + this.slice(b, this.starts[lastTouched + 1]!);
    if (lastTouched + 1 < this.pieces.length && middle.length + this.pieces[lastTouched + 1]!.length <= this.size)
      middle += this.pieces[++lastTouched]!;
    const made: string[] = [];
    for (let i = 0; i < middle.length; i += this.size) made.push(own(middle.slice(i, i + this.size)));
    const pieces = [...this.pieces.slice(0, first), ...made, ...this.pieces.slice(lastTouched + 1)];
    return new PieceText(pieces, this.size);
  }
}

function clampIndex(x: number, n: number): number {
  const v = Math.trunc(Number(x)) || 0;
  return v < 0 ? Math.max(0, n + v) : Math.min(v, n);
}
