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
import type { Diagnostic, PublishDiagnosticsParams, TextDocumentContentChangeEvent } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { PieceDocument } from '../../server/src/lsp/pieceDocument';
import { updateClamped } from '../../server/src/lsp/textDocuments';
import { createAdapterService, createWorkspaceIndex, PieceText, type TextChange } from '../../server/src/service';
import { fingerprint, indexText } from '../../server/src/node/workspacePass';
import { deps, inMemory, PLAIN } from './harness';

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

test('an edited document over maxFileSize: its one file.too-large, with its size, and its whole text not made', () => {
  const big = adapter(400, '\r\n');
  const doc = new PieceDocument('file:///w/big.adapter.yaml', 'yaml', 1, big, 4096);
  const at = { line: 700, character: 4 };
  updateClamped(doc, [{ range: { start: at, end: at }, text: 'x' }], 2);
  assert.equal((doc.source as PieceText).isFlat, false);
  const service = createAdapterService(deps());
  const got = service.validate(doc, { maxFileSize: 4096 });
  assert.deepEqual(
    got.map(d => [d.code, d.range, d.data]),
    [['file.too-large', { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, { size: big.length + 1, max: 4096 }]],
  );
  assert.equal((doc.source as PieceText).isFlat, false, 'the size was read from the pieces');
  const plain = TextDocument.create(doc.uri, 'yaml', 2, (doc.source as PieceText).slice());
  assert.deepEqual(got, createAdapterService(deps()).validate(plain, { maxFileSize: 4096 }));
});

test('line starts in a long text with every kind of line break, as the library counts them', () => {
  const text = 'a\r\nb\rc\n\r\n\r\rd\n'.repeat(2000) + '\r';
  const p = new PieceDocument('file:///l.adapter.yaml', 'yaml', 1, text);
  const d = TextDocument.create('file:///l.adapter.yaml', 'yaml', 1, text);
  assert.equal(p.lineCount, d.lineCount);
  for (let line = 0; line < d.lineCount; line++)
    assert.equal(p.offsetAt({ line, character: 0 }), d.offsetAt({ line, character: 0 }), `line ${line}`);
});

/** An adapter of `n` codes, some with problems, in CR LF or LF: what the edits below land in. */
function adapter(n: number, eol: string): string {
  const lines = ['name: t', 'error_codes:'];
  for (let i = 0; i < n; i++)
    lines.push(
      `  NOT_FOUND_E${i}:`,
      `    category: ${i % 7 === 3 ? 'BOGUS' : 'NOT_FOUND'}`,
      `    message_template: "No '{id}' (${i}) 😀"`,
      '    maps_from_http: [404]',
      '    details: { id: string }',
    );
  lines.push('error_mapping:', '  404:', '    code: NOT_FOUND_E1', '  409:', '    code: NOT_FOUND_E99');
  return lines.join(eol) + eol;
}
const typed = fc.constantFrom(
  'x',
  '',
  '\n',
  '\r\n',
  ' ',
  'VALIDATION',
  ':',
  '"',
  '{',
  '😀',
  '\ud83d',
  '    details: { id: string }\n',
  '#',
);
const keystroke = fc.record({
  range: fc.record({
    start: fc.record({ line: fc.integer({ min: 0, max: 70 }), character: fc.integer({ min: 0, max: 40 }) }),
    end: fc.record({ line: fc.integer({ min: 0, max: 70 }), character: fc.integer({ min: 0, max: 40 }) }),
  }),
  text: typed,
});

test(
  'a service fed a document in pieces and its edits gives the diagnostics of a fresh service, and reads no whole text',
  { timeout: 120_000 },
  () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(fc.array(keystroke, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 8 }),
        (crlf, batches) => {
          const uri = 'file:///w/p.adapter.yaml';
          const start = adapter(12, crlf ? '\r\n' : '\n');
          const lib = TextDocument.create(uri, 'yaml', 1, start);
          const doc = new PieceDocument(uri, 'yaml', 1, start, 64);
          const service = createAdapterService(deps());
          service.validate(doc);
          for (const [i, batch] of batches.entries()) {
            // A keystroke's range kept short, as typing makes them (longer ones take the general parse; the fuzz above has them).
            const changes = batch.map(c => ({
              ...c,
              range: { start: c.range.start, end: { ...c.range.start, character: c.range.start.character + (c.range.end.character % 3) } },
            }));
            updateClamped(lib, changes, i + 2);
            updateClamped(doc, changes, i + 2, (u, f, t, e) => service.edited(u, f, t, e));
            const got = service.validate(doc);
            const want = createAdapterService(deps()).validate(TextDocument.create(uri, 'yaml', i + 2, lib.getText()));
            assert.deepEqual(got, want, `after batch ${i}`);
          }
          assert.equal(doc.getText(), lib.getText());
        },
      ),
      { numRuns: 60, seed: 20261128 },
    );
  },
);

test('a keystroke validated in a large document in pieces makes no whole text', () => {
  const uri = 'file:///w/big.adapter.yaml';
  const text = adapter(400, '\n');
  const doc = new PieceDocument(uri, 'yaml', 1, text);
  const service = createAdapterService(deps());
  service.validate(doc);
  const source = doc.source as PieceText;
  assert.ok(source.isFlat);
  for (const [k, line] of [12, 700, 1500].entries()) {
    const at = { line, character: 6 };
    updateClamped(doc, [{ range: { start: at, end: at }, text: 'x' }], k + 2, (u, f, t, e) => service.edited(u, f, t, e));
    const got = service.validate(doc);
    assert.equal((doc.source as PieceText).isFlat, false, `keystroke ${k + 1}: the whole text was made`);
    // What an editor asks while typing (outline, lenses, completion, hover) reads the text near what it needs only.
    const lib = TextDocument.create(uri, 'yaml', k + 2, (doc.source as PieceText).slice());
    const fresh = createAdapterService(deps());
    const category = { line: 3 + 5 * 200, character: 14 };
    const asked: [string, (s: typeof service, d: TextDocument) => unknown][] = [
      ['symbols', (s, d) => s.documentSymbols(d)],
      ['code lenses', (s, d) => s.codeLenses(d)],
      ['completion', (s, d) => s.completeList(d, category)],
      ['hover', (s, d) => s.hover(d, category)],
    ];
    for (const [what, ask] of asked) {
      assert.deepEqual(ask(service, doc), ask(fresh, lib), what);
      assert.equal((doc.source as PieceText).isFlat, false, `${what} after keystroke ${k + 1}: the whole text was made`);
    }
    const want = fresh.validate(lib);
    assert.deepEqual(got, want);
  }
});

test('over LSP: after a sequence of keystrokes the diagnostics are those of the same text opened fresh', { timeout: 60_000 }, async () => {
  const c = await inMemory(PLAIN);
  try {
    const a = 'file:///ws/a.adapter.yaml',
      b = 'file:///ws/b.adapter.yaml';
    const start = adapter(30, '\r\n');
    await c.open(a, start);
    await c.waitForDiagnostics(a);
    const lib = TextDocument.create(a, 'yaml', 1, start);
    const edits: TextDocumentContentChangeEvent[] = [
      { range: { start: { line: 3, character: 14 }, end: { line: 3, character: 23 } }, text: 'BOGUS' },
      { range: { start: { line: 40, character: 4 }, end: { line: 40, character: 4 } }, text: 'x' },
      { range: { start: { line: 7, character: 200 }, end: { line: 8, character: 0 } }, text: '\n' },
      { range: { start: { line: 90, character: 30 }, end: { line: 90, character: 32 } }, text: '😀' },
      { range: { start: { line: 500, character: 0 }, end: { line: 500, character: 0 } }, text: '  500:\r\n    code: NOT_FOUND_E7\r\n' },
    ];
    for (const [i, e] of edits.entries()) {
      updateClamped(lib, [e], i + 2);
      await c.conn.sendNotification('textDocument/didChange', { textDocument: { uri: a, version: i + 2 }, contentChanges: [e] });
    }
    const edited = await c.waitForDiagnostics(a, () => (c.published.get(a) as PublishDiagnosticsParams).version === edits.length + 1);
    await c.open(b, lib.getText());
    const fresh = await c.waitForDiagnostics(b);
    // b declares a's codes again: code.declared-elsewhere differs between the two, nothing else may.
    const shape = (ds: Diagnostic[]) =>
      ds.filter(d => d.code !== 'code.declared-elsewhere').map(d => ({ code: d.code, range: d.range, message: d.message }));
    assert.ok(shape(edited).length >= 3, JSON.stringify(edited));
    assert.deepEqual(shape(edited), shape(fresh));
  } finally {
    await c.close();
  }
});

test('re-indexing a document in pieces after a keystroke: the fingerprint of the text as a string, no whole text made', () => {
  const uri = 'file:///w/idx.adapter.yaml';
  const doc = new PieceDocument(uri, 'yaml', 1, adapter(300, '\r\n'), 256);
  const service = createAdapterService(deps());
  const index = createWorkspaceIndex();
  indexText(service, index, uri, doc, {});
  service.validate(doc);
  // The key of NOT_FOUND_E7, at its end.
  const at = { line: 37, character: 14 };
  updateClamped(doc, [{ range: { start: at, end: at }, text: 'x😀' }], 2, (u, f, t, e) => service.edited(u, f, t, e));
  service.validate(doc);
  assert.equal(fingerprint(doc.source), fingerprint(doc.source.slice()));
  indexText(service, index, uri, doc, {});
  assert.equal((doc.source as PieceText).isFlat, false);
  assert.deepEqual(
    index.declaredIn(uri).map(d => d.code),
    createAdapterService(deps())
      .declaredCodes(TextDocument.create(uri, 'yaml', 2, doc.getText()), {})
      .map(d => d.code),
  );
  assert.ok(index.declaredIn(uri).some(d => d.code === 'NOT_FOUND_E7x😀'));
});
