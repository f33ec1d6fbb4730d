/**
 * A large open document's text, kept in one byte buffer that each edit changes in place (docs/performance.md,
 * "Known limits"; bench/NOTES.md, "the text of every keystroke"). Rebuilding a JS string per edit leaves the
 * whole previous text behind: a 2 MB string is a large object, it outlives the young generation (the next
 * text is copied out of it), and only a full collection frees it, which V8 schedules at up to 4 × the live
 * heap: typing at 10,000 codes grew the process by 2.2 MB per keystroke. Node turns a buffer of 1 MiB or
 * more read as latin1 or UTF-16 into a string whose characters live outside the heap, held by a small
 * object that dies young: the text of a past keystroke is freed by the next young collection.
 * Where Node's Buffer is missing (the web extension's worker), `TextBuffer.available` is false.
 */
type NodeBuffer = import('node:buffer').Buffer;
const NodeBuffer = (globalThis as { Buffer?: typeof import('node:buffer').Buffer }).Buffer;

/** Characters past U+00FF: the text needs two bytes per character. */
const WIDE = /[^\u0000-\u00ff]/;

export class TextBuffer {
  /** Whether buffers can be made here (Node, not a web worker). */
  static readonly available = typeof NodeBuffer === 'function';
  private bytes: NodeBuffer;
  /** Two bytes per character (UTF-16 code units) rather than one (latin1). */
  private wide: boolean;
  /** The text's length in characters. */
  private length: number;
  /** The text the buffer holds now. */
  text: string;

  constructor(text: string) {
    this.wide = WIDE.test(text);
    this.length = text.length;
    this.bytes = NodeBuffer!.allocUnsafe(this.room(text.length));
    this.bytes.write(text, 0, this.encoding);
    this.text = this.read();
  }

  /** Replace [start, end) of the text by `insert`; returns the new text. */
  replace(start: number, end: number, insert: string): string {
    if (!this.wide && WIDE.test(insert)) {
      this.wide = true;
      const old = this.text;
      this.bytes = NodeBuffer!.allocUnsafe(this.room(old.length));
      this.bytes.write(old, 0, this.encoding);
    }
    const w = this.wide ? 2 : 1;
    const length = this.length - (end - start) + insert.length;
    if (length * w > this.bytes.length) {
      const grown = NodeBuffer!.allocUnsafe(this.room(length));
      this.bytes.copy(grown, 0, 0, start * w);
      this.bytes.copy(grown, (start + insert.length) * w, end * w, this.length * w);
      this.bytes = grown;
    } else if (end - start !== insert.length) this.bytes.copyWithin((start + insert.length) * w, end * w, this.length * w);
    if (insert) this.bytes.write(insert, start * w, this.encoding);
    this.length = length;
    this.text = this.read();
    return this.text;
  }

  private get encoding(): 'latin1' | 'utf16le' {
    return this.wide ? 'utf16le' : 'latin1';
  }

  /** Bytes for `chars` characters and room to type into. */
  private room(chars: number): number {
    return (chars + (chars >> 3) + 4096) * (this.wide ? 2 : 1);
  }

  private read(): string {
    return this.bytes.toString(this.encoding, 0, this.length * (this.wide ? 2 : 1));
  }
}
