/** Pins for docs/spec-decisions.md: how each spec inconsistency is treated (digest s9). */
import test from 'node:test';
import assert from 'node:assert/strict';
import { codesIn, docOf, newService, yamlDoc } from './helpers';

const s = newService();
const codes = s.registry.codes;

test('C-1, C-2, C-3: 9 MVP codes, 11 Phase 1 codes of which RATE_LIMIT_QUOTA_WARNING is a warning', () => {
  assert.equal(codes.filter(c => c.phase === 'mvp').length, 9);
  assert.equal(
    codes.filter(
      c =>
        c.phase === 'phase1' && !['DEPRECATION_WARNING', 'VALIDATION_TRUNCATED_WARNING', 'PERFORMANCE_SLOW_QUERY_WARNING'].includes(c.code),
    ).length,
    11,
  );
  assert.equal(codes.find(c => c.code === 'RATE_LIMIT_QUOTA_WARNING')!.kind, 'warning');
});

test("C-6: a code neither in the registry nor declared is an error (design s3 overrides the digest's warning)", () => {
  const ds = s.validate(docOf(yamlDoc('error_mapping:', '  404:', '    code: NOT_FOUND_REPOSITORY')));
  assert.deepEqual(
    ds.map(d => [d.code, d.severity]),
    [['mapping.unknown-code', 1]],
  );
});

test('C-7: built-in templates resolve through the alias table and are never reported', () => {
  for (const c of codes.filter(x => x.kind === 'error' && x.message_template)) {
    const text = yamlDoc('error_mapping:', '  499:', `    code: ${c.code}`, `    message_template: ${JSON.stringify(c.message_template)}`);
    const got = codesIn(s, text).filter(x => x.startsWith('template.') && x !== 'template.unquoted-placeholder');
    assert.deepEqual(got, [], c.code);
  }
});

test('C-9: the quoting rule is information-level and only for string values', () => {
  const ds = s.validate(
    docOf(
      yamlDoc(
        'error_codes:',
        '  VALIDATION_X:',
        '    category: VALIDATION',
        '    message_template: "{n} and {name}"',
        '    details: { n: integer, name: string }',
      ),
    ),
  );
  assert.deepEqual(
    ds.map(d => [d.code, d.severity]),
    [['template.unquoted-placeholder', 3]],
  );
});

test('C-16, C-17: default table is the s6.2 algorithm with the 409/429 variant first; 400 → VALIDATION_INVALID_TYPE', () => {
  const d = docOf(yamlDoc('error_codes: {}'));
  assert.deepEqual(
    [400, 409, 429, 401, 503].map(st => s.simulate(d, { status: st }).code),
    ['VALIDATION_INVALID_TYPE', 'CONFLICT_ALREADY_EXISTS', 'RATE_LIMIT_EXCEEDED', 'PERMISSION_DENIED', 'INTERNAL_ERROR'],
  );
});

test('C-20: warnings never appear in error previews', () => {
  for (const c of codes.filter(x => x.kind === 'error')) {
    const env = s.preview(docOf('error_codes: {}\n'), { code: c.code })!.dialects[0]!.envelope as Record<string, unknown>;
    assert.equal(env.warnings, undefined, c.code);
  }
});

test('C-26: the rest of the adapter is not validated (metadata keys, target extras): no false positives', () => {
  assert.deepEqual(
    codesIn(s, yamlDoc('name: x', 'type: adapter', 'author: me', 'tags: [a]', 'target: { application: Mail }', 'error_codes: {}')),
    [],
  );
});

test("C-32, C-33, C-34, C-35: the spec's own s8.2/s8.3 example", () => {
  const text = yamlDoc(
    'error_codes:',
    '  GITHUB_ABUSE_DETECTED:',
    '    category: RATE_LIMIT',
    '    message_template: "Abuse detection triggered: {reason}"',
    '    maps_from_http: [403]',
    '    condition: "response.body.message contains \'abuse\'"',
    'error_mapping:',
    '  404:',
    '    code: NOT_FOUND_REPOSITORY',
    '    message_template: "Repository \'{owner}/{repo}\' not found"',
    '  403:',
    '    condition: "response.body.message contains \'rate limit\'"',
    '    code: RATE_LIMIT_EXCEEDED',
  );
  assert.deepEqual(
    codesIn(s, text).sort(),
    [
      'code.category-prefix', // C-32: GITHUB_ABUSE_DETECTED does not start with RATE_LIMIT_
      'http.category-mismatch',
      'http.category-mismatch', // 403 is not a RATE_LIMIT status (s3.2)
      'mapping.precedence', // C-35: 403 claimed twice
      'mapping.unknown-code', // C-33: NOT_FOUND_REPOSITORY is neither registered nor declared
      'template.unknown-placeholder', // s8.2 declares no details for {reason}
    ].sort(),
  );
});

test('C-36: a list of entries for one status (ours), first match wins', () => {
  const d = docOf(
    yamlDoc(
      'error_mapping:',
      '  403:',
      '    - condition: "response.status == 403"',
      '      code: RATE_LIMIT_EXCEEDED',
      '    - code: PERMISSION_DENIED',
    ),
  );
  assert.deepEqual(codesIn(s, d.getText()), ['http.category-mismatch']); // information: 403 is not a RATE_LIMIT status
  assert.equal(s.simulate(d, { status: 403 }).rule, 'error_mapping[403][0]');
});
