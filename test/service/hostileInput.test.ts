/**
 * Hostile inputs at the service: every call returns, quickly, with a positioned diagnostic
 * where one is due; nothing throws. Timings are not asserted here (bench/ measures); the runner's
 * timeout catches a hang.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { docOf, newService, textAt, yamlDoc } from './helpers';

const codesOf = (ds: { code?: unknown }[]) => ds.map(d => d.code);

function bomb(levels: number, prefix: string, indent: string): string {
  const names = 'abcdefghijklmnop';
  let out = `${prefix}${indent}base: &a [400, 401, 402, 403, 404, 405, 406, 407, 408]\n`;
  for (let i = 1; i < levels; i++) {
    out += `${indent}l${i}: &${names[i]} [${Array(9)
      .fill('*' + names[i - 1])
      .join(', ')}]\n`;
  }
  return out;
}

test('alias bomb at the top level: yaml.alias-limit on the alias, no expansion', { timeout: 10_000 }, () => {
  const text = 'error_codes: {}\n' + bomb(9, '', '');
  const doc = docOf(text);
  const ds = newService().validate(doc);
  const d = ds.find(x => x.code === 'yaml.alias-limit');
  assert.ok(d, JSON.stringify(codesOf(ds)));
  assert.match(textAt(doc, d.range), /^\*[a-p]$/);
});

test('alias bomb under maps_from_http and details: reported, every feature answers', { timeout: 10_000 }, () => {
  const text =
    yamlDoc(
      'error_codes:',
      '  E_VALIDATION_BOMB:',
      '    category: VALIDATION',
      '    message_template: "Bad \'{field}\'"',
      '    details: &d0 { field: string }',
      '    maps_from_http: &m0 [400, 422]',
    ) + bomb(9, '', '  ').replace(/^  base/m, '  E_VALIDATION_X:\n    maps_from_http: &a [400]\n  base');
  const s = newService();
  const doc = docOf(text);
  const ds = s.validate(doc);
  assert.ok(codesOf(ds).includes('yaml.alias-limit'), JSON.stringify(codesOf(ds)));
  s.complete(doc, { line: 3, character: 25 });
  s.hover(doc, { line: 1, character: 4 });
  s.documentSymbols(doc);
});

test('lone surrogates, U+FFFD and control characters are positioned diagnostics', () => {
  const text = yamlDoc(
    'error_codes:',
    '  E_VALIDATION_A:',
    '    category: VALIDATION',
    '    message_template: "caf\uFFFD and \uD800 and \u0001"',
  );
  const doc = docOf(text);
  const ds = newService()
    .validate(doc)
    .filter(d => d.code === 'text.invalid-character');
  assert.deepEqual(
    ds.map(d => textAt(doc, d.range)),
    ['\uFFFD', '\uD800', '\u0001'],
  );
});

test('CRLF and BOM: ranges land on the right characters', () => {
  const text = '\uFEFFerror_codes:\r\n  bad_name:\r\n    category: VALIDATION\r\n';
  const doc = docOf(text);
  const ds = newService().validate(doc, { rules: {} });
  for (const d of ds) assert.ok(d.range.start.line <= 3);
  const s = newService();
  assert.doesNotThrow(() => s.validate(docOf(text, 'file:///w/x-adapter.md')));
});

test('nesting 10,000 deep and a 1 MB single line: answered, no throw', { timeout: 20_000 }, () => {
  const deep = 'error_codes:\n  E_VALIDATION_DEEP:\n    details: ' + '['.repeat(10_000) + ']'.repeat(10_000) + '\n';
  const s = newService();
  assert.doesNotThrow(() => s.validate(docOf(deep)));
  const line = 'error_codes:\n  E_VALIDATION_LONG:\n    message_template: "' + 'x'.repeat(1_000_000) + '"\n';
  assert.doesNotThrow(() => s.validate(docOf(line, 'file:///w/long.adapter.yaml')));
});

test('a file over maxFileSize gets one file.too-large diagnostic and nothing else', () => {
  const text = 'error_codes:\n' + '# padding\n'.repeat(200);
  const ds = newService().validate(docOf(text), { maxFileSize: 100 });
  assert.deepEqual(codesOf(ds), ['file.too-large']);
});

test('an alias whose anchor does not exist is a positioned yaml.syntax error', () => {
  const text = yamlDoc('error_codes:', '  VALIDATION_X:', '    category: VALIDATION', '    details: *nope');
  const doc = docOf(text);
  const ds = newService()
    .validate(doc)
    .filter(d => d.code === 'yaml.syntax');
  assert.deepEqual(
    ds.map(d => textAt(doc, d.range)),
    ['*nope'],
  );
  assert.match(String(ds[0]!.message), /refers to no anchor/);
});
