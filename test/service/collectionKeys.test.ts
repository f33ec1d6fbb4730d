/**
 * An error_mapping entry with a collection key (`? [999]`) is no HTTP status; the key
 * gets one http.invalid-status and the entry's value is still checked (here: an unknown code with its
 * did-you-mean). Inline YAML in .adapter.yaml and in the front matter of an -adapter.md (JSON has no
 * collection keys).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { docOf, newService } from './helpers';

const head = 'error_codes:\n  NOT_FOUND_REPOSITORY:\n    category: NOT_FOUND\nerror_mapping:\n';
const CASES: { name: string; body: string; key: string }[] = [
  { name: 'explicit key, value on its own line', body: '  ? [999]\n  : {code: NOT_FOUND_REPOSITRY}\n', key: '[999]' },
  { name: 'compact explicit key', body: '  ? [999]: {code: NOT_FOUND_REPOSITRY}\n', key: '[999]' },
  { name: 'flow mapping key', body: '  {a: 1}: {code: NOT_FOUND_REPOSITRY}\n', key: '{a: 1}' },
];

const kinds = (yaml: string) => ({
  yaml: { text: yaml, uri: 'file:///w/shop.adapter.yaml' },
  md: { text: `---\n${yaml}---\n\n# Shop\n`, uri: 'file:///w/shop-adapter.md' },
});

for (const c of CASES)
  for (const [kind, { text, uri }] of Object.entries(kinds(head + c.body)))
    test(`collection key in error_mapping (${c.name}, ${kind}): http.invalid-status on the key, the value still checked`, () => {
      const doc = docOf(text, uri);
      const ds = newService().validate(doc);
      const at = (s: string) => {
        const i = text.indexOf(s, text.indexOf('error_mapping:'));
        return { start: doc.positionAt(i), end: doc.positionAt(i + s.length) };
      };
      assert.deepEqual(
        ds.map(d => [d.code, d.range, d.message]),
        [
          [
            'http.invalid-status',
            at(c.key),
            `'${c.key}' is not an HTTP status (error_mapping key: an integer 100–599, or a 4XX / 5XX range).`,
          ],
          [
            'mapping.unknown-code',
            at('NOT_FOUND_REPOSITRY'),
            "Did you mean NOT_FOUND_REPOSITORY? 'NOT_FOUND_REPOSITRY' is neither a registry code nor declared in error_codes.",
          ],
        ],
      );
    });

test('a long multi-line collection key is named on one line, cut at 40 characters', () => {
  const key = `[${Array.from({ length: 20 }, (_, i) => 400 + i).join(',\n    ')}]`;
  const text = `${head}  ? ${key}\n  : {code: NOT_FOUND_REPOSITORY}\n`;
  const ds = newService()
    .validate(docOf(text))
    .filter(d => d.code === 'http.invalid-status');
  assert.equal(ds.length, 1);
  assert.equal(
    ds[0]!.message,
    `'[400, 401, 402, 403, 404, 405, 406, 407…' is not an HTTP status (error_mapping key: an integer 100–599, or a 4XX / 5XX range).`,
  );
  assert.deepEqual(ds[0]!.range.start, { line: 4, character: 4 });
});
