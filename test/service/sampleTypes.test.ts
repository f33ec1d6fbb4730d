/**
 * Sample values are checked against the declared details types and enums (the
 * envelope schemas cannot know them), and the simulator uses the preview form's edited samples and
 * the simulated response's headers.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { docOf, newService, yamlDoc } from './helpers';

const s = newService();
const adapter = docOf(
  yamlDoc(
    'error_codes:',
    '  VALIDATION_BAD_QTY:',
    '    category: VALIDATION',
    "    message_template: \"Quantity '{qty}' is not allowed for '{mode}'\"",
    '    maps_from_http: [422]',
    '    details:',
    '      qty: integer',
    '      mode: { type: string, enum: [fast, slow] }',
    '      tags: { type: "string[]", required: false }',
  ),
);

test('a sample of the wrong type makes every dialect invalid, with the reason on the field and in each verdict', () => {
  const p = s.preview(adapter, { code: 'VALIDATION_BAD_QTY', samples: { qty: 'abc' } })!;
  const qty = p.details.find(d => d.name === 'qty')!;
  assert.equal(qty.problem, 'qty is declared integer: "abc" is not an integer');
  for (const d of p.dialects) {
    assert.equal(d.valid, false, d.id);
    assert.equal(d.errors[0], 'details.qty: qty is declared integer: "abc" is not an integer');
  }
  const ok = s.preview(adapter, { code: 'VALIDATION_BAD_QTY', samples: { qty: 5 } })!;
  assert.ok(ok.dialects.every(d => d.valid && d.errors.length === 0));
  assert.equal(ok.details.find(d => d.name === 'qty')!.problem, undefined);
});

test('enum, list item types and a fraction for an integer are each named', () => {
  const p = s.preview(adapter, { code: 'VALIDATION_BAD_QTY', samples: { qty: 2.5, mode: 'medium', tags: ['a', 3] } })!;
  assert.deepEqual(
    p.details.map(d => d.problem),
    [
      'qty is declared integer: 2.5 is not an integer',
      'mode must be one of "fast", "slow": got "medium"',
      'tags is declared string[]: ["a",3] is not a list of string values',
    ],
  );
  assert.equal(p.dialects[0]!.errors.length, 3);
});

test('registry codes with their declared types: a string where retry_after_seconds is a number', () => {
  const empty = docOf(yamlDoc('error_codes: {}'));
  const p = s.preview(empty, { code: 'RATE_LIMIT_EXCEEDED', samples: { retry_after_seconds: 'soon' } })!;
  assert.ok(p.dialects.every(d => !d.valid));
  assert.match(p.details.find(d => d.name === 'retry_after_seconds')!.problem!, /declared number: "soon" is not a number/);
});

test('simulator: a header fills the details key it names (Retry-After → retry_after_seconds, typed)', () => {
  const empty = docOf(yamlDoc('error_codes: {}'));
  const r = s.simulate(empty, { status: 429, headers: { 'Retry-After': '30' } });
  assert.equal(r.code, 'RATE_LIMIT_EXCEEDED');
  const f = r.preview!.details.find(d => d.name === 'retry_after_seconds')!;
  assert.deepEqual([f.value, f.from, f.problem], [30, 'header', undefined]);
  const bad = s.simulate(empty, { status: 429, headers: { 'retry-after': 'Wed, 21 Oct 2026 07:28:00 GMT' } });
  assert.ok(bad.preview!.dialects.every(d => !d.valid));
});

test('simulator: the edited samples win over body, headers and the sample values, and are checked', () => {
  const r = s.simulate(adapter, { status: 422, body: { qty: 7 }, samples: { mode: 'slow' } });
  assert.equal(r.rule, 'error_codes.VALIDATION_BAD_QTY');
  assert.deepEqual(
    r.preview!.details.map(d => [d.name, d.value, d.from]),
    [
      ['qty', 7, 'body'],
      ['mode', 'slow', 'default'],
      ['tags', ['example_tag_1', 'example_tag_2'], 'sample'],
    ],
  );
  assert.equal(r.preview!.message, "Quantity '7' is not allowed for 'slow'");
  const edited = s.simulate(adapter, { status: 422, body: { qty: 7 }, samples: { qty: 'abc' } });
  assert.equal(edited.preview!.details[0]!.value, 'abc');
  assert.ok(edited.preview!.dialects.every(d => !d.valid));
});
