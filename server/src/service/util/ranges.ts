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
