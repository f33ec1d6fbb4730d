/**
 * The outline as the language server sends it (features/symbols.ts documentSymbolsOnWire: each code's symbol made
 * as it is serialised) is, once serialised, exactly the service's `documentSymbols`: on a Markdown
 * adapter, on broken text, with CR LF line ends, on a text in pieces after keystrokes, and with no codes at all.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PieceDocument } from '../../server/src/lsp/pieceDocument';
import { updateClamped } from '../../server/src/lsp/textDocuments';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { docOf, newService, ROOT, yamlDoc } from './helpers';

const wire = (x: unknown): unknown => JSON.parse(JSON.stringify(x));

function same(doc: TextDocument, what: string): void {
  const s = newService();
  const eager = s.documentSymbols(doc);
  const lazy = s.documentSymbolsOnWire(doc);
  assert.deepEqual(wire(lazy), wire(eager), what);
  // Each block spans its children: from the first start to the last end, as the document reads them back.
  for (const b of eager) {
    const kids = b.children!;
    const start = Math.min(...kids.map(c => doc.offsetAt(c.range.start)));
    const end = Math.max(...kids.map(c => doc.offsetAt(c.range.end)));
    assert.deepEqual([doc.offsetAt(b.range.start), doc.offsetAt(b.range.end)], [start, end], `${what}: ${b.name}`);
  }
}

const CODES = yamlDoc(
  'name: outline',
  'error_codes:',
  ...Array.from({ length: 4 }, (_, i) => [
    `  ${i === 2 ? '"VALIDATION_E2"' : `VALIDATION_E${i}`}:`,
    '    category: VALIDATION',
    `    message_template: "Field '{field}' (entry ${i})"`,
  ]).flat(),
  'error_mapping:',
  '  400:',
  '    - condition: "response.body.code == \'a\'"',
  '      code: VALIDATION_E0',
  '    - code: VALIDATION_E1',
  '  404:',
  '    code: VALIDATION_E3',
);

test('on the wire, the outline is the service’s: a Markdown adapter, CR LF, broken text, no codes', () => {
  same(docOf(readFileSync(join(ROOT, 'test', 'fixtures', 'github-adapter.md'), 'utf8'), 'file:///w/github-adapter.md'), 'markdown');
  same(docOf(CODES), 'codes and mappings');
  same(docOf(CODES.replace(/\n/g, '\r\n')), 'CR LF');
  same(docOf(CODES.replace('message_template: "Field \'{field}\' (entry 1)"', 'message_template: "unclosed')), 'broken');
  same(docOf(yamlDoc('name: none', 'error_mapping:', '  400:', '    code: INTERNAL_ERROR')), 'no codes');
  same(docOf(yamlDoc('name: empty')), 'empty');
});

test('on the wire, the outline of a document in pieces after keystrokes is the service’s', () => {
  const uri = 'file:///w/typed.adapter.yaml';
  const s = newService();
  const doc = new PieceDocument(uri, 'yaml', 1, CODES, 64);
  s.validate(doc);
  for (const [i, entry] of ['entry 0', 'entry 3', 'entry 0'].entries()) {
    const at = doc.getText().indexOf(entry) + entry.length;
    const pos = doc.positionAt(at);
    updateClamped(doc, [{ range: { start: pos, end: pos }, text: 'x\n' }], i + 2, (u, from, to, e) => s.edited(u, from, to, e));
    s.validate(doc);
    assert.deepEqual(wire(s.documentSymbolsOnWire(doc)), wire(newService().documentSymbols(docOf(doc.getText(), uri, i + 2))), entry);
  }
});
