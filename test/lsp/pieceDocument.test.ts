/**
 * The server's open documents kept in pieces (lsp/pieceDocument.ts) answer as the library's TextDocument does
 * after the same changes from a client: text, line count, every position and offset (out of range too), line
 * ranges and line breaks, and the edits reported to the service — over fuzzed incremental and full changes, with
 * CR LF pairs made and split by edits, surrogate pairs, and pieces of a few characters so that everything crosses
 * piece boundaries. A document whose whole text nobody asked for is not made whole by an edit.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { PieceDocument } from '../../server/src/lsp/pieceDocument';
import { updateClamped } from '../../server/src/lsp/textDocuments';
import type { TextChange } from '../../server/src/service';

const chars = fc.constantFrom('a', 'b', '\n', '\r', '\r\n', '😀', '\ud83d', ' ', 'key: v');
const text = fc.array(chars, { maxLength: 30 }).map(a => a.join(''));
const pos = fc.record({ line: fc.integer({ min: -1, max: 8 }), character: fc.integer({ min: -1, max: 12 }) });
const change: fc.Arbitrary<TextDocumentContentChangeEvent> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ range: fc.record({ start: pos, end: pos }), text }) },
  { weight: 1, arbitrary: fc.record({ text }) },
);

function same(p: PieceDocument, d: TextDocument): void {
  const t = d.getText();
  assert.equal(p.length, t.length);
  assert.equal(p.lineCount, d.lineCount, 'line count');
  for (let o = -1; o <= t.length + 1; o++) assert.deepEqual(p.positionAt(o), d.positionAt(o), `positionAt(${o}) of ${JSON.stringify(t)}`);
  for (let line = -1; line <= d.lineCount + 1; line++) {
    for (let character = -1; character <= 14; character++)
      assert.equal(p.offsetAt({ line, character }), d.offsetAt({ line, character }), `offsetAt(${line}:${character})`);
    assert.deepEqual(p.getLineRange(line), d.getLineRange(line), `getLineRange(${line})`);
    assert.equal(p.getEOLCharacters(line), d.getEOLCharacters(line), `getEOLCharacters(${line})`);
    const range = { start: { line, character: 1 }, end: { line: 0, character: 2 } };
    assert.equal(p.getText(range), d.getText(range));
  }
  // Last: everything above was read from the pieces.
  assert.equal(p.getText(), t);
}

test('a document in pieces answers as the library does after any changes', () => {
  fc.assert(
    fc.property(
      text,
      fc.integer({ min: 1, max: 4 }),
      fc.array(fc.array(change, { minLength: 1, maxLength: 3 }), { maxLength: 6 }),
      (t0, size, updates) => {
        const d = TextDocument.create('file:///a.adapter.yaml', 'yaml', 1, t0);
        const p = new PieceDocument('file:///a.adapter.yaml', 'yaml', 1, t0, size);
        same(p, d);
        let version = 1;
        for (const changes of updates) {
          version++;
          const seen: TextChange[][] = [];
          updateClamped(d, changes, version, (_u, _f, _t, e) => seen.push(e));
          updateClamped(p, changes, version, (_u, _f, _t, e) => seen.push(e));
          assert.deepEqual(seen[1], seen[0], 'the edits reported to the service');
          assert.equal(p.version, version);
          same(p, d);
        }
      },
    ),
    { numRuns: 250, seed: 20261128 },
  );
});

test('an edit does not make the whole text; reading it does, once', () => {
  const big = 'key: value\r\n'.repeat(100_000);
  const p = new PieceDocument('file:///b.adapter.yaml', 'yaml', 1, big);
  updateClamped(p, [{ range: { start: { line: 50_000, character: 3 }, end: { line: 50_000, character: 3 } }, text: 'x' }], 2);
  const source = p.source as unknown as { isFlat: boolean };
  assert.equal(source.isFlat, false);
  assert.deepEqual(p.positionAt(50_000 * 12 + 4), { line: 50_000, character: 4 });
  assert.equal(p.getText({ start: { line: 50_000, character: 0 }, end: { line: 50_001, character: 0 } }), 'keyx: value\r\n');
  assert.equal(source.isFlat, false, 'positions and ranges are read from the pieces');
  const whole = p.getText();
  assert.equal(whole.length, big.length + 1);
  assert.equal(source.isFlat, true);
  assert.equal(p.getText(), whole);
});
