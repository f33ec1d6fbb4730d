/**
 * A document's root that is no mapping is judged alike whether it is a scalar or a
 * list, in all three forms: one json.syntax in JSON (`42` and `[]` alike), one schema.type in YAML and
 * Markdown front matter (a list, a number); an empty document says nothing.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { docOf, newService } from './helpers';

const said = (text: string, uri: string) =>
  newService()
    .validate(docOf(text, uri))
    .map(d => [d.code, d.range.start.line, d.range.start.character, d.range.end.character, d.message]);

test('json: a scalar root and a list root are each one json.syntax', () => {
  const uri = 'file:///w/r.adapter.json';
  assert.deepEqual(said('42\n', uri), [
    ['json.syntax', 0, 0, 2, 'A JSON adapter is one object: the text must start with {. (Is this YAML? Then name the file .adapter.yaml.)'],
  ]);
  const list = 'Write the adapter as one object ({ "name": …, "error_codes": … }): this file is a list.';
  assert.deepEqual(said('[]\n', uri), [['json.syntax', 0, 0, 2, list]]);
  assert.deepEqual(said('[\n  { "error_codes": {} }\n]\n', uri), [['json.syntax', 0, 0, 1, list]]);
  assert.deepEqual(said('{}\n', uri), []);
});

for (const [form, uri, wrap, line] of [
  ['yaml', 'file:///w/r.adapter.yaml', (t: string) => t, 0],
  ['markdown', 'file:///w/r-adapter.md', (t: string) => `---\n${t}---\n\n# R\n`, 1],
] as const) {
  test(`${form}: a list root and a scalar root are each one schema.type; an empty document nothing`, () => {
    const write = (what: string) =>
      `Write the adapter as one mapping of keys (name:, error_codes:, error_mapping:, …): this document is ${what}.`;
    assert.deepEqual(said(wrap('- error_codes: {}\n- name: x\n'), uri), [['schema.type', line, 0, 17, write('a list')]]);
    assert.deepEqual(said(wrap('42\n'), uri), [['schema.type', line, 0, 2, write('a single value')]]);
    assert.deepEqual(said(wrap('just some words\n'), uri), [['schema.type', line, 0, 15, write('a string')]]);
    assert.deepEqual(said(wrap('# only a comment\n'), uri), []);
  });
}
