import test from 'node:test';
import assert from 'node:assert/strict';
import { fixture, newService, yamlDoc } from './helpers';

const codesOf = (ds: { code?: unknown }[]) => ds.map(d => d.code);

test('a used suppression hides its problem and reports nothing', () => {
  const { doc } = fixture(
    yamlDoc('error_mapping:', '  # mcp-aql-disable-next-line mapping.unknown-code', '  404: { code: NOT_FOUND_REPOSITRY }'),
  );
  assert.deepEqual(codesOf(newService().validate(doc)), []);
});

test('suppression.unused: a comment with nothing to suppress, on the whole comment', () => {
  const { doc, spans } = fixture(
    yamlDoc(
      'error_mapping:',
      '  [[# mcp-aql-disable-next-line mapping.unknown-code]]  ',
      '  404: { code: NOT_FOUND_RESOURCE }',
      '  [[# mcp-aql-disable-next-line]]',
      '  409: { code: CONFLICT_ALREADY_EXISTS }',
    ),
  );
  const ds = newService().validate(doc);
  assert.deepEqual(codesOf(ds), ['suppression.unused', 'suppression.unused']);
  assert.deepEqual(
    ds.map(d => d.range),
    spans,
  );
  assert.equal(ds[0]!.severity, 2);
  assert.deepEqual(ds[0]!.tags, [1]);
  assert.match(String(ds[0]!.message), /no 'mapping.unknown-code' problem is reported on the next line/);
  assert.match(String(ds[1]!.message), /no problem is reported/);
});

test('suppression.unused: the one code of several that was not needed, and an unknown code name', () => {
  const { doc, spans } = fixture(
    yamlDoc(
      'error_mapping:',
      '  # mcp-aql-disable-next-line mapping.unknown-code [[http.invalid-status]], [[mapping.unknwon]]',
      '  404: { code: NOT_FOUND_REPOSITRY }',
    ),
  );
  const ds = newService().validate(doc);
  assert.deepEqual(codesOf(ds), ['suppression.unused', 'suppression.unused']);
  assert.deepEqual(
    ds.map(d => d.range),
    spans,
  );
  assert.match(String(ds[0]!.message), /'http.invalid-status' is not reported on the next line/);
  assert.match(String(ds[1]!.message), /'mapping.unknwon' is not an mcp-aql diagnostic code/);
});

test('suppression.unused follows rule levels, and a problem turned off does not use a suppression', () => {
  const text = yamlDoc('error_mapping:', '  # mcp-aql-disable-next-line mapping.unknown-code', '  404: { code: NOT_FOUND_REPOSITRY }');
  const { doc } = fixture(text);
  const s = newService();
  assert.deepEqual(codesOf(s.validate(doc, { rules: { 'mapping.unknown-code': 'off' } })), ['suppression.unused']);
  assert.deepEqual(codesOf(s.validate(doc, { rules: { 'mapping.unknown-code': 'off', 'suppression.unused': 'off' } })), []);
  assert.equal(s.validate(doc, { rules: { 'mapping.unknown-code': 'off', 'suppression.unused': 'error' } })[0]!.severity, 1);
});

test('`-- reason` after the codes is not a code', () => {
  const { doc, spans } = fixture(
    yamlDoc(
      'error_mapping:',
      '  # mcp-aql-disable-next-line mapping.unknown-code -- the upstream code is declared elsewhere',
      '  404: { code: NOT_FOUND_REPOSITRY }',
      '  [[# mcp-aql-disable-next-line http.invalid-status -- was 999]]',
      '  409: { code: CONFLICT_ALREADY_EXISTS }',
    ),
  );
  const ds = newService().validate(doc);
  assert.deepEqual(
    ds.map(d => [d.code, d.range]),
    [['suppression.unused', spans[0]]],
  );
  assert.match(String(ds[0]!.message), /no 'http.invalid-status' problem/);
});
