/**
 * A file whose line ends are CR alone (classic Mac OS). One yaml.syntax at the first
 * lone CR, no cascade, no `\r` in any message; the rest is checked as if each CR were a line break (one
 * character for one, so every position stays exact), the same in the whole and in the chunked parse.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic } from 'vscode-languageserver-types';
import { docOf, newService } from './helpers';

const LF = [
  'error_codes:',
  '  NOT_FOUND_REPOSITORY:',
  '    category: NOT_FOUND',
  '    message_template: "Repository {repo} not found"',
  'error_mapping:',
  '  404:',
  '    code: NOT_FOUND_REPOSITRY',
  '',
].join('\n');
const CR = LF.replace(/\n/g, '\r');

const kinds = (yaml: string) => ({
  yaml: { text: yaml, uri: 'file:///w/shop.adapter.yaml' },
  md: { text: `---\r${yaml}---\r\r# Shop\r`, uri: 'file:///w/shop-adapter.md' },
  json: { text: '{\r  "error_codes": {\r    "bad name": {"category": "NOT_FOUND"}\r  }\r}\r', uri: 'file:///w/shop.adapter.json' },
});

const view = (ds: Diagnostic[]) => ds.map(d => [d.code, d.range.start.line, d.range.start.character, d.range.end.character, d.message]);

for (const chunkThreshold of [undefined, 0]) {
  const how = chunkThreshold === 0 ? 'chunked parse' : 'whole parse';
  for (const kind of ['yaml', 'md'] as const)
    test(`CR-only line ends (${kind}, ${how}): one yaml.syntax at the first CR, then the checks of the LF text`, () => {
      const { text, uri } = kinds(CR)[kind];
      const ds = newService().validate(docOf(text, uri), { chunkThreshold });
      const lf = newService().validate(docOf(text.replace(/\r/g, '\n'), uri), { chunkThreshold });
      const first = kind === 'md' ? 1 : 0;
      assert.deepEqual(view(ds), [
        [
          'yaml.syntax',
          first,
          'error_codes:'.length,
          0,
          'Line ends are CR only (classic Mac OS): use LF or CRLF, other YAML tools read this file as one line. It is checked as if each CR were a line break.',
        ],
        ...view(lf),
      ]);
      assert.ok(lf.length > 0 && ds.every(d => !String(d.message).includes('\r')));
    });
}

test('a lone CR among LF line ends: one yaml.syntax on it, worded for one line', () => {
  const text = LF.replace('  404:\n', '  404:\r');
  const ds = newService().validate(docOf(text));
  const lf = newService().validate(docOf(LF));
  // Sorted by position: the template's problem (line 3) comes first, the unknown code (line 6) last.
  assert.deepEqual(view(ds), [
    view(lf)[0],
    [
      'yaml.syntax',
      5,
      6,
      0,
      'This line ends with CR alone: use LF or CRLF, other YAML tools do not read it as a line break. It is checked as if it were one.',
    ],
    ...view(lf).slice(1),
  ]);
  assert.equal(lf.length, 2);
});

test('CRLF line ends are no lone CR; a CR-only .adapter.json is valid JSON (CR is whitespace): no yaml.syntax', () => {
  assert.deepEqual(view(newService().validate(docOf(LF.replace(/\n/g, '\r\n')))), view(newService().validate(docOf(LF))));
  const { text, uri } = kinds(CR).json;
  const ds = newService().validate(docOf(text, uri));
  assert.deepEqual(view(ds), view(newService().validate(docOf(text.replace(/\r/g, '\n'), uri))));
  assert.ok(ds.length > 0 && !ds.some(d => d.code === 'yaml.syntax'));
});

test('CR-only line ends: the index (fast scan or model) names the codes the model sees, in .adapter.yaml and -adapter.md', () => {
  for (const kind of ['yaml', 'md'] as const) {
    const { text, uri } = kinds(CR)[kind];
    const fresh = newService().indexEntries(docOf(text, uri));
    const s = newService();
    const doc = docOf(text, uri);
    const full = { declarations: s.declaredCodes(doc), occurrences: s.codeOccurrences(doc) };
    assert.deepEqual(fresh, full, kind);
    assert.deepEqual(
      full.declarations.map(d => d.code),
      ['NOT_FOUND_REPOSITORY'],
      kind,
    );
  }
});

test('CR-only line ends, keystrokes in the chunked parse: each version as a fresh whole parse sees it', () => {
  const s = newService();
  const uri = 'file:///w/shop.adapter.yaml';
  let text = CR;
  s.validate(docOf(text, uri, 1), { chunkThreshold: 0 });
  const edits: [string, string][] = [
    ['REPOSITRY', 'REPOSITORY'],
    ['{repo}', '{repo} in {owner}'],
    ['  404:\r', '  404:\r    # note\r'],
    ['NOT_FOUND\r', 'NOT_FOUNDX\r'],
  ];
  edits.forEach(([from, to], i) => {
    const at = text.indexOf(from);
    s.edited(uri, i + 1, i + 2, [{ start: at, end: at + from.length, text: to }]);
    text = text.slice(0, at) + to + text.slice(at + from.length);
    const got = s.validate(docOf(text, uri, i + 2), { chunkThreshold: 0 });
    assert.deepEqual(view(got), view(newService().validate(docOf(text, uri))), from);
    assert.equal(got.filter(d => d.code === 'yaml.syntax').length, 1, from);
  });
});
