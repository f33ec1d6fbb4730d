/** The status the preview's simulator starts from is the code's own (envelopes/simulatorStart.ts). */
import test from 'node:test';
import assert from 'node:assert/strict';
import { docOf, newService, yamlDoc } from './helpers';

const doc = docOf(
  yamlDoc(
    'error_codes:',
    '  PERMISSION_ABUSE:',
    '    category: PERMISSION',
    '    message_template: "Abuse"',
    '    maps_from_http: [403]',
    '  NOT_FOUND_REPO:',
    '    category: NOT_FOUND',
    '    message_template: "No repo"',
    '  CONFLICT_STATE:',
    '    category: CONFLICT',
    '    message_template: "Conflict"',
    '  INTERNAL_UPSTREAM:',
    '    category: INTERNAL',
    '    message_template: "Upstream"',
    '  VALIDATION_RANGE:',
    '    category: VALIDATION',
    '    message_template: "Range"',
    '    maps_from_http: [4XX]',
    '  ODD_ONE:',
    '    category: NO_SUCH_CATEGORY',
    '    message_template: "Odd"',
    'error_mapping:',
    '  410:',
    '    code: NOT_FOUND_REPO',
    '  5xx:',
    '    code: INTERNAL_UPSTREAM',
  ),
);
const s = newService();
const start = (code: string) => s.preview(doc, { code })!.simulateStatus;

test("the simulator starts from the code's own status, in order: its statuses, this file's mapping, its category", () => {
  assert.equal(start('PERMISSION_ABUSE'), 403, 'maps_from_http');
  assert.equal(start('VALIDATION_RANGE'), 400, 'a 4XX range starts at 400');
  assert.equal(start('NOT_FOUND_REPO'), 410, 'the error_mapping key that maps to it');
  assert.equal(start('INTERNAL_UPSTREAM'), 500, 'a 5xx mapping key');
  assert.equal(start('CONFLICT_STATE'), 409, "the category's first status");
  assert.equal(start('RATE_LIMIT_EXCEEDED'), 429, "a registry code's status");
  assert.equal(start('ODD_ONE'), undefined, 'no status known: the field starts empty');
  assert.equal(start('NOT_DECLARED_ANYWHERE'), undefined);
});

test('a mapping entry under the cursor starts from its own status key', () => {
  const text = doc.getText();
  const at = doc.positionAt(text.indexOf('code: NOT_FOUND_REPO') + 8);
  assert.equal(s.preview(doc, { position: at })!.simulateStatus, 410);
});
