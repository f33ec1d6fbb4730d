import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { newService, yamlDoc } from './helpers';

const uri = 'file:///work/a.adapter.yaml';
const text = yamlDoc('name: a', 'type: adapter', 'error_codes:', '  A_ONE:', '    category: BOGUS', '    message_template: "{x}"');
const codes = (ds: { code?: unknown; range: unknown }[]) => ds.map(d => [d.code, d.range]);

test('park: a file read for indexing and then opened with the same text gets the diagnostics of a fresh check', () => {
  const fresh = newService().validate(TextDocument.create(uri, 'yaml', 1, text));
  assert.ok(fresh.length >= 2);
  const s = newService();
  assert.equal(s.declaredCodes(TextDocument.create(uri, 'yaml', 0, text)).length, 1);
  s.park(uri);
  assert.deepEqual(codes(s.validate(TextDocument.create(uri, 'yaml', 1, text))), codes(fresh));
});

test('park: opened with other text, other options, or after forget, the file is parsed again', () => {
  const other = text.replace('BOGUS', 'VALIDATION');
  const s = newService();
  s.declaredCodes(TextDocument.create(uri, 'yaml', 0, text));
  s.park(uri);
  const d = s.validate(TextDocument.create(uri, 'yaml', 1, other));
  assert.deepEqual(codes(d), codes(newService().validate(TextDocument.create(uri, 'yaml', 1, other))));
  assert.ok(!d.some(x => x.code === 'code.unknown-category'));

  s.forget(uri);
  s.declaredCodes(TextDocument.create(uri, 'yaml', 0, text));
  s.park(uri);
  s.forget(uri);
  assert.equal(s.validate(TextDocument.create(uri, 'yaml', 1, text), { maxFileSize: 10 }).length, 1, 'too large now: one file.too-large');

  const md = 'file:///work/notes.md';
  const s2 = newService();
  s2.declaredCodes(TextDocument.create(md, 'markdown', 0, '```yaml\n' + text + '```\n'), { files: ['**/*.md'] });
  s2.park(md);
  assert.deepEqual(s2.validate(TextDocument.create(md, 'markdown', 1, '```yaml\n' + text + '```\n')), []);
});

test('park keeps one model at most: parking another file drops the first', () => {
  const s = newService();
  const b = 'file:///work/b.adapter.yaml';
  s.declaredCodes(TextDocument.create(uri, 'yaml', 0, text));
  s.park(uri);
  s.declaredCodes(TextDocument.create(b, 'yaml', 0, text));
  s.park(b);
  assert.deepEqual(
    codes(s.validate(TextDocument.create(uri, 'yaml', 1, text))),
    codes(newService().validate(TextDocument.create(uri, 'yaml', 1, text))),
  );
});
