/**
 * Every editor feature in all three file kinds. One adapter with the same mistakes
 * as YAML, as Markdown front matter and as JSON (test/fixtures/matrix/): diagnostics, every quick fix
 * (applied, re-checked, and in JSON still strict JSON), completion of codes, categories, keys,
 * statuses, details types and placeholders, hover, definition, references, rename, symbols, CodeLens
 * and preview give the same answers.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic, TextEdit } from 'vscode-languageserver-types';
import { applyEdits, docOf, editsOf, newService, ROOT, fixesOf } from './helpers';

const dir = join(ROOT, 'test', 'fixtures', 'matrix');
const yaml = readFileSync(join(dir, 'shop.adapter.yaml'), 'utf8');
const KINDS = {
  yaml: docOf(yaml, 'file:///w/shop.adapter.yaml'),
  md: docOf(`---\n${yaml}---\n\n# Shop\n`, 'file:///w/shop-adapter.md'),
  json: docOf(readFileSync(join(dir, 'shop.adapter.json'), 'utf8'), 'file:///w/shop.adapter.json'),
} as const;
type Kind = keyof typeof KINDS;
const kinds = Object.keys(KINDS) as Kind[];
const s = newService();

/** The text under a range without the quotes a JSON key or string has. */
const bare = (doc: TextDocument, d: { range: Diagnostic['range'] }) => doc.getText(d.range).replace(/^"(.*)"$/s, '$1');
/** The offset just inside the `nth` occurrence of `needle` (plus `delta`), found in each kind's text. */
function pos(doc: TextDocument, needle: string, delta = 0, nth = 0) {
  let i = -1;
  for (let k = 0; k <= nth; k++) i = doc.getText().indexOf(needle, i + 1);
  assert.ok(i >= 0, `${needle} in ${doc.uri}`);
  return doc.positionAt(i + delta);
}
const syntaxCodes = (doc: TextDocument, text: string) =>
  s
    .validate(docOf(text, doc.uri))
    .filter(d => d.code === 'yaml.syntax' || d.code === 'json.syntax')
    .map(d => d.message);

test('diagnostics: the same codes on the same words in YAML, front matter and JSON', () => {
  const got = Object.fromEntries(kinds.map(k => [k, s.validate(KINDS[k]).map(d => `${d.code} ${bare(KINDS[k], d)}`)]));
  assert.deepEqual(got.yaml, [
    'template.unknown-placeholder {order_id}',
    'code.name-format orderGone',
    'code.category-prefix SHOP_OUT_OF_STOCK',
    'template.unused-detail warehouse',
    'code.category-prefix RATE_LIMIT_CART',
    'template.unquoted-placeholder {cart}',
    'code.unknown-category VALIDATON',
    'schema.enum strng',
    'template.unknown-placeholder {qtty}',
    'schema.unknown-key descripton',
    'mapping.unknown-code NOT_FOUND_ORDR',
    'condition.unknown-root request',
    'http.category-mismatch 410',
    'mapping.unknown-code VALIDATION_BAD_SHIPPING',
  ]);
  assert.deepEqual(got.md, got.yaml);
  assert.deepEqual(got.json, got.yaml);
});

test('every quick fix in every kind: the same titles; applied, its problem is gone, no syntax error, JSON stays JSON', () => {
  const titles: Record<string, string[]> = {};
  for (const k of kinds) {
    const doc = KINDS[k];
    const all: string[] = [];
    for (const d of s.validate(doc)) {
      const actions = fixesOf(s, doc, d.range, { diagnostics: [d] });
      all.push(`${d.code}: ${actions.map(a => a.title + (a.isPreferred ? ' *' : '')).join(' | ')}`);
      for (const a of actions) {
        const out = applyEdits(doc, editsOf(a, doc.uri));
        const where = `${k} ${d.code} '${a.title}'`;
        assert.deepEqual(syntaxCodes(doc, out), [], where);
        if (k === 'json') assert.doesNotThrow(() => JSON.parse(out), where);
        const before = s.validate(doc).filter(x => x.code === d.code).length;
        const after = s.validate(docOf(out, doc.uri)).filter(x => x.code === d.code).length;
        assert.ok(after < before, `${where}: ${d.code} ${before} → ${after}\n${out}`);
      }
    }
    titles[k] = all;
  }
  assert.deepEqual(titles.md, titles.yaml);
  assert.deepEqual(titles.json, titles.yaml);
  assert.ok(
    titles.yaml!.every(t => !t.endsWith(': ') || t.startsWith('http.category-mismatch')),
    titles.yaml!.join('\n'),
  );
});

function fix(k: Kind, code: string, title: string, nth = 0): string {
  const doc = KINDS[k];
  const d = s.validate(doc).filter(x => x.code === code)[nth]!;
  const a = fixesOf(s, doc, d.range, { diagnostics: [d] }).find(x => x.title === title);
  assert.ok(a, `${k}: ${title}`);
  return applyEdits(doc, editsOf(a, doc.uri));
}
const lines = (text: string, from: string, n: number) => {
  const all = text.split('\n');
  const i = all.findIndex(l => l.includes(from));
  return all.slice(i, i + n);
};

test('JSON fixes write JSON: declare a details key, declare a code, remove a key, rename a code', () => {
  assert.deepEqual(lines(fix('json', 'template.unknown-placeholder', "Declare 'order_id: string' in details"), '"NOT_FOUND_ORDER": {', 5), [
    '    "NOT_FOUND_ORDER": {',
    '      "category": "NOT_FOUND",',
    `      "message_template": "Order '{order_id}' not found",`,
    '      "details": { "order_id": "string" }',
    '    },',
  ]);
  assert.deepEqual(lines(fix('yaml', 'template.unknown-placeholder', "Declare 'order_id: string' in details"), 'NOT_FOUND_ORDER:', 5), [
    '  NOT_FOUND_ORDER:',
    '    category: NOT_FOUND',
    `    message_template: "Order '{order_id}' not found"`,
    '    details:',
    '      order_id: string',
  ]);
  assert.deepEqual(lines(fix('json', 'template.unknown-placeholder', "Declare 'qtty: string' in details", 1), '"details": {', 0).length, 0);
  const qtty = fix('json', 'template.unknown-placeholder', "Declare 'qtty: string' in details", 1).split('\n');
  assert.deepEqual(qtty.slice(qtty.indexOf('        "qty": "integer",'), qtty.indexOf('        "qty": "integer",') + 2), [
    '        "qty": "integer",',
    '        "qtty": "string"',
  ]);
  const declared = fix('json', 'mapping.unknown-code', "Declare 'VALIDATION_BAD_SHIPPING' in error_codes", 1);
  assert.deepEqual(lines(declared, '"VALIDATION_BAD_QTY": {', 9).slice(7), [
    '    },',
    `    "VALIDATION_BAD_SHIPPING": { "category": "VALIDATION", "message_template": "Shipping to '{country}' is not possible", "details": { "country": "string" } }`,
  ]);
  const removed = fix('json', 'template.unused-detail', "Remove details key 'warehouse'");
  assert.deepEqual(lines(removed, '"details": {', 3), ['      "details": {', '        "sku": "string"', '      }']);
  const key = fix('json', 'schema.unknown-key', "Remove key 'descripton'");
  assert.deepEqual(lines(key, '"VALIDATION_BAD_QTY": {', 4), [
    '    "VALIDATION_BAD_QTY": {',
    '      "category": "VALIDATION",',
    `      "message_template": "Quantity '{qty}' is not allowed for '{qtty}'",`,
    '      "details": {',
  ]);
  assert.ok(fix('json', 'code.name-format', "Rename to 'NOT_FOUND_ORDER_GONE' (every use)").includes('    "NOT_FOUND_ORDER_GONE": {'));
  assert.ok(fix('json', 'schema.unknown-key', "Change to 'description'").includes('      "description": "Quantity out of range",'));
  assert.ok(
    fix('json', 'code.category-prefix', 'Change category to RATE_LIMIT', 1).includes(
      '      "category": "RATE_LIMIT",\n      "message_template": "Too many updates of cart {cart}",',
    ),
  );
  assert.ok(
    fix('json', 'template.unquoted-placeholder', "Wrap in single quotes: '{cart}'").includes(
      `      "message_template": "Too many updates of cart '{cart}'",`,
    ),
  );
  assert.ok(
    fix('json', 'code.unknown-category', 'Change category to VALIDATION').includes(
      '      "category": "VALIDATION",\n      "message_template": "Coupon {coupon} is invalid",',
    ),
  );
});

test('completion in every kind: codes, categories, entry keys, statuses, details types, placeholders', () => {
  const labels = (k: Kind, needle: string, delta: number, nth = 0) =>
    s.complete(KINDS[k], pos(KINDS[k], needle, delta, nth)).map(i => String(i.label));
  for (const k of kinds) {
    const codes = labels(k, 'NOT_FOUND_ORDER', 3, 1); // the value of 410's code
    assert.ok(
      codes.includes('NOT_FOUND_ORDER') && codes.includes('NOT_FOUND_RESOURCE') && codes.every(c => c.startsWith('NOT')),
      `${k}: ${codes}`,
    );
    assert.ok(labels(k, 'CONFLICT', 2).includes('CONFLICT'), k);
    assert.deepEqual(labels(k, 'condition', 2), ['message_template', 'details'], k);
    const statuses = labels(k, '410', 1);
    assert.ok(statuses.includes('400') && statuses.includes('5XX') && !statuses.includes('404'), `${k}: ${statuses}`);
    assert.deepEqual(labels(k, 'integer', 2).slice(0, 3), ['string', 'integer', 'number'], k);
    assert.deepEqual(labels(k, '{sku}', 2), ['sku', 'warehouse'], k);
  }
});

test('hover, definition, references, rename, symbols, CodeLens and preview in every kind', () => {
  const answers = kinds.map(k => {
    const doc = KINDS[k];
    const ref = pos(doc, 'NOT_FOUND_ORDER', 2, 1);
    const hover = JSON.stringify(s.hover(doc, ref)!.contents);
    const defs = s.definition(doc, ref).map(l => doc.getText(l.range));
    const refs = s.references(doc, ref, true).map(l => doc.getText(l.range));
    const renamed = applyEdits(doc, editsOf(s.rename(doc, ref, 'NOT_FOUND_PURCHASE')!, doc.uri));
    assert.deepEqual(syntaxCodes(doc, renamed), [], k);
    assert.equal(renamed.split('NOT_FOUND_PURCHASE').length - 1, 2, k);
    const keyRename = applyEdits(doc, editsOf(s.rename(doc, pos(doc, 'sku', 1, 1), 'item_sku')!, doc.uri) as TextEdit[]);
    assert.ok(keyRename.includes("'{item_sku}'") && /"?item_sku"?: "?string/.test(keyRename), k);
    if (k === 'json') assert.doesNotThrow(() => JSON.parse(renamed) && JSON.parse(keyRename));
    const phHover = JSON.stringify(s.hover(doc, pos(doc, '{qty}', 1))!.contents);
    const statusHover = JSON.stringify(s.hover(doc, pos(doc, '410', 1))!.contents);
    const symbols = s.documentSymbols(doc).map(x => [x.name, x.children!.map(c => c.name)]);
    const lenses = s.codeLenses(doc).map(l => (l.command!.arguments![1] as { code: string }).code);
    const p = s.preview(doc, { position: pos(doc, 'SHOP_OUT_OF_STOCK', 1) })!;
    return { hover, defs, refs, phHover, statusHover, symbols, lenses, preview: [p.code, p.message, p.dialects.every(d => d.valid)] };
  });
  assert.deepEqual(answers[0]!.defs, ['NOT_FOUND_ORDER']);
  assert.deepEqual(answers[0]!.refs, ['NOT_FOUND_ORDER', 'NOT_FOUND_ORDER']);
  assert.match(answers[0]!.phHover, /details key of type `integer`/);
  assert.match(answers[0]!.statusHover, /410 Gone/);
  assert.deepEqual(answers[0]!.preview, ['SHOP_OUT_OF_STOCK', "Item 'example_sku' is out of stock", true]);
  assert.equal(answers[0]!.lenses.length, 9);
  assert.deepEqual(answers[1], answers[0]);
  assert.deepEqual(answers[2], answers[0]);
});
