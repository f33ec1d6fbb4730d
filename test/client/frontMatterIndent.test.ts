/** YAML-like indentation on Enter inside an adapter's front matter (client/src/frontMatterIndent.ts). */
import test from 'node:test';
import assert from 'node:assert/strict';
import { frontMatterIndent } from '../../client/src/frontMatterIndent';

const DOC = [
  '---', // 0
  'name: shop', // 1
  'error_codes:', // 2
  '  NOT_FOUND_ORDER:   # the order', // 3
  '    message_template: "Order \'{id}\' #1 not found"', // 4
  '    maps_from_http:', // 5
  '      - 404', // 6
  '    details: |', // 7
  'error_mapping:', // 8
  '  404:', // 9
  '    - code: NOT_FOUND_ORDER', // 10
  '    -', // 11
  '---', // 12
  '# Shop', // 13
  'Note:', // 14
];
const at = (line: number, column = DOC[line]!.length) => frontMatterIndent(DOC, line, column);

test('Enter after a key that opens a block indents two more; elsewhere keeps the YAML indentation', () => {
  assert.equal(at(2), '  ', 'error_codes:');
  assert.equal(at(3), '    ', 'a key with a comment after the colon');
  assert.equal(at(4), '    ', 'a value: same indentation (a # inside quotes is no comment)');
  assert.equal(at(5), '      ');
  assert.equal(at(6), '        ', 'a list item: its content column');
  assert.equal(at(7), '      ', 'a block scalar');
  assert.equal(at(9), '    ');
  assert.equal(at(10), '      ', 'continues at the key of `- code:`');
  assert.equal(at(11), '      ', 'a bare `-`');
  assert.equal(at(1), '');
  assert.equal(at(2, 5), '', 'in the middle of a key: the line as it is');
});

test('outside the front matter (and in a file without one) Markdown keeps its own Enter', () => {
  assert.equal(at(0), undefined, 'the opening ---');
  assert.equal(at(12), undefined, 'the closing ---');
  assert.equal(at(14), undefined, '`Note:` in the body');
  assert.equal(frontMatterIndent(['# Title', 'error_codes:'], 1, 12), undefined);
  assert.equal(frontMatterIndent(['\uFEFF---', 'error_codes:'], 1, 12), '  ', 'a byte order mark; no closing line yet');
});
