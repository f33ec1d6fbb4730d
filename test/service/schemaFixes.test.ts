/**
 * schema.* quick fixes (closest key, closest enum value) with exact edits and re-checks, and the
 * mapping of ajv errors back to nodes in the harder places: escaped pointers, front matter,
 * multi-document files, nested details specs, and what dedicated checks own.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { applyEdits, check, codesIn, docOf, editsOf, fixture, newService, yamlDoc, type Fixture, fixesOf } from './helpers';

function actions(f: Fixture, code: string) {
  const { ds, service } = check(f, code);
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
    `${code} in:\n${f.doc.getText()}`,
  );
  return fixesOf(service, f.doc, ds[0]!.range, { diagnostics: [ds[0]!] }).map(a => ({
    title: a.title,
    preferred: !!a.isPreferred,
    edits: editsOf(a, f.doc.uri).map(e => [f.doc.getText(e.range), e.newText]),
    text: applyEdits(f.doc, editsOf(a, f.doc.uri)),
  }));
}

test('unknown-key in an error_codes entry: one fix per close key, the closest preferred; result clean', () => {
  const f = fixture(
    yamlDoc(
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      '    [[detials]]: { a: string }',
      '    message_template: "\'{a}\'"',
    ),
  );
  const [a, ...rest] = actions(f, 'schema.unknown-key');
  assert.deepEqual([a!.title, a!.preferred, a!.edits], ["Change to 'details'", true, [['detials', 'details']]]);
  assert.ok(rest.every(r => !r.preferred));
  assert.deepEqual(codesIn(newService(), a!.text), []);
});

test('unknown-key inside a details spec, and in a mapping entry', () => {
  const f = fixture(
    yamlDoc(
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      `    message_template: "'{a}'"`,
      '    details:',
      '      a: { type: string, [[requird]]: true }',
    ),
  );
  const [a] = actions(f, 'schema.unknown-key');
  assert.deepEqual(a!.edits, [['requird', 'required']]);
  assert.deepEqual(codesIn(newService(), a!.text), []);
  const g = fixture(yamlDoc('error_mapping:', '  404:', '    code: NOT_FOUND_RESOURCE', '    [[descripton]]: gone'));
  const [b] = actions(g, 'schema.unknown-key');
  assert.deepEqual(b!.edits, [['descripton', 'description']]);
  assert.deepEqual(codesIn(newService(), b!.text), []);
});

test('unknown-key far from every allowed key: the warning, no rename; removing the key is offered, not preferred', () => {
  const f = fixture(yamlDoc('error_codes:', '  VALIDATION_X:', '    category: VALIDATION', '    [[x_totally_unrelated]]: 1'));
  assert.deepEqual(
    actions(f, 'schema.unknown-key').map(a => [a.title, a.preferred, a.text]),
    [["Remove key 'x_totally_unrelated'", false, yamlDoc('error_codes:', '  VALIDATION_X:', '    category: VALIDATION')]],
  );
});

test('enum: every close value offered, the closest preferred, in a block and a flow spec', () => {
  const f = fixture(
    yamlDoc(
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      `    message_template: "'{a}' {n}"`,
      '    details:',
      '      a: [[strng]]',
      '      n: integer',
    ),
  );
  const fixes = actions(f, 'schema.enum');
  assert.equal(fixes[0]!.title, "Change to 'string'");
  assert.deepEqual(
    fixes.filter(x => x.preferred).map(x => x.title),
    ["Change to 'string'"],
  );
  assert.deepEqual(fixes[0]!.edits, [['strng', 'string']]);
  assert.deepEqual(codesIn(newService(), fixes[0]!.text), []);
  const g = fixture(
    yamlDoc(
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      '    message_template: "{n}"',
      '    details:',
      '      n: { type: [[integr]], required: true }',
    ),
  );
  const [b] = actions(g, 'schema.enum');
  assert.deepEqual(b!.edits, [['integr', 'integer']]);
  assert.deepEqual(codesIn(newService(), b!.text), []);
});

test('keys with / and ~ are found through the escaped pointer', () => {
  const f = fixture(yamlDoc('error_codes:', '  A/B~C:', '    category: VALIDATION', '    [[bogus]]: 1'));
  assert.deepEqual(
    check(f, 'schema.unknown-key').ds.map(d => d.range),
    f.spans,
  );
});

test('positions in Markdown front matter and in the second document of a multi-document file', () => {
  const md = fixture(
    [
      '---',
      'name: x',
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      '    [[mesage_template]]: "x"',
      '---',
      '# Doc',
      '',
    ].join('\n'),
    { uri: 'file:///w/x-adapter.md' },
  );
  const [a] = actions(md, 'schema.unknown-key');
  assert.deepEqual(a!.edits, [['mesage_template', 'message_template']]);
  const multi = fixture(
    yamlDoc(
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      '---',
      'error_codes:',
      '  VALIDATION_Y:',
      '    [[categry]]: VALIDATION',
    ),
  );
  const [b] = actions(multi, 'schema.unknown-key');
  assert.deepEqual(b!.edits, [['categry', 'category']]);
  assert.deepEqual(codesIn(newService(), b!.text), []);
});

test('type errors: on the value; an empty value squiggles its key; lists where maps belong', () => {
  const f = fixture(
    yamlDoc(
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      '    [[message_template]]:',
      '    maps_from_http: [[403]]',
      '    details: [ [[1]], b ]',
    ),
  );
  const { ds, texts } = check(f, 'schema.type');
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
  );
  assert.deepEqual(texts, ['message_template', '403', '1']);
  const g = fixture(yamlDoc('error_codes:', '  VALIDATION_X: [[5]]', 'error_mapping:', '  404: [[NOT_FOUND_RESOURCE]]', '  403: [[x]]'));
  assert.deepEqual(
    check(g, 'schema.type').ds.map(d => d.range),
    g.spans,
  );
  const empty = check(fixture(yamlDoc('error_mapping:', '  403: []')), 'schema.type');
  assert.deepEqual(empty.texts, ['[]']);
});

test('accepted shapes: details as a list of names, an empty details:, list mapping entries, "404" keys', () => {
  const s = newService();
  assert.deepEqual(
    codesIn(
      s,
      yamlDoc('error_codes:', '  VALIDATION_X:', '    category: VALIDATION', `    message_template: "'{a}' '{b}'"`, '    details: [a, b]'),
    ),
    [],
  );
  assert.deepEqual(
    codesIn(s, yamlDoc('error_codes:', '  VALIDATION_X:', '    category: VALIDATION', '    details:', '    description: d')),
    [],
  );
  assert.deepEqual(
    codesIn(
      s,
      yamlDoc(
        'error_mapping:',
        '  "404":',
        '    - code: NOT_FOUND_RESOURCE',
        '      condition: "response.status == 404"',
        '      description: d',
        '    - code: NOT_FOUND_RESOURCE',
      ),
    ),
    [],
  );
  assert.deepEqual(
    codesIn(
      s,
      yamlDoc(
        'error_codes:',
        '  VALIDATION_X:',
        '    category: VALIDATION',
        '    details:',
        '      a: { type: string, required: false, description: d, example: x, enum: [x, y] }',
        `    message_template: "'{a}'"`,
      ),
    ),
    [],
  );
});

test('no double reports: category values, status keys and items, code names and map templates belong to other checks', () => {
  const text = yamlDoc(
    'error_codes:',
    '  bad-name:',
    '    category: NOPE',
    '    message_template: {a}',
    '    maps_from_http: [true, 999]',
    'error_mapping:',
    '  999:',
    '    code: NOT_FOUND_RESOURCE',
    '  4xx:',
    '    code: NOT_FOUND_RESOURCE',
  );
  const codes = newService()
    .validate(docOf(text))
    .map(d => String(d.code));
  assert.deepEqual(
    codes.filter(c => c.startsWith('schema.')),
    [],
    codes.join(),
  );
  assert.ok(
    codes.includes('code.name-format') &&
      codes.includes('code.unknown-category') &&
      codes.includes('template.flow-mapping') &&
      codes.includes('http.invalid-status'),
  );
});

test('a stale diagnostic (the key was edited since) gets no fix', () => {
  const f = fixture(yamlDoc('error_codes:', '  VALIDATION_X:', '    category: VALIDATION', '    [[mesage_template]]: "x"'));
  const { ds, service } = check(f, 'schema.unknown-key');
  const edited = docOf(f.doc.getText().replace('mesage_template', 'message_templat'));
  assert.deepEqual(fixesOf(service, edited, ds[0]!.range, { diagnostics: [ds[0]!] }), []);
});

test('errors inside an alias target are reported on the alias, without a rename fix (the key is elsewhere)', () => {
  const f = fixture(yamlDoc('defs: &d', '  category: VALIDATION', '  bogus: 1', 'error_codes:', '  VALIDATION_X: [[*d]]'));
  const { ds, service } = check(f, 'schema.unknown-key');
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
  );
  assert.match(String(ds[0]!.message), /'bogus'/);
  assert.deepEqual(fixesOf(service, f.doc, ds[0]!.range, { diagnostics: [ds[0]!] }), []);
  const g = fixture(yamlDoc('dt: &dt { a: strng }', 'error_codes:', '  VALIDATION_X:', '    category: VALIDATION', '    details: [[*dt]]'));
  const e = check(g, 'schema.enum');
  assert.deepEqual(
    e.ds.map(d => d.range),
    g.spans,
  );
  assert.deepEqual(fixesOf(e.service, g.doc, e.ds[0]!.range, { diagnostics: [e.ds[0]!] }), []);
});
