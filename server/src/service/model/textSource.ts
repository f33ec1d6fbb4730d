/**
 * The reads of a text that a string answers too: code that reads only these takes a string or a text kept in
 * pieces (util/pieceText.ts), which answers them without making the whole text (bench/NOTES.md, "the text of every
 * keystroke"). `toString()` makes the whole text.
 */
export interface TextSource {
  readonly length: number;
  charCodeAt(i: number): number;
  slice(start?: number, end?: number): string;
  indexOf(s: string, from?: number): number;
  lastIndexOf(s: string, from?: number): number;
  includes(s: string, from?: number): boolean;
  toString(): string;
}
