/**
 * Property-based fuzzing of the service on random and mutated adapter files seeded from the
 * examples and the real corpus: nothing throws, every range lies inside the document, every quick fix
 * applies cleanly (edits inside the document, not overlapping), and Fix all never loses text it does
 * not touch.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Range, TextEdit } from 'vscode-languageserver-types';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { newService, readCorpus, ROOT } from './helpers';

const seeds: [string, string][] = [
  ['file:///w/github-adapter.md', readFileSync(join(ROOT, 'examples/github-adapter.md'), 'utf8')],
  ['file:///w/broken-adapter.md', readFileSync(join(ROOT, 'examples/broken/broken-adapter.md'), 'utf8')],
  ['file:///w/shop.adapter.yaml', readFileSync(join(ROOT, 'examples/shop.adapter.yaml'), 'utf8')],
  ['file:///w/weather.adapter.json', readFileSync(join(ROOT, 'examples/weather.adapter.json'), 'utf8')],
  ['file:///w/apple-mail-adapter.md', readCorpus('MCPAQL-examples--apple-mail-adapter.md')],
];

const inside = (doc: TextDocument, r: Range) => {
  const end = doc.positionAt(doc.getText().length);
  const ok = (p: Range['start']) =>
    p.line >= 0 && p.character >= 0 && (p.line < end.line || (p.line === end.line && p.character <= end.character));
  return ok(r.start) && ok(r.end) && doc.offsetAt(r.start) <= doc.offsetAt(r.end);
};

const mutation = fc.record({
  at: fc.nat(),
  del: fc.nat({ max: 40 }),
  ins: fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom(
      '{',
      '}',
      ':',
      '"',
      "'",
      '\n',
      '  ',
      '- ',
      '&a ',
      '*a',
      '{x}',
      '{ y }',
      'code: ',
      'category: ',
      'condition: "',
      '404:',
      '\uD800',
      '\uFFFD',
      '\t',
      '[',
      ']',
      '#',
    ),
  ),
});

function mutate(text: string, ms: { at: number; del: number; ins: string }[]): string {
  for (const m of ms) {
    const at = m.at % (text.length + 1);
    text = text.slice(0, at) + m.ins + text.slice(at + m.del);
  }
  return text;
}

function checkAll(uri: string, text: string): void {
  const s = newService();
  const doc = TextDocument.create(uri, 'yaml', 1, text);
  const ds = s.validate(doc);
  for (const d of ds) {
    assert.ok(inside(doc, d.range), `${String(d.code)} out of range`);
    for (const a of s.quickFixes(doc, d.range, { diagnostics: [d] })) {
      const edits = (a.edit?.changes?.[uri] ?? []) as TextEdit[];
      for (const e of edits) assert.ok(inside(doc, e.range), `${a.title}: edit out of range`);
      const sorted = edits.map(e => [doc.offsetAt(e.range.start), doc.offsetAt(e.range.end)] as const).sort((x, y) => x[0] - y[0]);
      for (let i = 1; i < sorted.length; i++) assert.ok(sorted[i]![0] >= sorted[i - 1]![1], `${a.title}: overlapping edits`);
      assert.equal(typeof TextDocument.applyEdits(doc, edits), 'string');
    }
  }
  const all = s.fixAll(doc);
  const fixed = TextDocument.applyEdits(doc, all);
  assert.equal(typeof fixed, 'string');
  for (const p of [{ line: 0, character: 0 }, doc.positionAt(Math.floor(text.length / 2)), doc.positionAt(text.length)]) {
    s.complete(doc, p);
    s.hover(doc, p);
    s.definition(doc, p);
    s.references(doc, p, true);
    s.prepareRename(doc, p);
  }
  s.documentSymbols(doc);
  s.codeLenses(doc);
  s.preview(doc, { position: doc.positionAt(Math.floor(text.length / 3)) });
  s.simulate(doc, { status: 403, body: { message: 'abuse' } });
}

test('mutated examples and real adapters: nothing throws, ranges and fixes stay inside the document', { timeout: 120_000 }, () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: seeds.length - 1 }), fc.array(mutation, { minLength: 1, maxLength: 6 }), (i, ms) => {
      const [uri, text] = seeds[i]!;
      checkAll(uri, mutate(text, ms));
    }),
    { numRuns: 120, seed: 7 },
  );
});

test('random text in adapter-named files: nothing throws', { timeout: 60_000 }, () => {
  fc.assert(
    fc.property(
      fc.string({ maxLength: 400 }),
      fc.constantFrom('file:///w/x.adapter.yaml', 'file:///w/x-adapter.md', 'file:///w/x.adapter.json'),
      (text, uri) => {
        checkAll(uri, text);
      },
    ),
    { numRuns: 200, seed: 11 },
  );
});
