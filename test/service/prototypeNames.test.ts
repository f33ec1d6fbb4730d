/**
 * Prototype names (`constructor`, `toString`, `__proto__`) are not diagnostic codes in
 * config rules or suppression comments, and a `"__proto__"` details key in a response is judged once.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { isCode, parseProjectConfig } from '../../server/src/service';
import { fixture, newService, yamlDoc } from './helpers';

const PROTO = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];

test('isCode: prototype names are not codes', () => {
  for (const name of PROTO) assert.equal(isCode(name), false, name);
  assert.equal(isCode('yaml.syntax'), true);
});

test('config rules: a prototype name is config.invalid, and no rule is set', () => {
  for (const name of PROTO) {
    const { config, problems } = parseProjectConfig(`rules:\n  ${name}: off\n`);
    assert.deepEqual(
      problems.map(p => [p.code, p.message, p.range.start.line, p.range.start.character, p.range.end.character]),
      [['config.invalid', `'${name}' is not an mcp-aql diagnostic code.`, 1, 2, 2 + name.length]],
      name,
    );
    assert.deepEqual(config.rules, {});
  }
});

test('suppression comments: a prototype name is reported as not a code, at its place', () => {
  const { doc, spans } = fixture(
    yamlDoc(
      'error_mapping:',
      '  # mcp-aql-disable-next-line mapping.unknown-code [[constructor]] [[__proto__]]',
      '  404: { code: NOT_FOUND_REPOSITRY }',
    ),
  );
  const ds = newService().validate(doc);
  assert.deepEqual(
    ds.map(d => [d.code, d.message]),
    [
      ['suppression.unused', "'constructor' is not an mcp-aql diagnostic code; remove it from the comment."],
      ['suppression.unused', "'__proto__' is not an mcp-aql diagnostic code; remove it from the comment."],
    ],
  );
  assert.deepEqual(
    ds.map(d => d.range),
    spans,
  );
});

test('verify: a "__proto__" details key is judged once, like any other key', () => {
  const service = newService();
  const adapter = yamlDoc(
    'error_codes:',
    '  NOT_FOUND_ORDER:',
    '    category: NOT_FOUND',
    '    message_template: "Order \'{order_id}\' not found ({constructor})"',
    '    details:',
    '      order_id: { type: string, required: true }',
    '      __proto__: { type: integer, required: true }',
    '      constructor: { type: string, required: false }',
  );
  const contract = service.contract([TextDocument.create('file:///w/a.adapter.yaml', 'yaml', 1, adapter)]);
  const verify = (details: string) => {
    const f = fixture(
      `{"success": false, "error": {"code": "NOT_FOUND_ORDER", "message": "Order 'ord_1' not found (c)", "details": ${details}}}`,
      { uri: 'file:///w/r.envelope.json' },
    );
    return { ds: service.verifyResponses(f.doc, contract, {}), spans: f.spans };
  };
  // Present with the declared type: nothing to say.
  assert.deepEqual(verify('{"order_id": "ord_1", "__proto__": 5, "constructor": "c"}').ds, []);
  // Present with the wrong type: one verify.detail-type, not also "missing".
  const wrong = verify('{"order_id": "ord_1", "__proto__": [["s"]], "constructor": "c"}');
  assert.deepEqual(
    wrong.ds.map(d => [d.code, d.message]),
    [['verify.detail-type', 'details.__proto__ of NOT_FOUND_ORDER must be an integer, not string.']],
  );
  assert.deepEqual(
    wrong.ds.map(d => d.range),
    wrong.spans,
  );
  // An object under "__proto__" lends the details no keys: order_id is missing.
  const lent = verify('{"__proto__": {"order_id": "ord_1"}, "constructor": "c"}');
  assert.deepEqual(
    lent.ds.map(d => [d.code, d.message]),
    [
      ['verify.missing-detail', 'details.order_id (string) is required by NOT_FOUND_ORDER and missing.'],
      ['verify.detail-type', 'details.__proto__ of NOT_FOUND_ORDER must be an integer, not object.'],
    ],
  );
});
