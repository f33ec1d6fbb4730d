/** One place, one diagnostic per code: a value shared through an anchor or `<<` is reported once, naming every entry. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { docOf, newService, yamlDoc } from './helpers';

test('a status inherited through << is reported once on the anchored value, with the inheriting entry as related information', () => {
  const text = yamlDoc(
    'error_codes:',
    '  VALIDATION_CARD_DECLINED: &card',
    '    category: VALIDATION',
    "    message_template: 'Declined'",
    '    maps_from_http: [402]',
    '  VALIDATION_CARD_EXPIRED:',
    '    <<: *card',
    "    message_template: 'Expired'",
  );
  const doc = docOf(text);
  const ds = newService()
    .validate(doc)
    .filter(d => d.code === 'http.category-mismatch');
  assert.equal(ds.length, 1);
  const d = ds[0]!;
  assert.equal(doc.getText(d.range), '402');
  assert.deepEqual(d.range, { start: { line: 4, character: 21 }, end: { line: 4, character: 24 } });
  assert.match(String(d.message), /VALIDATION_CARD_DECLINED/);
  assert.equal(d.relatedInformation?.length, 1);
  assert.match(d.relatedInformation![0]!.message, /VALIDATION_CARD_EXPIRED/);
  assert.deepEqual(d.relatedInformation![0]!.location.range, d.range);
});
