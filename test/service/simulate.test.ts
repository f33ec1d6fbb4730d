import test from 'node:test';
import assert from 'node:assert/strict';
import { docOf, newService, yamlDoc } from './helpers';

const adapter = docOf(
  yamlDoc(
    'error_codes:',
    '  RATE_LIMIT_ABUSE_DETECTED:',
    '    category: RATE_LIMIT',
    '    message_template: "Abuse detection triggered: \'{reason}\'"',
    '    maps_from_http: [403]',
    '    condition: "response.body.message contains \'abuse\'"',
    '    details: { reason: string }',
    'error_mapping:',
    '  403:',
    '    - condition: "response.headers.x-ratelimit-remaining == \'0\'"',
    '      code: RATE_LIMIT_EXCEEDED',
    '    - condition: "response.body.message contains \'forbidden\'"',
    '      code: PERMISSION_DENIED',
    '  5XX:',
    '    code: INTERNAL_ERROR',
    '  404:',
    '    code: NOT_FOUND_RESOURCE',
  ),
);
const s = newService();

const cases: { name: string; status: number; body?: unknown; headers?: Record<string, string>; rule: string; code: string }[] = [
  {
    name: 'abuse message: the custom code fires (after both list entries fail)',
    status: 403,
    body: { message: 'You have triggered an abuse detection mechanism' },
    rule: 'error_codes.RATE_LIMIT_ABUSE_DETECTED',
    code: 'RATE_LIMIT_ABUSE_DETECTED',
  },
  {
    name: 'header condition true: first list entry',
    status: 403,
    headers: { 'X-RateLimit-Remaining': '0' },
    body: { message: 'abuse' },
    rule: 'error_mapping[403][0]',
    code: 'RATE_LIMIT_EXCEEDED',
  },
  {
    name: 'second list entry',
    status: 403,
    body: { message: 'Forbidden by policy' },
    rule: 'error_mapping[403][1]',
    code: 'PERMISSION_DENIED',
  },
  {
    name: 'nothing matches at 403: default table',
    status: 403,
    body: { message: 'nope' },
    rule: 'default table',
    code: 'PERMISSION_DENIED',
  },
  { name: '5XX range', status: 502, body: { message: 'bad gateway' }, rule: 'error_mapping[5XX]', code: 'INTERNAL_ERROR' },
  { name: 'exact status', status: 404, rule: 'error_mapping[404]', code: 'NOT_FOUND_RESOURCE' },
  { name: 'default 409 variant', status: 409, rule: 'default table', code: 'CONFLICT_ALREADY_EXISTS' },
  { name: 'default 429 variant', status: 429, rule: 'default table', code: 'RATE_LIMIT_EXCEEDED' },
  { name: 'default 422', status: 422, rule: 'default table', code: 'VALIDATION_INVALID_TYPE' },
  { name: 'default other 4xx', status: 418, rule: 'default table', code: 'VALIDATION_INVALID_TYPE' },
];

for (const c of cases) {
  test(`simulator: ${c.name}`, () => {
    const r = s.simulate(adapter, { status: c.status, body: c.body, headers: c.headers });
    assert.equal(r.rule, c.rule);
    assert.equal(r.code, c.code);
    assert.ok(
      r.preview!.dialects.every(d => d.valid),
      JSON.stringify(r.preview!.dialects.map(d => d.errors)),
    );
  });
}

test('simulator explains each condition and fills details from the body', () => {
  const r = s.simulate(adapter, { status: 403, body: { message: 'You have triggered an abuse detection mechanism' } });
  assert.deepEqual(
    r.considered.map(c => [c.rule, c.matched]),
    [
      ['error_mapping[403][0]', false],
      ['error_mapping[403][1]', false],
      ['error_codes.RATE_LIMIT_ABUSE_DETECTED', true],
    ],
  );
  assert.match(r.considered[2]!.steps[0]!, /response\.body\.message \(".*"\) contains "abuse" → true/);
  assert.equal(r.preview!.message, "Abuse detection triggered: 'You have triggered an abuse detection mechanism'");
  assert.equal(r.preview!.details[0]!.from, 'body');
});

test('a broken condition is reported, not evaluated, and does not match', () => {
  const d = docOf(yamlDoc('error_mapping:', '  403:', '    - condition: "response.status = 403"', '      code: RATE_LIMIT_EXCEEDED'));
  const r = s.simulate(d, { status: 403 });
  assert.equal(r.considered[0]!.matched, false);
  assert.match(r.considered[0]!.error!, /'=' is not an operator/);
  assert.equal(r.rule, 'default table');
});

test('an error_codes entry whose condition holds comes before an unconditional error_mapping fallback', () => {
  const d = docOf(
    yamlDoc(
      'error_codes:',
      '  RATE_LIMIT_ABUSE:',
      '    category: RATE_LIMIT',
      '    maps_from_http: [403]',
      '    condition: "response.body.message contains \'abuse\'"',
      'error_mapping:',
      '  403:',
      '    - condition: "response.body.message contains \'rate limit\'"',
      '      code: RATE_LIMIT_EXCEEDED',
      '    - code: PERMISSION_DENIED',
    ),
  );
  assert.deepEqual(
    [
      s.simulate(d, { status: 403, body: { message: 'abuse!' } }).rule,
      s.simulate(d, { status: 403, body: { message: 'API rate limit exceeded' } }).rule,
      s.simulate(d, { status: 403, body: {} }).rule,
    ],
    ['error_codes.RATE_LIMIT_ABUSE', 'error_mapping[403][0]', 'error_mapping[403][1]'],
  );
});
