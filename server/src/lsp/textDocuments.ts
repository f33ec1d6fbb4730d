/**
 * The open documents, with every incremental change clamped to the document first (test/lsp/textDocuments.test.ts).
 * The protocol says a position past the end of a line means the line's end, and a line past the last
 * means the document's end; `TextDocument.update` computes the text right but records line offsets at
 * the unclamped line numbers, leaving holes that later give `character: null`. Clamped positions make
 * an edited document identical to a fresh one holding the same text.
 */
import { TextDocuments, type TextDocumentContentChangeEvent } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextChange } from '../service';
import { PieceDocument } from './pieceDocument';

type Position = { line: number; character: number };

/** What clamping reads of a document: the library's, or one kept in pieces (read without making its whole text). */
type Doc = TextDocument | PieceDocument;
const lengthOf = (doc: Doc): number => (doc instanceof PieceDocument ? doc.length : doc.getText().length);

const whole = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) ? Math.max(0, Math.trunc(x)) : 0);

/** A position inside `doc`: lines past the last go to the end, characters past a line's end to that end (before its line break). */
function clampPosition(doc: Doc, p: unknown): Position {
  const q = (p && typeof p === 'object' ? p : {}) as Record<string, unknown>;
  const line = whole(q.line);
  if (line >= doc.lineCount) return doc.positionAt(lengthOf(doc));
  return doc.positionAt(doc.offsetAt({ line, character: whole(q.character) }));
}

/** One change made safe for `TextDocument.update`; undefined for a change that is neither incremental nor full. */
function clampChange(doc: Doc, change: TextDocumentContentChangeEvent): TextDocumentContentChangeEvent | undefined {
  const c = change as { range?: unknown; text?: unknown };
  if (typeof c.text !== 'string') return undefined;
  if (c.range === undefined) return { text: c.text };
  if (!c.range || typeof c.range !== 'object') return undefined;
  const r = c.range as { start?: unknown; end?: unknown };
  return { range: { start: clampPosition(doc, r.start), end: clampPosition(doc, r.end) }, text: c.text };
}

/** What the changes of one update touched, in offsets of the text each applied to (for `service.edited`). */
export type EditListener = (uri: string, from: number, to: number, edits: TextChange[]) => void;

/** Apply changes one by one, each clamped against the text the previous ones left. */
export function updateClamped<D extends Doc>(
  doc: D,
  changes: readonly TextDocumentContentChangeEvent[],
  version: number,
  onEdits?: EditListener,
): D {
  const from = doc.version;
  const edits: TextChange[] = [];
  for (const change of changes) {
    const safe = clampChange(doc, change);
    if (!safe) continue;
    const e =
      'range' in safe
        ? { start: doc.offsetAt(safe.range.start), end: doc.offsetAt(safe.range.end), text: safe.text }
        : { start: 0, end: lengthOf(doc), text: safe.text };
    edits.push(e);
    if (!(doc instanceof PieceDocument)) TextDocument.update(doc, [safe], version);
    else if ('range' in safe) doc.edit(Math.min(e.start, e.end), Math.max(e.start, e.end), e.text);
    else doc.replaceAll(e.text);
  }
  onEdits?.(doc.uri, from, version, edits);
  if (doc instanceof PieceDocument) {
    doc.version = version;
    return doc;
  }
  return TextDocument.update(doc, [], version) as D;
}

/** The server's open documents, each kept in pieces (lsp/pieceDocument.ts); `edited` hears what each update touched. */
export class ServerDocuments extends TextDocuments<TextDocument> {
  constructor(readonly edited?: EditListener) {
    super({
      create: (uri, languageId, version, text) => new PieceDocument(uri, languageId, version, typeof text === 'string' ? text : ''),
      update: (doc, changes, version) => updateClamped(doc, changes, version, edited),
    });
  }
}

export function createTextDocuments(onEdits?: EditListener): ServerDocuments {
  return new ServerDocuments(onEdits);
}
