import test from 'node:test';
import assert from 'node:assert/strict';
import { applyFix, check, codesIn, docOf, fixture, newService, yamlDoc } from './helpers';

test('schema.unknown-key on the key (warning); fix to the closest key', () => {
  const f = fixture(yamlDoc('error_codes:', '  VALIDATION_X:', '    category: VALIDATION', '    [[mesage_template]]: "x"'));
  const { ds, service } = check(f, 'schema.unknown-key');
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
  );
  assert.equal(ds[0]!.severity, 2);
  const fixed = applyFix(service, f.doc, ds[0]!);
  assert.equal(fixed, yamlDoc('error_codes:', '  VALIDATION_X:', '    category: VALIDATION', '    message_template: "x"'));
  assert.deepEqual(codesIn(newService(), fixed), []);
});

test('unknown keys inside error_mapping list entries, numeric status keys', () => {
  const f = fixture(yamlDoc('error_mapping:', '  403:', '    - code: PERMISSION_DENIED', '      [[conditon]]: "response.status == 403"'));
  const { ds, service } = check(f, 'schema.unknown-key');
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
  );
  assert.ok(applyFix(service, f.doc, ds[0]!).includes('      condition: "response.status'));
});

test('schema.required on the entry key', () => {
  const f = fixture(yamlDoc('error_mapping:', '  [[404]]:', '    message_template: "gone"'));
  const { ds } = check(f, 'schema.required');
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
  );
  assert.match(String(ds[0]!.message), /'code'/);
  const g = fixture(yamlDoc('error_codes:', '  [[VALIDATION_X]]:', '    message_template: "x"'));
  assert.deepEqual(
    check(g, 'schema.required').ds.map(d => d.range),
    g.spans,
  );
});

test('schema.type on the value; schema.enum with closest value', () => {
  const f = fixture(
    yamlDoc(
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      '    condition: [[{ a: 1 }]]',
      '    details:',
      '      field: [[strng]]',
    ),
  );
  const t = check(f, 'schema.type');
  assert.deepEqual(
    t.ds.map(d => d.range),
    [f.spans[0]],
  );
  const e = check(f, 'schema.enum');
  assert.deepEqual(
    e.ds.map(d => d.range),
    [f.spans[1]],
  );
  assert.ok(applyFix(e.service, f.doc, e.ds[0]!).includes('field: string'));
});

test('JSON adapters: positions inside JSON, "404" keys', () => {
  const text = '{\n  "type": "adapter",\n  "error_mapping": {\n    "404": { "code": "NOT_FOUND_RESOURCE", "bogus": 1 }\n  }\n}\n';
  const doc = docOf(text, 'file:///w/x.adapter.json');
  const ds = newService().validate(doc);
  assert.deepEqual(
    ds.map(d => [d.code, doc.getText(d.range)]),
    [['schema.unknown-key', '"bogus"']],
  );
});

/** The schema.type diagnostics of a YAML adapter's text. */
const schemaTypes = (text: string) =>
  newService()
    .validate(docOf(text))
    .filter(d => d.code === 'schema.type');

test('an error_codes key that names no code (a mapping, a list, null) is schema.type on the key, not skipped', () => {
  for (const [key, what] of [
    ['{ y }', 'a mapping'],
    ['[a, b]', 'a list'],
    ['~', 'null'],
    ['null', 'null'],
  ] as const) {
    const text = yamlDoc('error_codes:', `  ${key}: { category: VALIDATION }`, '  VALIDATION_OK:', '    category: VALIDATION');
    const ds = schemaTypes(text);
    assert.deepEqual(
      ds.map(d => d.range),
      [{ start: { line: 1, character: 2 }, end: { line: 1, character: 2 + key.length } }],
      key,
    );
    assert.match(String(ds[0]!.message), new RegExp(`this key is ${what.replace(/[[\]]/g, '')},`), key);
  }
  // In a document with aliases (validated whole) too.
  const aliased = yamlDoc(
    'base: &b',
    '  category: VALIDATION',
    'error_codes:',
    '  { y }: *b',
    '  VALIDATION_A_B:',
    '    <<: *b',
    '    details: { ~: string }',
  );
  const inWhole = schemaTypes(aliased);
  assert.deepEqual(
    inWhole.map(d => [d.range.start.line, d.range.start.character, d.range.end.character]),
    [
      [3, 2, 7],
      [6, 15, 16],
    ],
  );
  assert.match(String(inWhole[0]!.message), /An error code's key is its name/);
  assert.match(String(inWhole[1]!.message), /A details key/);
  // The same for a key of an error's details.
  const details = yamlDoc(
    'error_codes:',
    '  VALIDATION_A:',
    '    category: VALIDATION',
    '    details:',
    '      { k }: string',
    '      ~: string',
    '      ok: string',
  );
  const found = schemaTypes(details);
  assert.deepEqual(
    found.map(d => d.range),
    [
      { start: { line: 4, character: 6 }, end: { line: 4, character: 11 } },
      { start: { line: 5, character: 6 }, end: { line: 5, character: 7 } },
    ],
  );
  assert.match(String(found[0]!.message), /A details key .* this key is a mapping/);
  // A merge key is no entry of its own: nothing to say about it.
  const merged = yamlDoc(
    'base: &b',
    '  VALIDATION_A: { category: VALIDATION }',
    'error_codes:',
    '  <<: *b',
    '  VALIDATION_OK:',
    '    category: VALIDATION',
  );
  assert.deepEqual(schemaTypes(merged), []);
});
