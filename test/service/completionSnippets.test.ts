/**
 * New-entry snippets while editing an adapter (front matter first): a key typed
 * directly under `error_codes` offers a whole entry, under `error_mapping` a status with its `code`.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { InsertTextFormat, type TextEdit } from 'vscode-languageserver-types';
import { applyEdits, fixture, newService } from './helpers';

const s = newService();
const MD = 'file:///w/shop-adapter.md';
const CATEGORIES = 'VALIDATION,NOT_FOUND,PERMISSION,CONFLICT,RATE_LIMIT,TOKEN,INTERNAL';

function snippet(text: string, uri = MD, snippets = true) {
  const f = fixture(text, { cursor: true, uri });
  const items = s.complete(f.doc, f.cursor!, {}, { snippets });
  const it = items.find(i => i.label === 'new error code');
  return { items, it, applied: it && applyEdits(f.doc, [it.textEdit as TextEdit]) };
}

test('a new key under error_codes in front matter offers a whole entry, indented under the name typed', () => {
  const { it, applied } = snippet(
    '---\nname: shop\nerror_codes:\n  VALIDATION_X:\n    category: VALIDATION\n  NOT_FOUND_OR|\n---\n# Shop\n',
  );
  assert.ok(it);
  assert.equal(it.insertTextFormat, InsertTextFormat.Snippet);
  assert.equal(
    applied,
    [
      '---',
      'name: shop',
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      '  ${1:NOT_FOUND_OR}:',
      `    category: \${2|${CATEGORIES}|}`,
      '    message_template: "${3:Thing \'{name\\}\' not found}"',
      '    details:',
      '      ${4:name}: ${5:string}',
      '---',
      '# Shop',
      '',
    ].join('\n'),
  );
});

test('on an empty line under error_codes, in YAML too; none without snippet support, in JSON, or at other depths', () => {
  const above = snippet('---\nerror_codes:\n  NOT_FOUND_Z|\n  VALIDATION_X:\n    category: VALIDATION\n---\n');
  assert.match(
    above.applied!,
    /^---\nerror_codes:\n {2}\$\{1:NOT_FOUND_Z\}:\n {4}category: [^\n]+\n {4}message_template: [^\n]+\n {4}details:\n {6}\$\{4:name\}: \$\{5:string\}\n {2}VALIDATION_X:\n/,
    'typed above another entry',
  );
  const empty = snippet('error_codes:\n  VALIDATION_X:\n    category: VALIDATION\n  |\n', 'file:///w/a.adapter.yaml');
  assert.match(empty.applied!, /\n {2}\$\{1:NOT_FOUND_THING\}:\n {4}category: \$\{2\|/);
  assert.equal(snippet('error_codes:\n  NOT_FOUND_X|\n', MD.replace('-adapter.md', '.adapter.yaml'), false).it, undefined);
  assert.equal(snippet('{ "error_codes": { "NOT_FOUND_X|" } }', 'file:///w/a.adapter.json').it, undefined);
  assert.equal(snippet('error_codes:\n  VALIDATION_X:\n    |\n', 'file:///w/a.adapter.yaml').it, undefined);
  assert.equal(snippet('---\nname: x\ndesc|\n---\n').it, undefined);
});
