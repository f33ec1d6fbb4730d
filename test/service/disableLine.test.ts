/**
 * "Disable mcp-aql(<code>) for this line", as ESLint offers: a comment line above the
 * diagnostic's line, with its indentation and line ending; added to an existing directive there; not in
 * JSON (no comments) nor inside a multi-line string; never preferred, never in Fix all.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { applyEdits, docOf, editsOf, newService } from './helpers';

const TITLE = 'Disable mcp-aql(template.unknown-placeholder) for this line';

function disable(text: string, uri: string) {
  const s = newService();
  const doc = docOf(text, uri);
  const d = s.validate(doc).find(x => x.code === 'template.unknown-placeholder')!;
  assert.ok(d, 'the diagnostic');
  const a = s.quickFixes(doc, d.range, { diagnostics: [d] }).find(x => x.title === TITLE);
  return { s, doc, a };
}

const YAML = 'error_codes:\n  NOT_FOUND_X:\n    category: NOT_FOUND\n    message_template: "X \'{y}\' is gone"\n';

for (const [form, uri, wrap] of [
  ['yaml', 'file:///w/x.adapter.yaml', (t: string) => t],
  ['markdown', 'file:///w/x-adapter.md', (t: string) => `---\n${t}---\n\n# X\n`],
] as const) {
  test(`${form}: the action inserts the directive above the line, indented; the diagnostic is gone and nothing else moves`, () => {
    const text = wrap(YAML);
    const { s, doc, a } = disable(text, uri);
    assert.ok(a && !a.isPreferred);
    const fixed = applyEdits(doc, editsOf(a, uri));
    assert.equal(
      fixed,
      text.replace('    message_template', '    # mcp-aql-disable-next-line template.unknown-placeholder\n    message_template'),
    );
    assert.deepEqual(newService().validate(docOf(fixed, uri)), []);
    assert.deepEqual(s.fixAll(doc), [], 'not in Fix all');
  });
}

test('CRLF text gets a CRLF line; an existing directive above gets the code added (before its -- reason)', () => {
  const crlf = YAML.replace(/\n/g, '\r\n');
  const { doc, a } = disable(crlf, 'file:///w/c.adapter.yaml');
  assert.equal(
    applyEdits(doc, editsOf(a!, doc.uri)),
    crlf.replace('    message_template', '    # mcp-aql-disable-next-line template.unknown-placeholder\r\n    message_template'),
  );
  const withDirective = YAML.replace(
    '    message_template',
    '    # mcp-aql-disable-next-line template.unquoted-placeholder -- legacy text\n    message_template',
  );
  const r = disable(withDirective, 'file:///w/d.adapter.yaml');
  assert.equal(
    applyEdits(r.doc, editsOf(r.a!, r.doc.uri)),
    withDirective.replace('unquoted-placeholder -- legacy', 'unquoted-placeholder template.unknown-placeholder -- legacy'),
  );
});

test('no action in JSON, nor on a line inside a block scalar (a comment there would be text)', () => {
  const json = '{\n  "error_codes": {\n    "NOT_FOUND_X": { "category": "NOT_FOUND", "message_template": "X \'{y}\' is gone" }\n  }\n}\n';
  assert.equal(disable(json, 'file:///w/x.adapter.json').a, undefined);
  const block = "error_codes:\n  NOT_FOUND_X:\n    category: NOT_FOUND\n    message_template: |\n      X is gone\n      and '{y}' too\n";
  assert.equal(disable(block, 'file:///w/b.adapter.yaml').a, undefined);
});
