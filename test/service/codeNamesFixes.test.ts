/**
 * Quick fixes of code.*: exact edits (text under the range → new text), whole fixed text, re-check.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { applyEdits, check, codesIn, docOf, editsOf, fixture, newService, yamlDoc, type Fixture, fixesOf } from './helpers';
import { createWorkspaceIndex } from '../../server/src/service';

function actionsFor(f: Fixture, code: string) {
  const { ds, service } = check(f, code);
  assert.equal(ds.length, 1, `${code} in:\n${f.doc.getText()}`);
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
  );
  return fixesOf(service, f.doc, ds[0]!.range, { diagnostics: [ds[0]!] });
}
const shown = (f: Fixture, a: ReturnType<typeof actionsFor>[number]) => editsOf(a, f.doc.uri).map(e => [f.doc.getText(e.range), e.newText]);

test('name-format: rename reaches the key and every code: value, plain and quoted, single and list entries', () => {
  const f = fixture(
    yamlDoc(
      'error_codes:',
      '  [[repo-gone]]:',
      '    category: NOT_FOUND',
      'error_mapping:',
      '  404:',
      '    code: repo-gone',
      '  410:',
      "    code: 'repo-gone'",
      '  403:',
      '    - condition: "response.status == 403"',
      '      code: "repo-gone"',
      '    - code: PERMISSION_DENIED',
      '  500:',
      '    code: INTERNAL_ERROR',
    ),
  );
  const [a, ...rest] = actionsFor(f, 'code.name-format');
  assert.equal(rest.length, 0);
  assert.equal(a!.title, "Rename to 'NOT_FOUND_REPO_GONE' (every use)");
  assert.ok(a!.isPreferred);
  assert.deepEqual(shown(f, a!), [
    ['repo-gone', 'NOT_FOUND_REPO_GONE'],
    ['repo-gone', 'NOT_FOUND_REPO_GONE'],
    ['repo-gone', 'NOT_FOUND_REPO_GONE'],
    ['repo-gone', 'NOT_FOUND_REPO_GONE'],
  ]);
  const fixed = applyEdits(f.doc, editsOf(a!, f.doc.uri));
  assert.equal(
    fixed,
    yamlDoc(
      'error_codes:',
      '  NOT_FOUND_REPO_GONE:',
      '    category: NOT_FOUND',
      'error_mapping:',
      '  404:',
      '    code: NOT_FOUND_REPO_GONE',
      '  410:',
      "    code: 'NOT_FOUND_REPO_GONE'",
      '  403:',
      '    - condition: "response.status == 403"',
      '      code: "NOT_FOUND_REPO_GONE"',
      '    - code: PERMISSION_DENIED',
      '  500:',
      '    code: INTERNAL_ERROR',
    ),
  );
  const after = codesIn(newService(), fixed);
  assert.ok(!after.includes('code.name-format') && !after.includes('mapping.unknown-code'), after.join());
});

test('name-format: camelCase and digits convert to UPPER_SNAKE', () => {
  for (const [name, want] of [
    ['repoGone', 'NOT_FOUND_REPO_GONE'],
    ['notFound2fa', 'NOT_FOUND2FA'],
    ['Not found', 'NOT_FOUND'],
  ] as const) {
    const f = fixture(yamlDoc('error_codes:', `  [[${name}]]:`, '    category: NOT_FOUND'));
    const [a] = actionsFor(f, 'code.name-format');
    const fixed = applyEdits(f.doc, editsOf(a!, f.doc.uri));
    assert.ok(!codesIn(newService(), fixed).includes('code.name-format'), fixed);
    assert.match(fixed, /^error_codes:\n {2}[A-Z][A-Z0-9_]*:\n/);
    if (name !== 'notFound2fa') assert.equal(fixed, yamlDoc('error_codes:', `  ${want}:`, '    category: NOT_FOUND'));
  }
});

test('name-format: no rename onto a name the file already declares (it would merge two codes)', () => {
  const f = fixture(
    yamlDoc('error_codes:', '  [[repoGone]]:', '    category: NOT_FOUND', '  NOT_FOUND_REPO_GONE:', '    category: NOT_FOUND'),
  );
  assert.deepEqual(actionsFor(f, 'code.name-format'), []);
});

test('name-format: the rename is one WorkspaceEdit with changes for each file that uses the code', () => {
  const index = createWorkspaceIndex();
  const a = 'file:///w/a.adapter.yaml',
    b = 'file:///w/b.adapter.yaml';
  const ref = (line: number) => ({ start: { line, character: 10 }, end: { line, character: 18 } });
  index.update(a, [], [{ uri: a, code: 'repoGone', kind: 'reference', range: ref(2) }]);
  index.update(
    b,
    [],
    [
      { uri: b, code: 'repoGone', kind: 'reference', range: ref(2) },
      { uri: b, code: 'repoGone', kind: 'reference', range: ref(5) },
    ],
  );
  const doc = docOf(yamlDoc('error_codes:', '  repoGone:', '    category: NOT_FOUND'));
  const s = newService(index);
  const d = s.validate(doc, {}).find(x => x.code === 'code.name-format')!;
  const [fixAction] = fixesOf(s, doc, d.range, { diagnostics: [d] }, {});
  const changes = fixAction!.edit!.changes!;
  assert.deepEqual(Object.keys(changes).sort(), [a, b, doc.uri].sort());
  assert.deepEqual(
    changes[b]!.map(e => [e.range, e.newText]),
    [
      [ref(2), 'NOT_FOUND_REPO_GONE'],
      [ref(5), 'NOT_FOUND_REPO_GONE'],
    ],
  );
  assert.deepEqual(
    changes[a]!.map(e => [e.range, e.newText]),
    [[ref(2), 'NOT_FOUND_REPO_GONE']],
  );
  assert.equal(applyEdits(doc, changes[doc.uri]!), yamlDoc('error_codes:', '  NOT_FOUND_REPO_GONE:', '    category: NOT_FOUND'));
});

test('unknown-category: one fix per close category, the closest preferred; quoted values lose their quotes', () => {
  const f = fixture(yamlDoc('error_codes:', '  NOT_FOUND_USER:', '    category: [[NOT_FOND]]'));
  const actions = actionsFor(f, 'code.unknown-category');
  assert.equal(actions[0]!.title, 'Change category to NOT_FOUND');
  assert.deepEqual(
    actions.filter(x => x.isPreferred).map(x => x.title),
    ['Change category to NOT_FOUND'],
  );
  assert.deepEqual(shown(f, actions[0]!), [['NOT_FOND', 'NOT_FOUND']]);
  const q = fixture(yamlDoc('error_codes:', '  RATE_LIMIT_X:', '    category: [["RATE_LIMT"]]'));
  const [qa] = actionsFor(q, 'code.unknown-category');
  assert.deepEqual(shown(q, qa!), [['"RATE_LIMT"', 'RATE_LIMIT']]);
  const fixed = applyEdits(q.doc, editsOf(qa!, q.doc.uri));
  assert.equal(fixed, yamlDoc('error_codes:', '  RATE_LIMIT_X:', '    category: RATE_LIMIT'));
  assert.deepEqual(codesIn(newService(), fixed), []);
});

test('unknown-category: a value far from every category gets the diagnostic and no fix; SCHEMA gets no fix', () => {
  const f = fixture(yamlDoc('error_codes:', '  X_Y:', '    category: [[WHATEVER_ELSE_ENTIRELY]]'));
  const { ds } = check(f, 'code.unknown-category');
  assert.equal(ds[0]!.severity, 1);
  const s = fixture(yamlDoc('error_codes:', '  SCHEMA_X:', '    category: [[SCHEMA_]]'));
  assert.deepEqual(actionsFor(s, 'code.unknown-category'), []);
  assert.match(String(check(s, 'code.unknown-category').ds[0]!.message), /generator/);
});

test('category-prefix: rename to <CATEGORY>_REST renames every use; change-category when the prefix names one', () => {
  const f = fixture(
    yamlDoc('error_codes:', '  [[NOT_FOUND_USER]]:', '    category: VALIDATION', 'error_mapping:', '  404:', '    code: NOT_FOUND_USER'),
  );
  const actions = actionsFor(f, 'code.category-prefix');
  assert.deepEqual(
    actions.map(a => [a.title, !!a.isPreferred]),
    [
      ["Rename to 'VALIDATION_USER' (every use)", false],
      ['Change category to NOT_FOUND', true],
    ],
  );
  assert.deepEqual(shown(f, actions[0]!), [
    ['NOT_FOUND_USER', 'VALIDATION_USER'],
    ['NOT_FOUND_USER', 'VALIDATION_USER'],
  ]);
  assert.deepEqual(shown(f, actions[1]!), [['VALIDATION', 'NOT_FOUND']]);
  for (const a of actions) {
    const fixed = applyEdits(f.doc, editsOf(a, f.doc.uri));
    const after = codesIn(newService(), fixed);
    assert.ok(!after.includes('code.category-prefix') && !after.includes('mapping.unknown-code'), `${a.title}: ${after.join()}`);
  }
});

test('category-prefix: no prefix category → only the rename, preferred; CONFIRMATION_REQUIRED is exempt', () => {
  const f = fixture(yamlDoc('error_codes:', '  [[GITHUB_ABUSE_DETECTED]]:', '    category: RATE_LIMIT_'));
  const actions = actionsFor(f, 'code.category-prefix');
  assert.deepEqual(
    actions.map(a => [a.title, !!a.isPreferred]),
    [["Rename to 'RATE_LIMIT_GITHUB_ABUSE_DETECTED' (every use)", true]],
  );
  assert.deepEqual(
    check(fixture(yamlDoc('error_codes:', '  CONFIRMATION_REQUIRED:', '    category: PERMISSION')), 'code.category-prefix').ds,
    [],
  );
  const taken = fixture(
    yamlDoc('error_codes:', '  [[ABUSE]]:', '    category: RATE_LIMIT', '  RATE_LIMIT_ABUSE:', '    category: RATE_LIMIT'),
  );
  assert.deepEqual(actionsFor(taken, 'code.category-prefix'), []);
});

test('redefines-registry has no fix', () => {
  const f = fixture(yamlDoc('error_codes:', '  [[NOT_FOUND_RESOURCE]]:', '    category: NOT_FOUND'));
  assert.deepEqual(actionsFor(f, 'code.redefines-registry'), []);
});
