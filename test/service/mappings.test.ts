import test from 'node:test';
import assert from 'node:assert/strict';
import { applyFix, check, codesIn, docOf, fixture, newService, yamlDoc } from './helpers';
import { createWorkspaceIndex } from '../../server/src/service';

test('http.invalid-status on keys and maps_from_http items; ranges 4XX/5XX and "404" accepted', () => {
  const f = fixture(
    yamlDoc(
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      '    maps_from_http: [400, [[999]], [[abc]]]',
      'error_mapping:',
      '  [[4O4]]:',
      '    code: NOT_FOUND_RESOURCE',
      '  "404":',
      '    code: NOT_FOUND_RESOURCE',
      '  5XX:',
      '    code: INTERNAL_ERROR',
    ),
  );
  const { ds, texts } = check(f, 'http.invalid-status');
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
  );
  assert.deepEqual(texts, ['999', 'abc', '4O4']);
});

test('http.category-mismatch: information on the status', () => {
  const f = fixture(
    yamlDoc(
      'error_codes:',
      '  GITHUB_ABUSE_DETECTED:',
      '    category: RATE_LIMIT',
      '    maps_from_http: [ [[403]], 429 ]',
      'error_mapping:',
      '  [[500]]:',
      '    code: NOT_FOUND_RESOURCE',
    ),
  );
  const { ds } = check(f, 'http.category-mismatch');
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
  );
  assert.ok(ds.every(d => d.severity === 3));
});

test('mapping.unknown-code: closest code, or declare it in error_codes with the template placeholders', () => {
  const f = fixture(
    yamlDoc(
      'error_codes:',
      '  NOT_FOUND_USER:',
      '    category: NOT_FOUND',
      'error_mapping:',
      '  404:',
      '    code: [[NOT_FOUND_REPOSITORY]]',
      '    message_template: "Repository \'{owner}/{repo}\' not found"',
      '  400:',
      '    code: [[VALIDATION_INVALID_TYP]]',
    ),
  );
  const { ds, service } = check(f, 'mapping.unknown-code');
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
  );
  assert.equal(applyFix(service, f.doc, ds[1]!), f.doc.getText().replace('VALIDATION_INVALID_TYP', 'VALIDATION_INVALID_TYPE'));
  const declared = applyFix(service, f.doc, ds[0]!, "Declare 'NOT_FOUND_REPOSITORY' in error_codes");
  assert.equal(
    declared,
    yamlDoc(
      'error_codes:',
      '  NOT_FOUND_USER:',
      '    category: NOT_FOUND',
      '  NOT_FOUND_REPOSITORY:',
      '    category: NOT_FOUND',
      '    message_template: "Repository \'{owner}/{repo}\' not found"',
      '    details:',
      '      owner: string',
      '      repo: string',
      'error_mapping:',
      '  404:',
      '    code: NOT_FOUND_REPOSITORY',
      '    message_template: "Repository \'{owner}/{repo}\' not found"',
      '  400:',
      '    code: VALIDATION_INVALID_TYP',
    ),
  );
  assert.deepEqual(
    codesIn(newService(), declared).filter(c => c !== 'mapping.unknown-code' && c !== 'template.unused-detail'),
    [],
  );
});

test('declare creates the error_codes block when there is none', () => {
  const f = fixture(yamlDoc('error_mapping:', '  404:', '    code: [[NOT_FOUND_REPOSITORY]]'));
  const { ds, service } = check(f, 'mapping.unknown-code');
  const fixed = applyFix(service, f.doc, ds[0]!);
  assert.equal(
    fixed,
    yamlDoc(
      'error_mapping:',
      '  404:',
      '    code: NOT_FOUND_REPOSITORY',
      'error_codes:',
      '  NOT_FOUND_REPOSITORY:',
      '    category: NOT_FOUND',
    ),
  );
  assert.deepEqual(codesIn(newService(), fixed), []);
});

test('mapping.warning-code on the value', () => {
  const f = fixture(yamlDoc('error_mapping:', '  429:', '    code: [[RATE_LIMIT_QUOTA_WARNING]]'));
  const { ds } = check(f, 'mapping.warning-code');
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
  );
});

test('mapping.unreachable-entry after an unconditional entry or a repeated condition', () => {
  const f = fixture(
    yamlDoc(
      'error_mapping:',
      '  403:',
      '    - condition: "response.body.message contains \'rate limit\'"',
      '      code: RATE_LIMIT_EXCEEDED',
      '    - [[condition]]: "response.body.message contains \'rate limit\'"',
      '      code: PERMISSION_DENIED',
      '    - code: PERMISSION_DENIED',
      '    - [[code]]: INTERNAL_ERROR',
    ),
  );
  const { ds } = check(f, 'mapping.unreachable-entry');
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
  );
  assert.equal(ds[0]!.relatedInformation?.length, 1);
});

test('mapping.precedence on the error_mapping key, related to maps_from_http', () => {
  const f = fixture(
    yamlDoc(
      'error_codes:',
      '  RATE_LIMIT_ABUSE:',
      '    category: RATE_LIMIT',
      '    maps_from_http: [403]',
      'error_mapping:',
      '  [[403]]:',
      '    code: PERMISSION_DENIED',
    ),
  );
  const { ds } = check(f, 'mapping.precedence');
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
  );
  assert.equal(ds[0]!.relatedInformation?.[0]?.location.range.start.line, 3);
});

test('codes declared in another workspace file are known', () => {
  const index = createWorkspaceIndex();
  const r = { start: { line: 1, character: 2 }, end: { line: 1, character: 10 } };
  index.update(
    'file:///w/a.adapter.yaml',
    [
      {
        uri: 'file:///w/a.adapter.yaml',
        code: 'NOT_FOUND_REPO',
        range: r,
        category: 'NOT_FOUND',
        details: [{ name: 'repo' }],
        mapsFromHttp: [],
      },
    ],
    [],
  );
  const s = newService(index);
  const f = fixture(yamlDoc('error_mapping:', '  404:', '    code: NOT_FOUND_REPO', '    message_template: "No \'{repo}\'"'), {
    uri: 'file:///w/b.adapter.yaml',
  });
  assert.deepEqual(
    s.validate(f.doc, {}).map(d => d.code),
    [],
  );
});

test("a category mismatch of a list entry is reported once, on that entry's code:", () => {
  const f = fixture(
    yamlDoc(
      'error_mapping:',
      '  403:',
      '    - condition: "response.body.x == 1"',
      '      code: [[NOT_FOUND_RESOURCE]]',
      '    - condition: "response.body.x == 2"',
      '      code: PERMISSION_DENIED',
      '    - code: [[VALIDATION_INVALID_TYPE]]',
      '  [[500]]:',
      '    code: NOT_FOUND_RESOURCE',
    ),
  );
  const { ds } = check(f, 'http.category-mismatch');
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
  );
  assert.match(String(ds[0]!.message), /403 is outside the HTTP range of category NOT_FOUND .* NOT_FOUND_RESOURCE/);
});

test('lowercase 4xx / 5xx are the ranges 4XX / 5XX; 5xx next to 5XX is a duplicate key', () => {
  const s = newService();
  const ok = yamlDoc('error_mapping:', '  4xx:', '    code: VALIDATION_INVALID_TYPE', '  5xx:', '    code: INTERNAL_ERROR');
  assert.deepEqual(codesIn(s, ok), []);
  assert.equal(s.simulate(docOf(ok), { status: 502 }).rule, 'error_mapping[5xx]');
  assert.equal(s.simulate(docOf(ok), { status: 418 }).rule, 'error_mapping[4xx]');
  const f = fixture(yamlDoc('error_mapping:', '  5XX:', '    code: INTERNAL_ERROR', '  [[5xx]]:', '    code: INTERNAL_ERROR'));
  const { ds } = check(f, 'yaml.duplicate-key');
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
  );
  const bad = fixture(yamlDoc('error_mapping:', '  [[6xx]]:', '    code: INTERNAL_ERROR', '  [[4Xx0]]:', '    code: INTERNAL_ERROR'));
  assert.deepEqual(
    check(bad, 'http.invalid-status').ds.map(d => d.range),
    bad.spans,
  );
});
