/**
 * No word suggestions in an adapter's front matter where the server offers nothing
 * (client/src/wordFallback.ts: when the client answers its invisible item instead of an empty list).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { ADAPTER_MARKDOWN, inFrontMatter, mayNeedWordStop, WORD_STOP_LABEL } from '../../client/src/wordFallback';

const DOC = [
  '---', // 0
  'name: shop', // 1
  'description: "Orders and refunds"', // 2
  'error_codes:', // 3
  '---', // 4
  '# Shop', // 5
  'Orders are refunded within a week.', // 6
];
const view = (lines: readonly string[], over: Partial<{ languageId: string }> = {}) => ({
  languageId: 'markdown',
  lineAt: (i: number) => lines[i] ?? '',
  ...over,
});

test('front matter: the lines between the opening --- of line 0 and the closing ---, as the server reads them', () => {
  const at = (lines: readonly string[], line: number) => inFrontMatter(i => lines[i] ?? '', line);
  assert.deepEqual(
    DOC.map((_, i) => at(DOC, i)),
    [false, true, true, true, false, false, false],
  );
  assert.equal(at(['\uFEFF---  ', 'name: x'], 1), true, 'a BOM and trailing blanks on the opening fence');
  assert.equal(at(['---\r', 'name: x\r', '---\r', 'body'], 3), false, 'CRLF lines: the closing fence still closes');
  assert.equal(at(['---', 'name: x', 'error_codes:'], 2), true, 'never closed: the rest of the file');
  assert.equal(at(['# Title', '---', 'name: x'], 2), false, 'no front matter unless line 0 opens it');
  assert.equal(at(['----', 'name: x'], 1), false, 'four dashes open nothing');
});

test('the word stop is considered only for an empty answer inside the front matter of a Markdown file', () => {
  assert.equal(WORD_STOP_LABEL, '', 'an empty label: the suggest widget never shows the item');
  assert.equal(mayNeedWordStop(0, view(DOC), 2), true, 'nothing offered in the description value');
  assert.equal(mayNeedWordStop(3, view(DOC), 2), false, 'the server offered items');
  assert.equal(mayNeedWordStop(0, view(DOC), 6), false, 'the Markdown body keeps its word suggestions');
  assert.equal(mayNeedWordStop(0, view(DOC), 4), false, 'the closing fence');
  assert.equal(mayNeedWordStop(0, view(DOC, { languageId: 'yaml' }), 2), false, 'a YAML adapter');
});

test('a Markdown adapter by its name, as the server reads names; other names are asked of the server', () => {
  for (const p of ['/ws/github-adapter.md', '/ws/docs/Shop-Adapter.MD', 'x-adapter.md']) assert.ok(ADAPTER_MARKDOWN.test(p), p);
  for (const p of ['/ws/adapter.md', '/ws/github-adapter.md.bak', '/ws/x-adapter.md/readme.md', '/ws/notes.md'])
    assert.ok(!ADAPTER_MARKDOWN.test(p), p);
});

test('the lines after the cursor are never read', () => {
  const read: number[] = [];
  const lines = ['---', 'name: x', 'description: y', ...Array.from({ length: 1000 }, () => 'z')];
  assert.equal(
    inFrontMatter(i => {
      read.push(i);
      return lines[i]!;
    }, 2),
    true,
  );
  assert.deepEqual(read, [0, 1, 2]);
});
