/**
 * Tabs in quoted continuation lines and on blank lines of a block scalar. Where
 * indentation must be, a tab is an error for the whole parse and for yaml-test-suite DK95 (01; a blank
 * line of a block scalar holding a tab is no empty line either): exactly one yaml.syntax, on the tab,
 * and no cascade. After enough spaces a tab is content (DK95 02, 08): our tab repair, running because
 * of a tab-indented line elsewhere, must not report it. In .adapter.yaml and -adapter.md, whole and
 * chunked parse.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic } from 'vscode-languageserver-types';
import { docOf, newService } from './helpers';

const HEAD = 'error_codes:\n  NOT_FOUND_X:\n    category: NOT_FOUND\n';
const kinds = (yaml: string) => ({
  yaml: { text: yaml, uri: 'file:///w/shop.adapter.yaml', line: 0 },
  md: { text: `---\n${yaml}---\n\n# Shop\n`, uri: 'file:///w/shop-adapter.md', line: 1 },
});
const syntax = (ds: Diagnostic[]) =>
  ds.filter(d => d.code === 'yaml.syntax').map(d => [d.range.start.line, d.range.start.character, d.range.end.character]);

/** [name, YAML, the one yaml.syntax as [line, from, to] in the YAML (or none)]. */
const CASES: [string, string, [number, number, number] | undefined][] = [
  ['a tab as the indentation of a quoted continuation line (DK95 01)', HEAD + '    message_template: "Not\n\tfound"\n', [4, 0, 1]],
  ['two spaces, then a tab, in a quoted continuation line', HEAD + "    message_template: 'Not\n  \tfound'\n", [4, 2, 3]],
  ['a tab on a blank line in a quoted scalar', HEAD + '    message_template: "Not\n\t\n      found"\n', [4, 0, 1]],
  ['a tab on a blank line after a block scalar', HEAD + '    description: |\n      text\n\t\n    message_template: "x"\n', [5, 0, 1]],
  ['a space and a tab on a blank line inside a folded block scalar', HEAD + '    description: >\n      text\n \t\n      more\n', [5, 1, 2]],
  ['a tab after enough spaces in a quoted continuation line (DK95 02)', HEAD + '    message_template: "Not\n      \tfound"\n', undefined],
  [
    'a tab after enough spaces on a blank line of a block scalar',
    HEAD + '    description: |\n      text\n      \t\n      more\n',
    undefined,
  ],
];

for (const [name, yaml, want] of CASES)
  for (const extra of ['', 'error_mapping:\n  404:\n\tcode: NOT_FOUND_X\n'])
    for (const chunkThreshold of [Infinity, 0])
      for (const [kind, { text, uri, line }] of Object.entries(kinds(yaml + extra)))
        test(`${name}${extra ? ', with a tab-indented line further down' : ''} (${kind}, ${chunkThreshold ? 'whole' : 'chunked'} parse)`, () => {
          const ds = newService().validate(docOf(text, uri), { chunkThreshold });
          const tabbed = yaml.split('\n').length + 1;
          const expected = [...(want ? [[want[0] + line, want[1], want[2]]] : []), ...(extra ? [[tabbed + line, 0, 1]] : [])];
          assert.deepEqual(syntax(ds), expected);
          // The rest is read: the code is declared, the mapping (when there) resolves to it.
          assert.ok(
            !ds.some(d => d.code === 'mapping.unknown-code' || d.code === 'schema.missing-key'),
            JSON.stringify(ds.map(d => d.code)),
          );
        });

/** yaml-test-suite DK95 ("Tabs that look like indentation"; 07 is about directives): [id, YAML, the one yaml.syntax]. */
const DK95: [string, string, [number, number] | undefined][] = [
  ['00', 'foo:\n\tbar\n', [1, 0]],
  ['01', 'foo: "bar\n\tbaz"\n', [1, 0]],
  ['02', 'foo: "bar\n   \tbaz"\n', undefined],
  ['03', ' \t\nfoo: 1\n', undefined],
  ['04', 'foo: 1\n\t\nbar: 2\n', undefined],
  ['05', 'foo: 1\n \t\nbar: 2\n', undefined],
  ['06', 'foo:\n  a: 1\n  \tb: 2\n', [2, 2]],
  ['08', 'foo: "bar\n \t \t baz \t \t "\n', undefined],
];

for (const [id, yaml, want] of DK95)
  test(`yaml-test-suite DK95 ${id}: ${want ? 'one yaml.syntax on the tab' : 'no yaml.syntax'}, also with a tab-indented line after it, whole and chunked`, () => {
    for (const extra of ['', 'zz:\n\tq: 1\n'])
      for (const chunkThreshold of [Infinity, 0]) {
        const ds = newService().validate(docOf(yaml + extra, 'file:///w/dk95.adapter.yaml'), { chunkThreshold });
        const tabbed = yaml.split('\n').length;
        const expected = [...(want ? [[want[0], want[1], want[1] + 1]] : []), ...(extra ? [[tabbed, 0, 1]] : [])];
        assert.deepEqual(syntax(ds), expected, `${extra ? 'with' : 'without'} the tab-indented line, threshold ${chunkThreshold}`);
      }
  });
