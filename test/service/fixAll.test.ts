/** Fix all (command, source.fixAll, codeActionsOnSave) applies only local, meaning-preserving fixes. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyEdits, docOf, newService, ROOT, yamlDoc, fixesOf } from './helpers';

const HURRIED = yamlDoc(
  'error_codes:',
  '  ORDER_MISSING:', // code.category-prefix: rename is public API → never
  '    category: NOT_FOUND',
  '    message_template: Order {order_id} was not found', // unquoted-placeholder → quote (safe)
  '    details:',
  '      order_id: string',
  '      warehouse: string', // unused-detail → inserting '{warehouse}' → never
  '  VALIDATION_BAD_SKU:',
  '    category: VALIDATON', // unknown-category, one candidate → VALIDATION
  '    message_template: "Bad SKU \'{skus}\'"', // unknown-placeholder, one candidate, no param → {sku}
  '    mesage_hint: x', // unknown-key: closest may be ambiguous; checked below
  '    details:',
  '      sku: string',
  'error_mapping:',
  '  404:',
  '    code: NOT_FOUND_ORDR', // unknown-code → closest code is a rename of a reference → never
);

test('Fix all: quoting, one-candidate category and placeholder key; no renames, removals or insertions', () => {
  const s = newService();
  const doc = docOf(HURRIED);
  const fixed = applyEdits(doc, s.fixAll(doc));
  assert.equal(
    fixed,
    HURRIED.replace('Order {order_id} was', "Order '{order_id}' was")
      .replace('category: VALIDATON', 'category: VALIDATION')
      .replace("'{skus}'", "'{sku}'"),
  );
  // Untouched: the code name, the unused detail, the unknown mapping target.
  assert.match(fixed, /^ {2}ORDER_MISSING:$/m);
  assert.doesNotMatch(fixed, /\{warehouse\}/);
  assert.match(fixed, /code: NOT_FOUND_ORDR$/m);
  // What stays is for a person: the diagnostics whose fixes are one-by-one.
  const left = s
    .validate(docOf(fixed, 'file:///work/test.adapter.yaml', 2))
    .map(d => String(d.code))
    .sort();
  assert.ok(
    left.includes('code.category-prefix') && left.includes('template.unused-detail') && left.includes('mapping.unknown-code'),
    left.join(),
  );
  // Idempotent: a second run finds nothing more to apply.
  assert.deepEqual(s.fixAll(docOf(fixed, 'file:///work/test.adapter.yaml', 2)), []);
});

test('Fix all applies nothing where two candidates are equally close', () => {
  const s = newService();
  const text = yamlDoc(
    'error_codes:',
    '  VALIDATION_X:',
    '    category: VALIDATION',
    '    message_template: "\'{user}\' is bad"',
    '    details:',
    '      users: string',
    '      usr: string',
  );
  const doc = docOf(text);
  const d = s.validate(doc).find(x => x.code === 'template.unknown-placeholder');
  assert.ok(d && doc.getText(d.range) === '{user}');
  assert.deepEqual((d.data as { suggestions: string[] }).suggestions.slice().sort(), ['users', 'usr']);
  assert.deepEqual(s.fixAll(doc), []);
  // One-by-one, both stay offered.
  assert.ok(fixesOf(s, doc, d.range, { diagnostics: [d] }).filter(a => a.title.startsWith('Change to')).length === 2);
});

test('Fix all on the broken example renames no code and inserts nothing into any template', () => {
  const s = newService();
  const text = readFileSync(join(ROOT, 'examples', 'broken', 'broken-adapter.md'), 'utf8');
  const doc = docOf(text, 'file:///work/broken-adapter.md');
  const diags = s.validate(doc);
  const edits = s.fixAll(doc);
  assert.ok(edits.length > 0, 'some safe fixes apply');
  const codeKeys = new Set(
    diags
      .filter(d => ['code.name-format', 'code.category-prefix', 'mapping.unknown-code'].includes(String(d.code)))
      .map(d => doc.offsetAt(d.range.start)),
  );
  for (const e of edits) {
    const at = doc.offsetAt(e.range.start);
    assert.ok(!codeKeys.has(at), `Fix all edited a code name at ${JSON.stringify(e.range)}: ${e.newText}`);
    const removed = doc.getText(e.range);
    // Only quoting and typo-sized replacements: what is removed comes back (possibly quoted or corrected), never dropped.
    assert.ok(e.newText.length >= removed.length - 2, `Fix all removed text: ${JSON.stringify(removed)} → ${JSON.stringify(e.newText)}`);
    assert.doesNotMatch(e.newText, /^ '\{\w+\}'$/, 'no placeholder appended to a template');
  }
});
