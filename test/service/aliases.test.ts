/**
 * Aliases and merge keys reach every check: `details: *ref`, whole entries
 * `FOO: *base`, `<<: *base` merges (docs/spec-decisions.md "YAML version"). Positions point at the
 * anchored source; fixes never edit a source that other users of the anchor share.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { applyFix, check, fixture, newService, yamlDoc, fixesOf } from './helpers';

const codes = (ds: { code?: unknown }[]) => ds.map(d => String(d.code)).sort();

test('details: *ref resolves: no false unknown-placeholder; types come through the alias', () => {
  const f = fixture(
    yamlDoc(
      'error_codes:',
      '  VALIDATION_A:',
      '    category: VALIDATION',
      `    message_template: "Field '{field}' has {count} errors"`,
      '    details: &fielddetails',
      '      field: string',
      '      count: integer',
      '  VALIDATION_B:',
      '    category: VALIDATION',
      `    message_template: "Field '{field}' has {count} errors in [[{field}]]"`,
      '    details: *fielddetails',
    ),
  );
  const all = newService().validate(f.doc);
  assert.deepEqual(codes(all), ['template.unquoted-placeholder']);
  // The string key is unquoted once, the integer key is never asked for quotes: the types came through.
  assert.deepEqual(all[0]!.range, f.spans[0]);
});

test('details: *ref: an unknown placeholder is still reported, and "Declare" never writes into the shared anchor', () => {
  const f = fixture(
    yamlDoc(
      'error_codes:',
      '  VALIDATION_A:',
      '    category: VALIDATION',
      `    message_template: "Field '{field}'"`,
      '    details: &d',
      '      field: string',
      '  VALIDATION_B:',
      '    category: VALIDATION',
      `    message_template: "Field '{field}' [[{fiel}]]"`,
      '    details: *d',
    ),
  );
  const { ds, service } = check(f, 'template.unknown-placeholder');
  assert.equal(ds.length, 1);
  assert.deepEqual(ds[0]!.range, f.spans[0]);
  assert.match(String(ds[0]!.message), /details: field/);
  const titles = fixesOf(service, f.doc, ds[0]!.range, { diagnostics: [ds[0]!] }).map(a => a.title);
  assert.deepEqual(titles, ["Change to '{field}'", "Remove '{fiel}' from the template"]);
  assert.equal(applyFix(service, f.doc, ds[0]!), f.doc.getText().replace('\' {fiel}"', '\' {field}"'));
});

test('an unused key of shared details is reported once, at the anchored source, with no edit of the anchor', () => {
  const f = fixture(
    yamlDoc(
      'error_codes:',
      '  VALIDATION_A:',
      '    category: VALIDATION',
      `    message_template: "Field '{field}'"`,
      '    details: &d',
      '      field: string',
      '      [[extra]]: string',
      '  VALIDATION_B:',
      '    category: VALIDATION',
      `    message_template: "Field '{field}'"`,
      '    details: *d',
    ),
  );
  const { ds, all, service } = check(f, 'template.unused-detail');
  assert.deepEqual(codes(all), ['template.unused-detail']);
  assert.deepEqual(
    ds.map(d => d.range),
    [f.spans[0]],
  );
  // Removing the key would change the other user of '&d'; using it in VALIDATION_A's own template is local.
  assert.deepEqual(
    fixesOf(service, f.doc, ds[0]!.range, { diagnostics: [ds[0]!] }).map(a => a.title),
    ["Use '{extra}' in the message template"],
  );
  assert.equal(
    applyFix(service, f.doc, ds[0]!, "Use '{extra}' in the message template"),
    f.doc.getText().replace(`"Field '{field}'"`, `"Field '{field}' '{extra}'"`),
  );
});

test('a whole entry through an alias (FOO: *base) is a declared code with the anchored fields', () => {
  const f = fixture(
    yamlDoc(
      'error_codes:',
      '  NOT_FOUND_ORDER: &base',
      '    category: NOT_FOUND',
      `    message_template: "Order '{order_id}' not found [[{oops}]]"`,
      '    details:',
      '      order_id: string',
      '  NOT_FOUND_ORDER_LINE: *base',
      'error_mapping:',
      '  404:',
      '    code: NOT_FOUND_ORDER_LINE',
    ),
  );
  const { ds, all, service } = check(f, 'template.unknown-placeholder');
  assert.deepEqual(codes(all), ['template.unknown-placeholder']);
  assert.deepEqual(
    ds.map(d => d.range),
    [f.spans[0]],
  );
  const titles = fixesOf(service, f.doc, ds[0]!.range, { diagnostics: [ds[0]!] }).map(a => a.title);
  assert.deepEqual(titles, [], 'the template and details are shared by two codes: no edit');
});

test('merge keys: <<: *base supplies fields, own keys override, `<<` is no unknown key', () => {
  const f = fixture(
    yamlDoc(
      'x-defaults: &defaults',
      '  category: VALIDATION',
      '  details:',
      '    field: string',
      'error_codes:',
      '  VALIDATION_NAME:',
      '    <<: *defaults',
      `    message_template: "Name '{field}' is invalid"`,
      '  VALIDATION_AGE:',
      '    <<: *defaults',
      '    category: [[BOGUS]]',
      `    message_template: "Age '{field}' is [[{reason}]]"`,
    ),
  );
  const all = newService()
    .validate(f.doc)
    .map(d => [String(d.code), d.range]);
  assert.deepEqual(all, [
    ['code.unknown-category', f.spans[0]],
    ['template.unknown-placeholder', f.spans[1]],
  ]);
});

test('merge keys inside details: merged keys and own keys are both declared', () => {
  const f = fixture(
    yamlDoc(
      'x-common: &common',
      '  request_id: string',
      'error_codes:',
      '  VALIDATION_NAME:',
      '    category: VALIDATION',
      `    message_template: "Name '{field}' invalid (request '{request_id}')"`,
      '    details:',
      '      <<: *common',
      '      field: string',
    ),
  );
  assert.deepEqual(codes(newService().validate(f.doc)), []);
});

test('a merge key whose value is not a mapping is a positioned yaml.syntax error', () => {
  const f = fixture(
    yamlDoc('error_codes:', '  VALIDATION_NAME:', '    <<: [[5]]', '    category: VALIDATION', '    message_template: "Name invalid"'),
  );
  const { ds } = check(f, 'yaml.syntax');
  assert.deepEqual(
    ds.map(d => [d.range, (d.data as { yamlCode: string }).yamlCode]),
    [[f.spans[0], 'BAD_MERGE']],
  );
});
