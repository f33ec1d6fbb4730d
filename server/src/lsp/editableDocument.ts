/**
 * An open document the server edits by the client's incremental changes: positions read as
 * `vscode-languageserver-textdocument` reads them (lines end at CR LF, LF or a lone CR; a position inside
 * a line break or past a line's end means the line's end), and a text of `bufferFrom` characters or more
 * kept in a TextBuffer, so a keystroke leaves no copy of the whole text behind for a full collection.
 * Changes must be clamped first (textDocuments.ts); test/lsp/editableDocument.test.ts compares it with the
 * library's documents.
 */
import type { Position, Range, TextDocument } from 'vscode-languageserver-textdocument';
import { TextBuffer } from './textBuffer';

/** Where texts are kept in a buffer: Node makes a string of 1 MiB or more from a buffer without copying it into the heap. */
export const BUFFER_FROM = 1 << 20;

/** A clamped change: replace `range` (start not after end), or the whole text. */
export type SafeChange = { range: Range; text: string } | { text: string };

const CR = 13,
  LF = 10;

/** Offsets where lines start in `text`, from `from` (a line start or after CR) to `to`, pushed to `out` shifted by `at`. */
function pushLineStarts(text: string, from: number, to: number, out: number[]): void {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === LF || (c === CR && text.charCodeAt(i + 1) !== LF)) out.push(i + 1);
  }
}

export class EditableDocument implements TextDocument {
  private content: string;
  private buffer: TextBuffer | undefined;
  private starts: number[] | undefined;
  private ver: number;

  constructor(
    readonly uri: string,
    readonly languageId: string,
    version: number,
    text: string,
    /** From which length a text is kept in a buffer (tests lower it). */
    private readonly bufferFrom = BUFFER_FROM,
  ) {
    this.ver = version;
    this.content = text;
  }

  get version(): number {
    return this.ver;
  }

  get lineCount(): number {
    return this.lineStarts().length;
  }

  getText(range?: Range): string {
    return range ? this.content.substring(this.offsetAt(range.start), this.offsetAt(range.end)) : this.content;
  }

  positionAt(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.content.length));
    const starts = this.lineStarts();
    const line = this.lineOf(o);
    return { line, character: this.beforeLineBreak(o, starts[line]!) - starts[line]! };
  }

  offsetAt(p: Position): number {
    const starts = this.lineStarts();
    if (p.line >= starts.length) return this.content.length;
    if (p.line < 0) return 0;
    const start = starts[p.line]!;
    if (p.character <= 0) return start;
    return this.beforeLineBreak(Math.min(start + p.character, this.lineEnd(p.line)), start);
  }

  getLineRange(line: number): Range {
    const starts = this.lineStarts();
    if (line < 0) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    if (line >= starts.length) {
      const last = starts.length - 1;
      return { start: { line: last, character: 0 }, end: { line: last, character: this.content.length - starts[last]! } };
    }
    const start = starts[line]!;
    const end = this.beforeLineBreak(this.lineEnd(line), start);
    return { start: { line, character: 0 }, end: { line, character: end - start } };
  }

  getEOLCharacters(line: number): string {
    const starts = this.lineStarts();
    if (line < 0 || line >= starts.length) return '';
    const next = this.lineEnd(line);
    return this.content.substring(this.beforeLineBreak(next, starts[line]!), next);
  }

  /** Apply clamped changes in order, then take `version`. */
  update(changes: readonly SafeChange[], version: number): void {
    for (const c of changes) {
      if ('range' in c) {
        const a = this.offsetAt(c.range.start),
          b = this.offsetAt(c.range.end);
        this.replace(Math.min(a, b), Math.max(a, b), c.text);
      } else {
        this.buffer = undefined;
        this.content = c.text;
        this.starts = undefined;
      }
    }
    this.ver = version;
  }

  private replace(start: number, end: number, insert: string): void {
    const length = this.content.length - (end - start) + insert.length;
    if (length >= this.bufferFrom && TextBuffer.available) {
      this.buffer ??= new TextBuffer(this.content);
      this.content = this.buffer.replace(start, end, insert);
    } else {
      this.buffer = undefined;
      this.content = this.content.slice(0, start) + insert + this.content.slice(end);
    }
    if (this.starts) this.moveLineStarts(this.starts, start, end, insert.length);
  }

  /**
   * The line starts after [start, end) became `inserted` characters: a line start depends on the two characters
   * before it, so the starts in [start, end] are found again in the new text, those after `end` move.
   */
  private moveLineStarts(starts: number[], start: number, end: number, inserted: number): void {
    let lo = 0,
      hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]! < start) lo = mid + 1;
      else hi = mid;
    }
    let past = lo;
    while (past < starts.length && starts[past]! <= end) past++;
    const found: number[] = lo === 0 ? [0] : [];
    pushLineStarts(this.content, Math.max(0, start - 1), start + inserted, found);
    const delta = inserted - (end - start);
    if (found.length === past - lo) for (let i = 0; i < found.length; i++) starts[lo + i] = found[i]!;
    else if (found.length < 10000) starts.splice(lo, past - lo, ...found);
    else {
      this.starts = starts.slice(0, lo).concat(found, starts.slice(past));
      starts = this.starts;
    }
    if (delta) for (let i = lo + found.length; i < starts.length; i++) starts[i]! += delta;
  }

  private lineStarts(): number[] {
    if (!this.starts) {
      this.starts = [0];
      pushLineStarts(this.content, 0, this.content.length, this.starts);
    }
    return this.starts;
  }

  /** Where the line after `line` starts (the text's end for the last). */
  private lineEnd(line: number): number {
    const starts = this.starts!;
    return line + 1 < starts.length ? starts[line + 1]! : this.content.length;
  }

  /** The line holding offset `o`: the last start at or before it. */
  private lineOf(o: number): number {
    const starts = this.starts!;
    let lo = 0,
      hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]! > o) hi = mid;
      else lo = mid + 1;
    }
    return lo - 1;
  }

  /** `o` moved back out of the line break that ends the line starting at `start`. */
  private beforeLineBreak(o: number, start: number): number {
    while (o > start && (this.content.charCodeAt(o - 1) === CR || this.content.charCodeAt(o - 1) === LF)) o--;
    return o;
  }
}
