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

type Position = { line: number; character: number };

const whole = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) ? Math.max(0, Math.trunc(x)) : 0);

/** A position inside `doc`: lines past the last go to the end, characters past a line's end to that end (before its line break). */
function clampPosition(doc: TextDocument, p: unknown): Position {
  const q = (p && typeof p === 'object' ? p : {}) as Record<string, unknown>;
  const line = whole(q.line);
  if (line >= doc.lineCount) return doc.positionAt(doc.getText().length);
  return doc.positionAt(doc.offsetAt({ line, character: whole(q.character) }));
}

/** One change made safe for `TextDocument.update`; undefined for a change that is neither incremental nor full. */
function clampChange(doc: TextDocument, change: TextDocumentContentChangeEvent): TextDocumentContentChangeEvent | undefined {
  const c = change as { range?: unknown; text?: unknown };
  if (typeof c.text !== 'string') return undefined;
  if (c.range === undefined) return { text: c.text };
  if (!c.range || typeof c.range !== 'object') return undefined;
  const r = c.range as { start?: unknown; end?: unknown };
  return { range: { start: clampPosition(doc, r.start), end: clampPosition(doc, r.end) }, text: c.text };
}

/** What the changes of one update touched, in offsets of the text each applied to (for `service.edited`). */
type EditListener = (uri: string, from: number, to: number, edits: TextChange[]) => void;

/** Apply changes one by one, each clamped against the text the previous ones left. */
export function updateClamped(
  doc: TextDocument,
  changes: readonly TextDocumentContentChangeEvent[],
  version: number,
  onEdits?: EditListener,
): TextDocument {
  const from = doc.version;
  const edits: TextChange[] = [];
  for (const change of changes) {
    const safe = clampChange(doc, change);
    if (!safe) continue;
    edits.push(
      'range' in safe
        ? { start: doc.offsetAt(safe.range.start), end: doc.offsetAt(safe.range.end), text: safe.text }
        : { start: 0, end: doc.getText().length, text: safe.text },
    );
    TextDocument.update(doc, [safe], version);
  }
  onEdits?.(doc.uri, from, version, edits);
  return TextDocument.update(doc, [], version);
}

export function createTextDocuments(onEdits?: EditListener): TextDocuments<TextDocument> {
  return new TextDocuments({
    create: (uri, languageId, version, text) => TextDocument.create(uri, languageId, version, typeof text === 'string' ? text : ''),
    update: (doc, changes, version) => updateClamped(doc, changes, version, onEdits),
  });
}
