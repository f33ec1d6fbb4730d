/**
 * The README promises a closest-key fix for schema.unknown-key and a closest-root
 * fix for condition.unknown-root; on examples/broken/broken-adapter.md both showed "No code actions
 * available" (their suggestion lists were empty: `request` is 5 edits from any root, and a key is
 * compared with whole allowed keys only). Tested on the example's own lines.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyEdits, docOf, editsOf, fixture, newService, ROOT, yamlDoc, fixesOf } from './helpers';

const text = readFileSync(join(ROOT, 'examples', 'broken', 'broken-adapter.md'), 'utf8');
const doc = docOf(text, 'file:///w/examples/broken/broken-adapter.md');

function fixesOn(code: string, line: number) {
  const s = newService();
  const ds = s.validate(doc).filter(d => d.code === code);
  assert.equal(ds.length, 1, code);
  const d = ds[0]!;
  assert.equal(d.range.start.line, line - 1);
  return { d, actions: fixesOf(s, doc, d.range, { diagnostics: [d] }), s };
}

test('broken example line 54: `request.body.provider` gets the fix to `response` (the path reads a response part)', () => {
  const { d, actions } = fixesOn('condition.unknown-root', 54);
  assert.deepEqual(d.range, { start: { line: 53, character: 16 }, end: { line: 53, character: 23 } });
  assert.match(String(d.message), /Did you mean response\.body\?/);
  assert.deepEqual(
    actions.map(a => [a.title, !!a.isPreferred]),
    [["Change to 'response'", true]],
  );
  const after = applyEdits(doc, editsOf(actions[0]!, doc.uri));
  assert.equal(after.split('\n')[53], `    condition: "response.body.provider == 'acme'" # condition.unknown-root`);
  assert.ok(
    !newService()
      .validate(docOf(after, doc.uri))
      .some(x => x.code === 'condition.unknown-root'),
  );
});

test('broken example line 55: `descripton` gets the closest key `description`, and removing the key', () => {
  const { d, actions } = fixesOn('schema.unknown-key', 55);
  assert.deepEqual(d.range, { start: { line: 54, character: 4 }, end: { line: 54, character: 14 } });
  assert.deepEqual(
    actions.map(a => [a.title, !!a.isPreferred]),
    [
      ["Change to 'description'", true],
      ["Remove key 'descripton'", false],
    ],
  );
  const renamed = applyEdits(doc, editsOf(actions[0]!, doc.uri)).split('\n');
  assert.equal(renamed[54], '    description: "Card processor outage"          # schema.unknown-key');
  const removed = applyEdits(doc, editsOf(actions[1]!, doc.uri)).split('\n');
  assert.equal(removed[54], '  VALIDATION_NO_CATEGORY:                        # schema.required (category)');
});

test('a key compared with the leading words of an allowed key: `mesage` → message_template, unless the entry has it', () => {
  const f = fixture(yamlDoc('error_codes:', '  VALIDATION_X:', '    category: VALIDATION', '    [[mesage]]: "x"'));
  const s = newService();
  const d = s.validate(f.doc).find(x => x.code === 'schema.unknown-key')!;
  assert.deepEqual(d.range, f.spans[0]);
  const a = fixesOf(s, f.doc, d.range, { diagnostics: [d] });
  assert.deepEqual(
    a.map(x => [x.title, !!x.isPreferred]),
    [
      ["Change to 'message_template'", true],
      ["Remove key 'mesage'", false],
    ],
  );
  assert.equal(
    applyEdits(f.doc, editsOf(a[0]!, f.doc.uri)),
    yamlDoc('error_codes:', '  VALIDATION_X:', '    category: VALIDATION', '    message_template: "x"'),
  );
  // The entry already has message_template: renaming would duplicate it, so only the removal is offered.
  const g = fixture(
    yamlDoc('error_codes:', '  VALIDATION_X:', '    category: VALIDATION', '    message_template: "y"', '    [[mesage]]: "x"'),
  );
  const e = s.validate(g.doc).find(x => x.code === 'schema.unknown-key')!;
  assert.doesNotMatch(String(e.message), /Did you mean/);
  assert.deepEqual(
    fixesOf(s, g.doc, e.range, { diagnostics: [e] }).map(x => x.title),
    ["Remove key 'mesage'"],
  );
});

test('closest root: `respnse.headers.x` → response; `param.id` → params; an unrelated root gets no rename', () => {
  const s = newService();
  const one = (cond: string) => {
    const f = fixture(yamlDoc('error_mapping:', '  403:', `    condition: "${cond}"`, '    code: PERMISSION_DENIED'));
    const d = s.validate(f.doc).find(x => x.code === 'condition.unknown-root')!;
    assert.deepEqual(d.range, f.spans[0], cond);
    return fixesOf(s, f.doc, d.range, { diagnostics: [d] }).map(a => [a.title, editsOf(a, f.doc.uri)[0]!.newText]);
  };
  assert.deepEqual(one("[[respnse]].headers.x == 'y'"), [["Change to 'response'", 'response']]);
  assert.deepEqual(one('[[param]].id == 1'), [["Change to 'params'", 'params']]);
  assert.deepEqual(one('[[zzz]] == 1'), []);
});
