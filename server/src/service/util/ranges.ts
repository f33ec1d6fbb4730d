/** Offsets ↔ LSP ranges, converted once (conventions C3). */
import type { Position, Range } from 'vscode-languageserver-types';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Span } from '../model/model';

export const toRange = (doc: TextDocument, start: number, end: number): Range => ({
  start: doc.positionAt(start),
  end: doc.positionAt(end),
});

export const spanRange = (doc: TextDocument, s: Span): Range => toRange(doc, s.start, s.end);

export const overlaps = (a: Range, b: Range): boolean => !(before(a.end, b.start) || before(b.end, a.start));

export const before = (p: Position, q: Position): boolean => p.line < q.line || (p.line === q.line && p.character < q.character);

export const contains = (s: Span, offset: number): boolean => offset >= s.start && offset <= s.end;

/**
 * `TextDocument.positionAt` over `text`, with the line starts made at the first question: by `indexOf` when
 * the text has no CR (the document reads every character, a seventh of the index pass), else as the
 * document makes them (CR, LF and CRLF each end a line).
 */
export function positionsIn(text: string): (offset: number) => Position {
  let starts: number[] | undefined;
  return offset => {
    if (!starts) {
      starts = [0];
      if (!text.includes('\r')) for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
      else
        for (let i = 0; i < text.length; i++) {
          const c = text.charCodeAt(i);
          if (c === 13 || c === 10) {
            if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
            starts.push(i + 1);
          }
        }
    }
    let at = Math.max(Math.min(offset, text.length), 0);
    let low = 0,
      high = starts.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (starts[mid]! > at) high = mid;
      else low = mid + 1;
    }
    const line = low - 1;
    const start = starts[line]!;
    // As the document does: an offset inside a line break stands before it.
    while (at > start && (text.charCodeAt(at - 1) === 13 || text.charCodeAt(at - 1) === 10)) at--;
    return { line, character: at - start };
  };
}
