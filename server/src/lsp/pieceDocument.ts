/**
 * An open document whose text is kept in pieces (service `PieceText`): an incremental change makes a new version
 * that shares the untouched pieces, and the line starts are updated in place, so a keystroke in a 2 MB document
 * makes no 2 MB string; `getText()` makes the whole text once per version, only when asked (bench/NOTES.md, "the
 * text of every keystroke"). Positions and offsets answer as `vscode-languageserver-textdocument`'s document does
 * (a position past a line's end is that line's end, before its line break; lines end at CR LF, CR or LF):
 * test/lsp/pieceDocument.test.ts compares the two over fuzzed edits.
 */
import type { Position, Range, TextDocument } from 'vscode-languageserver-textdocument';
import { PieceText, type TextSource } from '../service';

const CR = 13,
  LF = 10;
const isLineBreak = (c: number) => c === CR || c === LF;

export class PieceDocument implements TextDocument {
  private text: PieceText;
  /** Where each line starts (the first at 0): after an LF, a CR LF, or a CR not followed by an LF. */
  private lines: number[];

  constructor(
    readonly uri: string,
    readonly languageId: string,
    public version: number,
    text: string,
    /** Characters per piece (the service's default; tests use small ones). */
    private readonly pieceSize?: number,
  ) {
    this.text = PieceText.of(text, pieceSize);
    this.lines = lineStartsOf(text);
  }

  /** The text, read in pieces: what the service reads without making the whole string. */
  get source(): TextSource {
    return this.text;
  }

  get length(): number {
    return this.text.length;
  }

  get lineCount(): number {
    return this.lines.length;
  }

  getText(range?: Range): string {
    if (!range) return this.text.toString();
    const a = this.offsetAt(range.start),
      b = this.offsetAt(range.end);
    return this.text.slice(Math.min(a, b), Math.max(a, b));
  }

  /** `offset` back over the line break characters before it, not before `lineStart`. */
  private beforeLineBreak(offset: number, lineStart: number): number {
    while (offset > lineStart && isLineBreak(this.text.charCodeAt(offset - 1))) offset--;
    return offset;
  }

  positionAt(offset: number): Position {
    offset = Math.max(Math.min(offset, this.text.length), 0);
    const lines = this.lines;
    // The first line starting after `offset`; the line before it holds `offset`.
    let lo = 0,
      hi = lines.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (lines[mid]! > offset) hi = mid;
      else lo = mid + 1;
    }
    const line = lo - 1;
    return { line, character: this.beforeLineBreak(offset, lines[line]!) - lines[line]! };
  }

  offsetAt(position: Position): number {
    const lines = this.lines;
    if (position.line >= lines.length) return this.text.length;
    if (position.line < 0) return 0;
    const start = lines[position.line]!;
    if (position.character <= 0) return start;
    const next = position.line + 1 < lines.length ? lines[position.line + 1]! : this.text.length;
    return this.beforeLineBreak(Math.min(start + position.character, next), start);
  }

  /** The line's range without its line break; past the last line, what the last line holds; before the first, empty. */
  getLineRange(line: number): Range {
    const lines = this.lines;
    if (line >= lines.length) {
      const last = lines.length - 1;
      return { start: { line: last, character: 0 }, end: { line: last, character: this.text.length - lines[last]! } };
    }
    if (line < 0) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const start = lines[line]!;
    const next = line + 1 < lines.length ? lines[line + 1]! : this.text.length;
    return { start: { line, character: 0 }, end: { line, character: this.beforeLineBreak(next, start) - start } };
  }

  /** The line's line break characters ('' for the last line or a line out of range). */
  getEOLCharacters(line: number): string {
    const lines = this.lines;
    if (line >= lines.length || line < 0) return '';
    const next = line + 1 < lines.length ? lines[line + 1]! : this.text.length;
    return this.text.slice(this.beforeLineBreak(next, lines[line]!), next);
  }

  /** A document of its own holding the same text at `version` (the text's pieces shared: they are never changed). */
  copy(version: number): PieceDocument {
    const d = new PieceDocument(this.uri, this.languageId, version, '', this.pieceSize);
    d.text = this.text;
    d.lines = this.lines.slice();
    return d;
  }

  /** The whole text replaced. */
  replaceAll(text: string): void {
    this.text = PieceText.of(text, this.pieceSize);
    this.lines = lineStartsOf(text);
  }

  /** [start, end) (offsets of the current text, start ≤ end) replaced by `inserted`. */
  edit(start: number, end: number, inserted: string): void {
    const next = this.text.edit(start, end, inserted);
    const delta = inserted.length - (end - start);
    const lines = this.lines;
    // Starts before `start` stay (their two characters did not change); starts after `end` move by delta (theirs
    // moved with them); starts from `start` to the end of the insertion are found again, from the new text.
    const from = firstAtLeast(lines, start);
    const to = firstAtLeast(lines, end + 1);
    const found: number[] = [];
    const insEnd = start + inserted.length;
    let prev = start > 0 ? next.charCodeAt(start - 1) : -1;
    for (let p = start; p <= insEnd; p++) {
      const cur = p < insEnd ? inserted.charCodeAt(p - start) : p < next.length ? next.charCodeAt(p) : -1;
      if (p === 0 || prev === LF || (prev === CR && cur !== LF)) found.push(p);
      prev = cur;
    }
    if (found.length < 10000) lines.splice(from, to - from, ...found);
    else this.lines = [...lines.slice(0, from), ...found, ...lines.slice(to)];
    if (delta !== 0) {
      const all = this.lines;
      for (let i = from + found.length; i < all.length; i++) all[i]! += delta;
    }
    this.text = next;
  }
}

/** The first index of `a` (ascending) holding `x` or more; a.length when none does. */
function firstAtLeast(a: readonly number[], x: number): number {
  let lo = 0,
    hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Where each line of `text` starts. The line breaks are found with `indexOf`, which V8 runs as a vectorized search:
 * a character loop took 0.6 s over an opened 200 MB document (one declined for its size) and a tenth of that over
 * 14 MiB. LFs and lone CRs (not followed by an LF) are two ascending series, merged.
 */
function lineStartsOf(text: string): number[] {
  const out = [0];
  const loneCr = (from: number) => {
    let i = text.indexOf('\r', from);
    while (i !== -1 && text.charCodeAt(i + 1) === LF) i = text.indexOf('\r', i + 2);
    return i;
  };
  let lf = text.indexOf('\n');
  let cr = loneCr(0);
  while (lf !== -1 || cr !== -1) {
    if (cr === -1 || (lf !== -1 && lf < cr)) {
      out.push(lf + 1);
      lf = text.indexOf('\n', lf + 1);
    } else {
      out.push(cr + 1);
      cr = loneCr(cr + 1);
    }
  }
  return out;
}
