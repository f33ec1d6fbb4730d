/**
 * The server's open documents (lsp/editableDocument.ts) read and edit as the library's TextDocument does:
 * the same text, lines, positions and offsets after any clamped edits, whether the text is a plain string,
 * kept in a byte buffer (latin1, or UTF-16 once a character past U+00FF arrives), or moves between the two.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { BUFFER_FROM, EditableDocument } from '../../server/src/lsp/editableDocument';
import { updateClamped } from '../../server/src/lsp/textDocuments';

type Pos = { line: number; character: number };
type Change = { range: { start: Pos; end: Pos }; text: string } | { text: string };

/** Every reading of `doc` equals the library document's. */
function same(doc: EditableDocument, lib: TextDocument, what: string): void {
  const text = lib.getText();
  assert.equal(doc.getText(), text, what);
  assert.equal(doc.lineCount, lib.lineCount, `${what}: line count`);
  for (let o = -1; o <= text.length + 1; o++) assert.deepEqual(doc.positionAt(o), lib.positionAt(o), `${what}: offset ${o}`);
  for (let line = -1; line <= lib.lineCount; line++) {
    assert.deepEqual(doc.getLineRange(line), lib.getLineRange(line), `${what}: range of line ${line}`);
    assert.equal(doc.getEOLCharacters(line), lib.getEOLCharacters(line), `${what}: line break of line ${line}`);
    for (let character = -1; character <= 12; character++)
      assert.equal(doc.offsetAt({ line, character }), lib.offsetAt({ line, character }), `${what}: ${line}:${character}`);
  }
  const r = { start: { line: 0, character: 2 }, end: { line: 2, character: 1 } };
  assert.equal(doc.getText(r), lib.getText(r), `${what}: getText(range)`);
}

const piece = fc.constantFrom('a: 1', 'error_codes:', '  X_Y:', '\r\n', '\n', '\r', ' ', 'é', '€', '😀', '"', '');
const pos = fc.record({ line: fc.integer({ min: -2, max: 12 }), character: fc.integer({ min: -2, max: 20 }) });
const change: fc.Arbitrary<Change> = fc.oneof(
  {
    weight: 9,
    arbitrary: fc.record({ range: fc.record({ start: pos, end: pos }), text: fc.array(piece, { maxLength: 4 }).map(p => p.join('')) }),
  },
  { weight: 1, arbitrary: fc.array(piece, { maxLength: 6 }).map(p => ({ text: p.join('') })) },
);

test('fuzz: edited as a string, in a buffer, or moving between them, a document reads as the library reads it', () => {
  fc.assert(
    fc.property(
      fc.array(piece, { maxLength: 20 }).map(p => p.join('')),
      fc.array(fc.array(change, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 6 }),
      fc.constantFrom(0, 12, Infinity),
      (start, batches, bufferFrom) => {
        const doc = new EditableDocument('file:///a', 'yaml', 1, start, bufferFrom);
        const lib = TextDocument.create('file:///a', 'yaml', 1, start);
        same(doc, lib, 'fresh');
        for (const [i, batch] of batches.entries()) {
          updateClamped(doc, batch, i + 2);
          updateClamped(lib, batch, i + 2);
          assert.equal(doc.version, i + 2);
          same(doc, lib, `after batch ${i}`);
        }
      },
    ),
    { numRuns: 400, seed: 7 },
  );
});

test('a text past BUFFER_FROM is edited in its buffer, one and two bytes a character, and its edits reported', () => {
  const line = 'code: X\r\n';
  const big = line.repeat(Math.ceil(BUFFER_FROM / line.length) + 1);
  const seen: [number, number, { start: number; end: number; text: string }[]][] = [];
  const doc = new EditableDocument('file:///big.adapter.yaml', 'yaml', 1, big);
  const lib = TextDocument.create('file:///big.adapter.yaml', 'yaml', 1, big);
  const edits: Change[] = [
    { range: { start: { line: 3, character: 6 }, end: { line: 3, character: 6 } }, text: 'x' },
    { range: { start: { line: 1, character: 0 }, end: { line: 2, character: 0 } }, text: '' },
    { range: { start: { line: 5, character: 99 }, end: { line: 5, character: 99 } }, text: ' # é\n' },
    { range: { start: { line: 7, character: 0 }, end: { line: 7, character: 4 } }, text: 'näme€' },
    { range: { start: { line: 1e9, character: 0 }, end: { line: 1e9, character: 0 } }, text: 'tail: 😀\r' },
  ];
  for (const [i, e] of edits.entries()) {
    updateClamped(doc, [e], i + 2, (_u, from, to, es) => seen.push([from, to, es]));
    updateClamped(lib, [e], i + 2);
    assert.equal(doc.getText(), lib.getText(), `edit ${i}`);
    assert.equal(doc.lineCount, lib.lineCount);
    for (const o of [0, 20, 40, 60, 80, lib.getText().length - 3, lib.getText().length])
      assert.deepEqual(doc.positionAt(o), lib.positionAt(o), `edit ${i}, offset ${o}`);
  }
  assert.deepEqual(seen[0], [1, 2, [{ start: 33, end: 33, text: 'x' }]]);
  assert.deepEqual(seen[1], [2, 3, [{ start: 9, end: 18, text: '' }]]);
});

test('a buffer grows when an insertion outgrows its room, keeping the text on both sides of it', () => {
  const doc = new EditableDocument('file:///g', 'yaml', 1, 'head\nmiddle\ntail\n', 0);
  const lib = TextDocument.create('file:///g', 'yaml', 1, 'head\nmiddle\ntail\n');
  const long = 'x: 1\n'.repeat(3000);
  const edits: Change[] = [
    { range: { start: { line: 1, character: 3 }, end: { line: 1, character: 3 } }, text: long },
    { range: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } }, text: `é${long}€` },
    { range: { start: { line: 0, character: 0 }, end: { line: 6000, character: 0 } }, text: 'short\r\n' },
  ];
  for (const [i, e] of edits.entries()) {
    updateClamped(doc, [e], i + 2);
    updateClamped(lib, [e], i + 2);
    assert.equal(doc.getText(), lib.getText(), `edit ${i}`);
    assert.equal(doc.lineCount, lib.lineCount, `edit ${i}`);
    for (let o = 0; o <= lib.getText().length; o += 97) assert.deepEqual(doc.positionAt(o), lib.positionAt(o), `edit ${i}, offset ${o}`);
  }
});
