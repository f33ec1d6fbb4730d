/**
 * util/ranges.ts `positionsIn`: the index scan's positions (docs/performance.md: the document's own line offsets, a
 * character-by-character pass over the whole text, were a seventh of the index pass). Every answer equals
 * `TextDocument.positionAt`, for LF, CRLF and lone CR texts, offsets inside line breaks and out of range.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { positionsIn } from '../../server/src/service/util/ranges';

test('positionsIn answers what TextDocument.positionAt answers', () => {
  const piece = fc.constantFrom('a', 'bc', ' ', '\n', '\r\n', '\r', '\n\n', 'é', '😀');
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 60 }), fc.array(fc.integer({ min: -3, max: 200 }), { maxLength: 40 }), (pieces, offsets) => {
      const text = pieces.join('');
      const doc = TextDocument.create('file:///t.yaml', 'yaml', 0, text);
      const at = positionsIn(text);
      for (const o of [...offsets, 0, text.length, text.length + 1])
        assert.deepEqual(at(o), doc.positionAt(o), `${JSON.stringify(text)} @ ${o}`);
    }),
    { numRuns: 2000 },
  );
});

test('positionsIn: every offset of an LF text and of its CRLF twin', () => {
  const lf = 'error_codes:\n  NOT_FOUND_X:\n\n    category: NOT_FOUND\n';
  for (const text of [lf, lf.replace(/\n/g, '\r\n'), '', '\n', 'x']) {
    const doc = TextDocument.create('file:///t.yaml', 'yaml', 0, text);
    const at = positionsIn(text);
    for (let o = 0; o <= text.length; o++) assert.deepEqual(at(o), doc.positionAt(o), `${JSON.stringify(text)} @ ${o}`);
  }
});
