/**
 * Adapter text in hover and completion markdown renders as text (no remote pictures,
 * links or HTML from a cloned repository).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import type { MarkupContent } from 'vscode-languageserver-types';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createWorkspaceIndex } from '../../server/src/service';
import { codeSpan, escapeMarkdown, markdownToPlain } from '../../server/src/service/util/markdown';
import { fixture, newService, yamlDoc } from './helpers';

const EVIL = '![p](https://evil.example/p.png) <img src=x onerror=alert(1)> [go](https://evil.example) https://evil.example *b* &lt;';

test('escapeMarkdown leaves no markdown syntax: what starts markdown syntax escaped, line breaks as spaces', () => {
  assert.equal(escapeMarkdown('![a](http://x/y.png)'), '\\!\\[a\\](http\\://x/y.png)');
  assert.equal(escapeMarkdown('<b>&amp;</b>\n\n# h'), '\\<b\\>\\&amp;\\</b\\>  \\# h');
  assert.equal(escapeMarkdown('www.evil.example a@b.example | x'), 'www\\.evil.example a\\@b.example \\| x');
  assert.equal(escapeMarkdown('NOT_FOUND _a_ *b* ~~c~~'), 'NOT_FOUND \\_a\\_ \\*b\\* \\~\\~c\\~\\~');
  assert.deepEqual(['1) a', '- b', '  12. c', '+ d', '=== e'].map(escapeMarkdown), ['1\\) a', '\\- b', '  12\\. c', '\\+ d', '\\=== e']);
  assert.equal(codeSpan('a`b\n\n![x](y)'), "`a'b  ![x](y)`");
  assert.equal(markdownToPlain(`**${escapeMarkdown(EVIL)}** ${codeSpan('{k}')}`), `${EVIL} {k}`);
});

test('hover on a custom code: description, template, category, details names and types show as text', () => {
  const f = fixture(
    yamlDoc(
      'error_codes:',
      '  NOT_FOUND_T|HING:',
      '    category: "<i>NOT_FOUND</i>"',
      `    description: "${EVIL.replace(/"/g, '\\"')}"`,
      '    message_template: "`x`\\n\\n![t](https://evil.example/t.png) {k}"',
      '    details:',
      '      "<b>k</b>": "[t](https://evil.example)"',
      '    maps_from_http: [404]',
    ),
    { cursor: true },
  );
  const h = newService().hover(f.doc, f.cursor!)!;
  assert.equal(
    (h.contents as MarkupContent).value,
    [
      '**NOT_FOUND_THING** — \\<i\\>NOT_FOUND\\</i\\> · custom code (this file)',
      '',
      '\\!\\[p\\](https\\://evil.example/p.png) \\<img src=x onerror=alert(1)\\> \\[go\\](https\\://evil.example) https\\://evil.example \\*b\\* \\&lt;',
      '',
      "`'x'  ![t](https://evil.example/t.png) {k}`",
      '',
      '| details key | type | required |',
      '|---|---|---|',
      '| \\<b\\>k\\</b\\> | \\[t\\](https\\://evil.example) |  |',
      '',
      'HTTP: 404',
    ].join('\n'),
  );
  // The plain-text hover (clients without markdown) is the text itself, without backslashes.
  const plain = newService().hover(f.doc, f.cursor!, undefined, { markdown: false })!.contents as string;
  assert.ok(plain.includes(`\n\n${EVIL}\n\n`), plain);
});

test('hover on an unknown code written by a stranger; a category named constructor has no recovery', () => {
  const s = newService();
  const u = fixture(yamlDoc('error_mapping:', '  404:', '    code: "<img src=x>[a](http://e.example)|"'), { cursor: true });
  assert.equal(
    (s.hover(u.doc, u.cursor!)!.contents as MarkupContent).value,
    '**\\<img src=x\\>\\[a\\](http\\://e.example)** — unknown code: not in the registry nor in error_codes.',
  );
  const c = fixture(yamlDoc('error_codes:', '  CONSTRUCTOR_|X:', '    category: constructor', '    message_template: "x"'), {
    cursor: true,
  });
  assert.equal(
    (s.hover(c.doc, c.cursor!)!.contents as MarkupContent).value,
    '**CONSTRUCTOR_X** — constructor · custom code (this file)\n\n`x`',
  );
});

test('hover on a code declared in another file: its file name is text', () => {
  const index = createWorkspaceIndex();
  const s = newService(index);
  const other = TextDocument.create(
    'file:///work/%21%5Bp%5D(https%3A%2F%2Fevil.example%2Fp.png).adapter.yaml',
    'yaml',
    1,
    yamlDoc('error_codes:', '  NOT_FOUND_THING:', '    category: NOT_FOUND', '    message_template: "x"'),
  );
  index.update(other.uri, s.declaredCodes(other), s.codeOccurrences(other));
  const f = fixture(yamlDoc('error_mapping:', '  404:', '    code: NOT_FOUND_TH|ING'), { cursor: true });
  const value = (s.hover(f.doc, f.cursor!)!.contents as MarkupContent).value;
  assert.equal(
    value.split('\n')[0],
    '**NOT_FOUND_THING** — NOT_FOUND · custom code (\\!\\[p\\](https\\://evil.example/p.png).adapter.yaml)',
  );
});

test('completion: a custom code documents its template as plain text, never markdown', () => {
  const f = fixture(
    yamlDoc(
      'error_codes:',
      '  NOT_FOUND_THING:',
      '    category: NOT_FOUND',
      '    message_template: "![t](https://evil.example/t.png)"',
      'error_mapping:',
      '  404:',
      '    code: NOT_FOUND_TH|',
    ),
    { cursor: true },
  );
  const item = newService()
    .complete(f.doc, f.cursor!)
    .find(i => i.label === 'NOT_FOUND_THING')!;
  assert.equal(item.documentation, '![t](https://evil.example/t.png)');
});
