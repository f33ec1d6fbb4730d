/**
 * Completion decides what it completes from the parsed
 * tree (features/slot.ts `slotAt`), not from the line's text: statuses only as error_mapping keys,
 * codes only as the value of an error_mapping entry's `code`, in block and flow YAML, front matter
 * and JSON; details types are completed.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import type { CompletionItem, TextEdit } from 'vscode-languageserver-types';
import { applyEdits, fixture, newService, yamlDoc } from './helpers';

const s = newService();
const YAML = 'file:///w/shop.adapter.yaml',
  JSON_URI = 'file:///w/shop.adapter.json',
  MD = 'file:///w/shop-adapter.md';

function at(text: string, uri = YAML) {
  const f = fixture(text, { cursor: true, uri });
  const items = s.complete(f.doc, f.cursor!, {}, { snippets: false });
  const apply = (label: string) => {
    const it = items.find(i => i.label === label);
    assert.ok(it, `no ${label} among ${items.map(i => i.label).join(', ')}`);
    return applyEdits(f.doc, [it.textEdit as TextEdit]);
  };
  return { items, labels: items.map(i => String(i.label)), apply };
}

const isStatus = (l: string) => /^(?:\d{3}|[1-5]XX)$/i.test(l);
const isCode = (i: CompletionItem) => /^[A-Z][A-Z0-9_]+$/.test(String(i.label)) && !isStatus(String(i.label));

test('after code: only codes, never statuses, in block, flow, list and JSON entries', () => {
  const cases: [string, string][] = [
    ['error_mapping:\n  400:\n    code: VALIDATION_INVALID_TYPE\n  401:\n    code: |\n  5XX:\n    code: INTERNAL_ERROR\n', YAML],
    ['error_mapping:\n  400: {code: |}\n  5XX: {code: INTERNAL_ERROR}\n', YAML],
    ['error_mapping:\n  403:\n    - condition: "response.status == 403"\n      code: |\n', YAML],
    ['{ "error_mapping": { "400": { "code": "|" }, "5XX": { "code": "INTERNAL_ERROR" } } }', JSON_URI],
    ['---\nerror_mapping:\n  401:\n    code: |\n---\n# doc\n', MD],
  ];
  for (const [text, uri] of cases) {
    const { items, labels } = at(text, uri);
    assert.ok(labels.includes('PERMISSION_DENIED'), text);
    assert.deepEqual(labels.filter(isStatus), [], text);
    assert.ok(items.every(isCode), text);
  }
});

test('JSON: after "code": " the code goes inside the quotes; after "code": it comes quoted', () => {
  assert.equal(
    at('{ "error_mapping": { "404": { "code": "NOT_F|" } } }', JSON_URI).apply('NOT_FOUND_RESOURCE'),
    '{ "error_mapping": { "404": { "code": "NOT_FOUND_RESOURCE" } } }',
  );
  assert.equal(
    at('{ "error_mapping": { "404": { "code": | } } }', JSON_URI).apply('NOT_FOUND_RESOURCE'),
    '{ "error_mapping": { "404": { "code": "NOT_FOUND_RESOURCE" } } }',
  );
  assert.equal(
    at('{\n  "error_mapping": {\n    "404": {\n      "code": "|"\n    }\n  }\n}\n', JSON_URI).apply('NOT_FOUND_RESOURCE'),
    '{\n  "error_mapping": {\n    "404": {\n      "code": "NOT_FOUND_RESOURCE"\n    }\n  }\n}\n',
  );
});

test('a code: key in error_codes, or anywhere else, is not a code reference: nothing offered', () => {
  assert.deepEqual(at('error_codes:\n  VALIDATION_X:\n    category: VALIDATION\n    code: |\n').labels, []);
  assert.deepEqual(at('metadata:\n  code: |\nerror_mapping:\n  404:\n    code: NOT_FOUND_RESOURCE\n').labels, []);
});

test('statuses only as error_mapping keys, with 4XX / 5XX, without those already mapped', () => {
  const { labels, items, apply } = at('error_mapping:\n  404:\n    code: NOT_FOUND_RESOURCE\n  |\n');
  assert.ok(labels.includes('400') && labels.includes('4XX') && labels.includes('5XX') && !labels.includes('404'));
  assert.ok(items.every(i => isStatus(String(i.label))));
  assert.equal(apply('429'), 'error_mapping:\n  404:\n    code: NOT_FOUND_RESOURCE\n  429:\n');
  const json = at('{ "error_mapping": { "404": { "code": "NOT_FOUND_RESOURCE" }, | } }', JSON_URI);
  assert.ok(json.labels.includes('429') && !json.labels.includes('404'));
  assert.equal(json.apply('429'), '{ "error_mapping": { "404": { "code": "NOT_FOUND_RESOURCE" }, "429":  } }');
});

test('details types: block, flow, spec type:, JSON; string[] quoted inside a YAML flow map', () => {
  const types = ['string', 'integer', 'number', 'boolean', 'object', 'array', 'unknown', 'string[]', 'number[]', 'integer[]', 'object[]'];
  const block = at('error_codes:\n  VALIDATION_X:\n    category: VALIDATION\n    details:\n      qty: int|\n');
  assert.deepEqual(block.labels, types);
  assert.equal(block.apply('integer'), 'error_codes:\n  VALIDATION_X:\n    category: VALIDATION\n    details:\n      qty: integer\n');
  assert.equal(block.apply('string[]'), 'error_codes:\n  VALIDATION_X:\n    category: VALIDATION\n    details:\n      qty: string[]\n');
  const flow = at('error_codes:\n  VALIDATION_X:\n    category: VALIDATION\n    details: { qty: | }\n');
  assert.equal(flow.apply('string[]'), 'error_codes:\n  VALIDATION_X:\n    category: VALIDATION\n    details: { qty: "string[]" }\n');
  const spec = at('error_mapping:\n  404:\n    code: NOT_FOUND_RESOURCE\n    details:\n      id:\n        type: |\n');
  assert.deepEqual(spec.labels, types);
  const json = at('{ "error_codes": { "VALIDATION_X": { "category": "VALIDATION", "details": { "qty": "|" } } } }', JSON_URI);
  assert.equal(
    json.apply('integer'),
    '{ "error_codes": { "VALIDATION_X": { "category": "VALIDATION", "details": { "qty": "integer" } } } }',
  );
});

test('categories, entry keys and spec keys in YAML and JSON', () => {
  const cat = at('{ "error_codes": { "X_Y": { "category": "RA|" } } }', JSON_URI);
  assert.equal(cat.apply('RATE_LIMIT'), '{ "error_codes": { "X_Y": { "category": "RATE_LIMIT" } } }');
  const key = at('error_codes:\n  NOT_FOUND_X:\n    category: NOT_FOUND\n    mes|\n');
  assert.ok(key.labels.includes('message_template') && !key.labels.includes('category'));
  assert.equal(key.apply('message_template'), 'error_codes:\n  NOT_FOUND_X:\n    category: NOT_FOUND\n    message_template: \n');
  const mkey = at('error_mapping:\n  404:\n    code: NOT_FOUND_RESOURCE\n    |\n');
  assert.deepEqual(mkey.labels, ['message_template', 'condition', 'details']);
  const jkey = at('{ "error_codes": { "NOT_FOUND_X": { "category": "NOT_FOUND", | } } }', JSON_URI);
  assert.equal(jkey.apply('details'), '{ "error_codes": { "NOT_FOUND_X": { "category": "NOT_FOUND", "details":  } } }');
  const spec = at('error_codes:\n  NOT_FOUND_X:\n    category: NOT_FOUND\n    details:\n      id:\n        type: string\n        |\n');
  assert.deepEqual(spec.labels, ['required', 'description', 'example', 'enum', 'format']);
});

test("details keys: the template's placeholders not yet declared", () => {
  const d = at(
    'error_codes:\n  NOT_FOUND_X:\n    category: NOT_FOUND\n    message_template: "\'{owner}/{repo}\'"\n    details:\n      owner: string\n      |\n',
  );
  assert.deepEqual(d.labels, ['repo']);
  assert.equal(
    d.apply('repo'),
    'error_codes:\n  NOT_FOUND_X:\n    category: NOT_FOUND\n    message_template: "\'{owner}/{repo}\'"\n    details:\n      owner: string\n      repo: string\n',
  );
});

test('placeholders inside { of a JSON template; condition roots in JSON', () => {
  const ph = at(
    '{ "error_codes": { "NOT_FOUND_X": { "category": "NOT_FOUND", "message_template": "No \'{ow|\'", "details": { "owner": "string" } } } }',
    JSON_URI,
  );
  assert.deepEqual(ph.labels, ['owner']);
  assert.equal(
    ph.apply('owner'),
    '{ "error_codes": { "NOT_FOUND_X": { "category": "NOT_FOUND", "message_template": "No \'{owner}\'", "details": { "owner": "string" } } } }',
  );
  const cond = at('{ "error_mapping": { "403": { "condition": "resp|", "code": "PERMISSION_DENIED" } } }', JSON_URI);
  assert.equal(
    cond.apply('response.body.'),
    '{ "error_mapping": { "403": { "condition": "response.body.", "code": "PERMISSION_DENIED" } } }',
  );
  const op = at('{ "error_mapping": { "403": { "condition": "response.status |", "code": "PERMISSION_DENIED" } } }', JSON_URI);
  assert.ok(op.labels.includes('==') && op.labels.includes('contains'));
});

test('right after `code:` the inserted code gets its space; status snippets are indented under their key', () => {
  assert.equal(
    at('error_mapping:\n  404:\n    code:|\n').apply('NOT_FOUND_RESOURCE'),
    'error_mapping:\n  404:\n    code: NOT_FOUND_RESOURCE\n',
  );
  const f = fixture('error_mapping:\n  404:\n    code: NOT_FOUND_RESOURCE\n  42|\n', { cursor: true });
  const item = s.complete(f.doc, f.cursor!, {}, { snippets: true }).find(i => i.label === '429')!;
  assert.equal(
    applyEdits(f.doc, [item.textEdit as TextEdit]),
    'error_mapping:\n  404:\n    code: NOT_FOUND_RESOURCE\n  429:\n    code: ${1:RATE_LIMIT_EXCEEDED}\n',
  );
  const j = fixture('{ "error_mapping": { "42|" } }', { cursor: true, uri: JSON_URI });
  const ji = s.complete(j.doc, j.cursor!, {}, { snippets: true }).find(i => i.label === '429')!;
  assert.equal(applyEdits(j.doc, [ji.textEdit as TextEdit]), '{ "error_mapping": { "429": { "code": "${1:RATE_LIMIT_EXCEEDED}" } } }');
  const k = at('{ "error_codes": { "X_Y": { "category": "VALIDATION", "mes|" } } }', JSON_URI);
  assert.equal(k.apply('message_template'), '{ "error_codes": { "X_Y": { "category": "VALIDATION", "message_template":  } } }');
});

test("a new line typed between an entry's key and its first key gets that entry's keys; a deeper line under `404:` starts its mapping", () => {
  const a = at('error_codes:\n  VALIDATION_X:\n    |\n    category: VALIDATION\n');
  assert.deepEqual(a.labels, ['message_template', 'maps_from_http', 'condition', 'details', 'description', 'retry']);
  const b = at('error_mapping:\n  404:\n    |\n  410:\n    code: NOT_FOUND_RESOURCE\n');
  assert.deepEqual(b.labels, ['code', 'message_template', 'condition', 'details']);
  const c = at('error_mapping:\n  404:\n    code: NOT_FOUND_RESOURCE\n\n    # a comment\n    |\n');
  assert.deepEqual(c.labels, ['message_template', 'condition', 'details']);
});

test('completion in a file of 20,000 codes answers in well under a second', () => {
  const lines = ['error_codes:'];
  for (let i = 0; i < 20000; i++)
    lines.push(`  VALIDATION_E${i}:`, '    category: VALIDATION', `    message_template: "x '{a}'"`, '    details:', '      a: string');
  const text = lines.join('\n') + '\n    |\nerror_mapping:\n  404:\n    code: NOT_FOUND_RESOURCE\n';
  const f = fixture(text, { cursor: true });
  s.validate(f.doc);
  const t0 = performance.now();
  const items = s.complete(f.doc, f.cursor!);
  assert.ok(performance.now() - t0 < 1000, `${performance.now() - t0} ms`);
  assert.deepEqual(
    items.map(i => i.label),
    ['maps_from_http', 'condition', 'description', 'retry'],
  );
});

test("retry: the three values, the category default marked, the edit exact; hover says the code's retry", () => {
  const { labels, items, apply } = at(yamlDoc('error_codes:', '  RATE_LIMIT_SLOW:', '    category: RATE_LIMIT', '    retry: |'));
  assert.deepEqual(labels, ['do-not-retry', 'retry-after-change', 'retry-after-delay']);
  assert.deepEqual(
    items.map(i => i.detail),
    ['retry', 'retry', 'retry · the default of RATE_LIMIT'],
  );
  assert.equal(apply('do-not-retry'), yamlDoc('error_codes:', '  RATE_LIMIT_SLOW:', '    category: RATE_LIMIT', '    retry: do-not-retry'));
  const declared = fixture(yamlDoc('error_codes:', '  RATE_LIMIT_S|LOW:', '    category: RATE_LIMIT', '    retry: do-not-retry'), {
    cursor: true,
    uri: YAML,
  });
  const h = JSON.stringify(s.hover(declared.doc, declared.cursor!)!.contents);
  assert.match(h, /Retry: do-not-retry — sending the same call again will fail the same way/);
  const byDefault = fixture(yamlDoc('error_codes:', '  RATE_LIMIT_S|LOW:', '    category: RATE_LIMIT'), { cursor: true, uri: YAML });
  assert.match(
    JSON.stringify(s.hover(byDefault.doc, byDefault.cursor!)!.contents),
    /Retry: retry-after-delay \(the default of RATE_LIMIT\)/,
  );
});
