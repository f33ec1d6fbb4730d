/**
 * A syntax error stays inside its entry: one tab-indented line gives one
 * `yaml.syntax` on the tab, and every other entry is still read and checked, in the chunked parse
 * (every YAML region) as in the whole parse (the fallback), with anchors too.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { buildModel } from '../../server/src/service/parse/buildModel';
import { fixture, newService, ROOT, yamlDoc } from './helpers';

const tabbed = fixture(
  yamlDoc(
    'error_codes:',
    '  VALIDATION_A:',
    '    category: VALIDATION',
    '[[\t]]message_template: "Field invalid"',
    '    details: {}',
    '  VALIDATION_B:',
    '    category: [[BOGUS]]',
    '    message_template: "Other"',
    'error_mapping:',
    '  400:',
    '    code: VALIDATION_B',
  ),
);

test('one tab-indented line: one yaml.syntax on the tab; later entries kept and checked', () => {
  for (const chunkThreshold of [0, Infinity]) {
    const all = newService().validate(tabbed.doc, { chunkThreshold });
    assert.deepEqual(
      all.map(d => [String(d.code), d.range]),
      [
        ['yaml.syntax', tabbed.spans[0]],
        ['code.unknown-category', tabbed.spans[1]],
      ],
      `chunkThreshold ${chunkThreshold}`,
    );
    assert.match(String(all[0]!.message), /Tabs are not allowed as indentation/);
  }
  // The tab-indented line itself is read with its neighbours' indentation: its template is kept.
  const m = buildModel(tabbed.doc.uri, tabbed.doc.getText(), [], { chunkThreshold: 0 })!;
  assert.deepEqual(
    m.codes.map(c => [c.name, c.template?.value]),
    [
      ['VALIDATION_A', 'Field invalid'],
      ['VALIDATION_B', 'Other'],
    ],
  );
  const t = m.codes[0]!.template!;
  assert.equal(tabbed.doc.getText().slice(t.span.start, t.span.end), '"Field invalid"');
});

test('a tab after a line that opens a block reads as a child; spaces then a tab too', () => {
  const f = fixture(
    yamlDoc(
      'error_codes:',
      '  VALIDATION_A:',
      '    category: VALIDATION',
      `    message_template: "Field '{field}' bad ('{why}')"`,
      '    details:',
      '[[\t]]field: string',
      '    [[\t]]why: string',
    ),
  );
  for (const chunkThreshold of [0, Infinity]) {
    const all = newService().validate(f.doc, { chunkThreshold });
    assert.deepEqual(
      all.map(d => [String(d.code), d.range]),
      [
        ['yaml.syntax', f.spans[0]],
        ['yaml.syntax', f.spans[1]],
      ],
      `chunkThreshold ${chunkThreshold}`,
    );
  }
});

test('a tab-indented line inside a flow mapping: one error on the tab, the mapping still read', () => {
  const f = fixture(
    yamlDoc(
      'error_codes:',
      '  VALIDATION_A:',
      '    category: VALIDATION',
      `    message_template: "Field '{field}'"`,
      '    details: {',
      '[[\t]]field: string }',
    ),
  );
  for (const chunkThreshold of [0, Infinity]) {
    assert.deepEqual(
      newService()
        .validate(f.doc, { chunkThreshold })
        .map(d => [String(d.code), d.range]),
      [['yaml.syntax', f.spans[0]]],
    );
  }
});

test('with anchors in the file, a broken entry still stays inside its entry', () => {
  const f = fixture(
    yamlDoc(
      'error_codes:',
      '  VALIDATION_A:',
      '    category: VALIDATION',
      `    message_template: "Field '{field}'"`,
      '    details: &d',
      '      field: string',
      '  VALIDATION_B:',
      '    category: VALIDATION',
      `    message_template: "Field '{field}'`,
      '    details: *d',
      '  VALIDATION_C:',
      '    category: [[BOGUS]]',
      `    message_template: "Field '{field}'"`,
      '    details: *d',
    ),
  );
  const all = newService().validate(f.doc);
  const codes = all.map(d => String(d.code));
  assert.ok(codes.includes('yaml.syntax'));
  for (const d of all.filter(x => x.code === 'yaml.syntax'))
    assert.ok(d.range.start.line >= 8 && d.range.end.line <= 10, `syntax error at line ${d.range.start.line} left VALIDATION_B`);
  assert.deepEqual(
    all.filter(d => d.code === 'code.unknown-category').map(d => d.range),
    [f.spans[0]],
  );
  // The unclosed quote swallows VALIDATION_B's `details: *d`: that is its one problem, and what the parser
  // salvaged of the template is not checked; VALIDATION_C still sees the aliased details.
  assert.deepEqual(
    all.filter(d => d.code === 'template.unknown-placeholder').map(d => d.range.start.line),
    [],
  );
});

test('a copy of a real adapter with one tab inserted: one yaml.syntax on the tab, every other entry kept', () => {
  const uri = 'file:///w/github-adapter.md';
  const clean = readFileSync(join(ROOT, 'test', 'fixtures', 'github-adapter.md'), 'utf8');
  const at = clean.indexOf('    message_template: "Repository \'{owner}/{repo}\' not found"');
  const text = clean.slice(0, at) + '\t' + clean.slice(at + 4);
  const before = newService().validate(TextDocument.create(uri, 'markdown', 1, clean));
  for (const chunkThreshold of [0, Infinity]) {
    const after = newService().validate(TextDocument.create(uri, 'markdown', 1, text), { chunkThreshold });
    const doc = TextDocument.create(uri, 'markdown', 1, text);
    const syntax = after.filter(d => d.code === 'yaml.syntax');
    assert.deepEqual(
      syntax.map(d => [doc.offsetAt(d.range.start), doc.offsetAt(d.range.end)]),
      [[at, at + 1]],
    );
    // Everything else is what the clean file gives, three columns to the left on that one line.
    const rest = after
      .filter(d => d.code !== 'yaml.syntax')
      .map(d => [String(d.code), doc.offsetAt(d.range.start) >= at ? doc.offsetAt(d.range.start) + 3 : doc.offsetAt(d.range.start)]);
    const cleanDoc = TextDocument.create(uri, 'markdown', 1, clean);
    assert.deepEqual(
      rest,
      before.map(d => [String(d.code), cleanDoc.offsetAt(d.range.start)]),
      `chunkThreshold ${chunkThreshold}`,
    );
  }
});
