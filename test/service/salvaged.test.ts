/**
 * One mistake, one diagnostic around syntax errors. When YAML or JSON rejected a
 * scalar, no other check runs on what the parser salvaged from it; the parser's cascade after a string
 * closed too early is one error, and an unclosed string is reported where it opens. In all three forms.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { docOf, newService } from './helpers';

/** [code, 1-based line, first column, last column (0-based end), message?] of every diagnostic. */
function report(text: string, uri: string, withMessage = false): (string | number)[][] {
  const doc = docOf(text, uri);
  return newService()
    .validate(doc)
    .map(d => {
      const r = [String(d.code), d.range.start.line + 1, d.range.start.character, d.range.end.line + 1, d.range.end.character];
      return withMessage ? [...r, String(d.message)] : r;
    });
}

const YAML_BODY = [
  'name: tracker',
  'error_codes:',
  '  NOT_FOUND_ITEM:',
  '    category: NOT_FOUND',
  '    details:',
  '      item_id: string',
  "    message_template: 'Item '{item_id}' was not found'",
  '  CONFLICT_LOCKED:',
  '    category: CONFLICT',
  `    message_template: "Item '{item_id}' is locked"`,
  '    details:',
  '      item_id: string',
  'error_mapping:',
  '  409:',
  '    code: CONFLICT_LOCKED',
  `    condition: "response.body.message contains 'locked'`,
  '  404:',
  '    code: NOT_FOUND_ITEM',
  '',
].join('\n');

for (const [form, uri, text, shift] of [
  ['yaml', 'file:///w/tracker.adapter.yaml', YAML_BODY, 0],
  ['markdown', 'file:///w/tracker-adapter.md', `---\n${YAML_BODY}---\n\n# Tracker\n`, 1],
] as const) {
  test(`${form}: a string closed early and an unclosed condition string are one yaml.syntax each, and nothing else is said of them`, () => {
    assert.deepEqual(report(text, uri, true), [
      [
        'yaml.syntax',
        7 + shift,
        29,
        7 + shift,
        54,
        `Write '' for a quote inside a single-quoted string (or quote the whole with "…"): the string ended at the quote before this.`,
      ],
      [
        'yaml.syntax',
        16 + shift,
        15,
        16 + shift,
        55,
        'Close this string with ": it is never closed, so YAML reads the lines after it as part of it.',
      ],
    ]);
  });
}

test('yaml: a template cut by its own quote reports no unused details key, and a condition cut short no condition.syntax', () => {
  // Before: template.unused-detail on item_id (the salvaged 'Item ' uses none), four yaml.syntax on line 7.
  const r = report(YAML_BODY, 'file:///w/t.adapter.yaml').map(x => x[0]);
  assert.deepEqual(r, ['yaml.syntax', 'yaml.syntax']);
  // A condition whose closing " is missing on the last line of an entry that is otherwise whole.
  const cond = [
    'error_mapping:',
    '  403:',
    '    code: PERMISSION_DENIED',
    `    condition: "response.body.message contains 'locked`,
    '',
  ].join('\n');
  assert.deepEqual(report(cond, 'file:///w/c.adapter.yaml'), [['yaml.syntax', 4, 15, 4, 54]]);
});

test('yaml: a double-quoted template closed by an inner " is one yaml.syntax, not one per token and line after it', () => {
  const text = [
    'error_codes:',
    '  CONFLICT_BRANCH_PROTECTED:',
    '    category: CONFLICT',
    '    message_template: "Branch "{branch}" is protected"',
    '    details:',
    '      branch: string',
    '',
  ].join('\n');
  assert.deepEqual(report(text, 'file:///w/b.adapter.yaml', true), [
    [
      'yaml.syntax',
      4,
      31,
      6,
      20,
      `Write \\" for a quote inside a double-quoted string (or quote the whole with '…'): the string ended at the quote before this.`,
    ],
  ]);
});

test('json: a single-quoted template is one json.syntax (no unquoted-placeholder on its salvaged text); `[*]` is reported once', () => {
  const text = [
    '{',
    '  "name": "airtable",',
    '  "error_codes": {',
    '    "NOT_FOUND_BASE": {',
    '      "category": "NOT_FOUND",',
    '      "message_template": \'Base {base_id} was not found\',',
    '      "details": { "base_id": "string" }',
    '    }',
    '  },',
    '  "error_mapping": { "404": { "code": [*] } }',
    '}',
    '',
  ].join('\n');
  assert.deepEqual(report(text, 'file:///w/a.adapter.json'), [
    ['json.syntax', 6, 26, 6, 56],
    ['json.syntax', 10, 39, 10, 40],
  ]);
});
