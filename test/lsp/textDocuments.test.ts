/**
 * Incremental edits: ranges past the end of a line or of the document are clamped
 * as the protocol says, CR LF pairs split or joined by an edit are counted right, and an edited
 * document is indistinguishable from a fresh one with the same text — in its positions and in the
 * diagnostics the service computes for it, incrementally or from scratch.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { updateClamped } from '../../server/src/lsp/textDocuments';
import { createAdapterService } from '../../server/src/service';
import { deps, inMemory, PLAIN } from './harness';

type Pos = { line: number; character: number };
interface Change {
  range: { start: Pos; end: Pos };
  text: string;
}

/** The protocol's reading of a position, written independently of the library: lines end at CR LF, CR or LF. */
function refOffset(text: string, p: Pos): number {
  const starts = [0];
  const re = /\r\n|\r|\n/g;
  let m: RegExpExecArray | null;
  const ends: number[] = [];
  while ((m = re.exec(text))) {
    ends.push(m.index);
    starts.push(m.index + m[0].length);
  }
  ends.push(text.length);
  const line = Math.max(0, p.line);
  if (line >= starts.length) return text.length;
  return starts[line]! + Math.min(Math.max(0, p.character), ends[line]! - starts[line]!);
}
function refApply(text: string, c: Change): string {
  let s = refOffset(text, c.range.start),
    e = refOffset(text, c.range.end);
  if (s > e) [s, e] = [e, s];
  return text.slice(0, s) + c.text + text.slice(e);
}

const sameDoc = (edited: TextDocument, text: string) => {
  const fresh = TextDocument.create('file:///f', 'yaml', 1, text);
  assert.equal(edited.getText(), text);
  assert.equal(edited.lineCount, fresh.lineCount, 'line count');
  for (let o = 0; o <= text.length; o++)
    assert.deepEqual(edited.positionAt(o), fresh.positionAt(o), `offset ${o} of ${JSON.stringify(text)}`);
};

test('an edit past the end of the document appends; past a line end, stops at the line end', () => {
  const doc = TextDocument.create('file:///a', 'yaml', 1, 'a: 1\r\nb: 2\r\n');
  updateClamped(doc, [{ range: { start: { line: 50, character: 0 }, end: { line: 53, character: 7 } }, text: 'x\ny\nz\n' }], 2);
  sameDoc(doc, 'a: 1\r\nb: 2\r\nx\ny\nz\n');
  updateClamped(doc, [{ range: { start: { line: 0, character: 99 }, end: { line: 0, character: 120 } }, text: ' # c' }], 3);
  sameDoc(doc, 'a: 1 # c\r\nb: 2\r\nx\ny\nz\n');
  updateClamped(doc, [{ range: { start: { line: -3, character: -1 }, end: { line: 0, character: 1 } }, text: 'A' }], 4);
  sameDoc(doc, 'A: 1 # c\r\nb: 2\r\nx\ny\nz\n');
  // Garbage from a client: a change with no usable range or text is dropped; the version still moves.
  updateClamped(
    doc,
    [
      { range: null, text: 'zzz' } as never,
      { text: 42 } as never,
      { range: { start: { line: NaN, character: 1.5 }, end: { line: 0, character: 0 } }, text: '#' },
    ],
    5,
  );
  sameDoc(doc, '#: 1 # c\r\nb: 2\r\nx\ny\nz\n');
  assert.equal(doc.version, 5);
});

test('edits that join or split a CR LF pair count lines as a fresh document does', () => {
  const doc = TextDocument.create('file:///b', 'yaml', 1, 'a\rb\nc');
  updateClamped(doc, [{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, text: '\n' }], 2);
  sameDoc(doc, 'a\r\nb\nc');
  updateClamped(doc, [{ range: { start: { line: 1, character: 9 }, end: { line: 1, character: 9 } }, text: '\r' }], 3);
  sameDoc(doc, 'a\r\nb\r\nc');
  updateClamped(doc, [{ range: { start: { line: 0, character: 1 }, end: { line: 1, character: 0 } }, text: '\rX\n' }], 4);
  sameDoc(doc, 'a\rX\nb\r\nc');
  updateClamped(doc, [{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 1 } }, text: '' }], 5);
  sameDoc(doc, 'a\r\nb\r\nc');
  assert.equal(doc.lineCount, 3);
});

const fragment = fc.constantFrom(
  'error_codes:',
  'error_mapping:',
  '  VALIDATION_X:',
  '    category: VALIDATION',
  '  404:',
  '    code: NOT_FOUND_X',
  '\r\n',
  '\n',
  '\r',
  ' ',
  '"',
);
const pos = fc.record({ line: fc.integer({ min: -2, max: 30 }), character: fc.integer({ min: -2, max: 60 }) });
const change = fc.record({
  range: fc.record({ start: pos, end: pos }),
  text: fc.constantFrom(
    '',
    '\r',
    '\n',
    '\r\n',
    'x',
    'a\r',
    '\nb',
    '  code: NOT_FOUND_REPOSITRY\r\n',
    'error_mapping:\n  404:\n',
    '    category: VALIDATION\r',
  ),
});

test(
  'fuzz: out-of-range and CR LF-splitting edits leave a document equal to a fresh one, and the same diagnostics',
  { timeout: 120_000 },
  () => {
    fc.assert(
      fc.property(
        fc.array(fragment, { maxLength: 24 }),
        fc.array(fc.array(change, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 5 }),
        (parts, batches) => {
          let text = parts.join('');
          const uri = 'file:///w/x.adapter.yaml';
          const doc = TextDocument.create(uri, 'yaml', 1, text);
          const incremental = createAdapterService(deps());
          incremental.validate(doc);
          for (const [i, batch] of batches.entries()) {
            updateClamped(doc, batch, i + 2);
            for (const c of batch) text = refApply(text, c);
            sameDoc(doc, text);
            const got = incremental.validate(doc);
            const want = createAdapterService(deps()).validate(TextDocument.create(uri, 'yaml', i + 2, text));
            assert.deepEqual(got, want, `after batch ${i} on ${JSON.stringify(text)}`);
            for (const d of got) assert.ok(Number.isInteger(d.range.start.character) && Number.isInteger(d.range.end.character));
          }
        },
      ),
      { numRuns: 80, seed: 13 },
    );
  },
);

test('over LSP: an edit past the end gives the diagnostics of a fresh open, with no null positions', { timeout: 30_000 }, async () => {
  const c = await inMemory(PLAIN);
  try {
    const start = 'error_codes:\r\n  VALIDATION_X:\r\n    category: VALIDATION\r\n';
    const edits: Change[] = [
      {
        range: { start: { line: 50, character: 0 }, end: { line: 53, character: 7 } },
        text: 'error_mapping:\n  404:\n    code: NOT_FOUND_REPOSITRY\n',
      },
      { range: { start: { line: 0, character: 999 }, end: { line: 0, character: 999 } }, text: ' # c' },
    ];
    const final = edits.reduce(refApply, start);
    const a = 'file:///ws/a.adapter.yaml',
      b = 'file:///ws/b.adapter.yaml';
    await c.open(a, start);
    await c.waitForDiagnostics(a);
    await c.conn.sendNotification('textDocument/didChange', { textDocument: { uri: a, version: 2 }, contentChanges: edits });
    const edited = await c.waitForDiagnostics(a, () => (c.published.get(a) as PublishDiagnosticsParams).version === 2);
    await c.open(b, final);
    const fresh = await c.waitForDiagnostics(b);
    // b declares a's code again: b (opened second) alone says code.declared-elsewhere, which is not about positions.
    const shape = (ds: Diagnostic[]) =>
      ds.filter(d => d.code !== 'code.declared-elsewhere').map(d => ({ code: d.code, range: d.range, message: d.message }));
    assert.ok(
      edited.some(d => d.code === 'mapping.unknown-code'),
      JSON.stringify(edited),
    );
    assert.deepEqual(shape(edited), shape(fresh));
    assert.ok(!JSON.stringify(edited).includes('null'));
    assert.deepEqual(edited.find(d => d.code === 'mapping.unknown-code')!.range, {
      start: { line: 5, character: 10 },
      end: { line: 5, character: 29 },
    });
  } finally {
    await c.close();
  }
});
