import test from 'node:test';
import assert from 'node:assert/strict';
import { evaluateCondition, parseCondition } from '../../server/src/service/condition';
import { applyFix, check, fixture, yamlDoc } from './helpers';

test('parser accepts the grammar', () => {
  for (const src of [
    "response.body.message contains 'abuse'",
    'response.status == 403 and not (params.force == true)',
    "response.headers.x-ratelimit-remaining == '0' or response.body.errors[0].code in ['abuse', \"secondary\"]",
    'params.count > 100',
    'response.body.ok',
  ])
    assert.equal(parseCondition(src).error, undefined, src);
});

test('parser errors carry exact offsets', () => {
  const cases: [string, number, number][] = [
    ["response.body.message contains 'abuse", 31, 37],
    ['response.status = 403', 16, 17],
    ['response.status ==', 18, 18],
    ['(response.status == 403', 0, 1], // at the '(' that is never closed
    ['response.status == 403 foo', 23, 26],
    ['response.status ~ 1', 16, 17],
  ];
  for (const [src, s, e] of cases) {
    const err = parseCondition(src).error;
    assert.ok(err, src);
    assert.deepEqual([err.start, err.end], [s, e], `${src}: ${err.message}`);
  }
  assert.ok(parseCondition('('.repeat(100) + 'params.x' + ')'.repeat(100)).error?.message.includes('deeper'));
  assert.ok(parseCondition('x'.repeat(5000)).error);
});

test('interpreter truth table', () => {
  const ctx = {
    response: {
      status: 403,
      body: { message: 'You have triggered an Abuse detection mechanism', errors: [{ code: 'abuse' }] },
      headers: { 'X-RateLimit-Remaining': '0' },
    },
    params: { count: 150, force: false },
  };
  const cases: [string, boolean][] = [
    ["response.body.message contains 'abuse'", true],
    ["response.body.message contains 'rate limit'", false],
    ['response.status == 403', true],
    ["response.status == '403'", true],
    ['response.status != 404', true],
    ["response.headers.x-ratelimit-remaining == '0'", true],
    ['params.count > 100 and not params.force', true],
    ['response.body.missing == 1', false],
    ['response.body.missing != 1', true],
    ["response.body.errors[0].code in ['abuse', 'x']", true],
    ['response.status in [401, 403]', true],
    ["response.body.message startswith 'you'", true],
    ["response.body.message endswith 'MECHANISM'", true],
    ['response.body.errors contains 1', false],
  ];
  for (const [src, want] of cases) {
    const r = evaluateCondition(src, ctx);
    assert.equal(r.error, undefined, src);
    assert.equal(r.value, want, `${src} → ${r.steps.join('; ')}`);
  }
  assert.match(evaluateCondition("response.body.message contains 'abuse'", ctx).steps[0]!, /contains "abuse" → true$/);
});

test('condition.syntax is positioned inside quoted and escaped strings', () => {
  const f = fixture(yamlDoc('error_mapping:', '  403:', '    condition: "response.status [[=]] 403"', '    code: PERMISSION_DENIED'));
  assert.deepEqual(
    check(f, 'condition.syntax').ds.map(d => d.range),
    f.spans,
  );
  const g = fixture(
    yamlDoc('error_mapping:', '  403:', '    condition: "response.body.m == \\"x\\" [[~]]"', '    code: PERMISSION_DENIED'),
  );
  assert.deepEqual(
    check(g, 'condition.syntax').ds.map(d => d.range),
    g.spans,
  );
  const h = fixture(yamlDoc('error_mapping:', '  403:', "    condition: 'response.body.m == ''x'' [[~]]'", '    code: PERMISSION_DENIED'));
  assert.deepEqual(
    check(h, 'condition.syntax').ds.map(d => d.range),
    h.spans,
  );
});

test('condition.unknown-root on the root; fix to the closest', () => {
  const f = fixture(
    yamlDoc('error_mapping:', '  403:', '    condition: "[[response.bdy]].message contains \'x\'"', '    code: PERMISSION_DENIED'),
  );
  const { ds, service } = check(f, 'condition.unknown-root');
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
  );
  assert.ok(applyFix(service, f.doc, ds[0]!).includes('"response.body.message contains'));
});
