import test from 'node:test';
import assert from 'node:assert/strict';
import { applyFix, check, codesIn, docOf, fixture, newService, yamlDoc, fixesOf } from './helpers';
import { createWorkspaceIndex } from '../../server/src/service';

test('code.name-format on the key; fix renames the key and every use', () => {
  const f = fixture(
    yamlDoc('error_codes:', '  [[repoGone]]:', '    category: NOT_FOUND', 'error_mapping:', '  404:', '    code: repoGone'),
  );
  const { ds, texts, service } = check(f, 'code.name-format');
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
  );
  assert.deepEqual(texts, ['repoGone']);
  const fixed = applyFix(service, f.doc, ds[0]!);
  assert.equal(
    fixed,
    yamlDoc(
      'error_codes:',
      '  NOT_FOUND_REPO_GONE:',
      '    category: NOT_FOUND',
      'error_mapping:',
      '  404:',
      '    code: NOT_FOUND_REPO_GONE',
    ),
  );
  assert.ok(!codesIn(newService(), fixed).includes('code.name-format'));
});

test('code.unknown-category on the value; fix picks the closest category', () => {
  const f = fixture(yamlDoc('error_codes:', '  NOT_FOUND_USER:', '    category: [[NOT_FOND]]'));
  const { ds, texts, service } = check(f, 'code.unknown-category');
  assert.deepEqual(texts, ['NOT_FOND']);
  assert.equal(ds[0]!.severity, 1);
  const fixed = applyFix(service, f.doc, ds[0]!);
  assert.equal(fixed, yamlDoc('error_codes:', '  NOT_FOUND_USER:', '    category: NOT_FOUND'));
  assert.deepEqual(codesIn(newService(), fixed), []);
});

test('category with a trailing underscore is accepted; SCHEMA warns', () => {
  assert.deepEqual(codesIn(newService(), yamlDoc('error_codes:', '  RATE_LIMIT_X:', '    category: RATE_LIMIT_')), []);
  const f = fixture(yamlDoc('error_codes:', '  SCHEMA_X:', '    category: [[SCHEMA]]'));
  const { ds } = check(f, 'code.unknown-category');
  assert.equal(ds[0]!.severity, 2);
  assert.deepEqual(ds[0]!.range, f.spans[0]);
});

test('code.category-prefix: rename to <CATEGORY>_…, or change the category the prefix names', () => {
  const f = fixture(yamlDoc('error_codes:', '  [[GITHUB_ABUSE_DETECTED]]:', '    category: RATE_LIMIT'));
  const { ds, service } = check(f, 'code.category-prefix');
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
  );
  assert.equal(ds[0]!.severity, 2);
  assert.equal(
    applyFix(service, f.doc, ds[0]!),
    yamlDoc('error_codes:', '  RATE_LIMIT_GITHUB_ABUSE_DETECTED:', '    category: RATE_LIMIT'),
  );
  const g = fixture(yamlDoc('error_codes:', '  [[NOT_FOUND_USER]]:', '    category: VALIDATION'));
  const r = check(g, 'code.category-prefix');
  assert.equal(applyFix(r.service, g.doc, r.ds[0]!), yamlDoc('error_codes:', '  NOT_FOUND_USER:', '    category: NOT_FOUND'));
  assert.equal(
    applyFix(r.service, g.doc, r.ds[0]!, "Rename to 'VALIDATION_USER' (every use)"),
    yamlDoc('error_codes:', '  VALIDATION_USER:', '    category: VALIDATION'),
  );
});

test('code.redefines-registry warns on the key', () => {
  const f = fixture(yamlDoc('error_codes:', '  [[PERMISSION_DENIED]]:', '    category: PERMISSION'));
  const { ds } = check(f, 'code.redefines-registry');
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
  );
  assert.equal(ds[0]!.severity, 2);
});

test('a rename reaches other workspace files through the index', () => {
  const other = docOf(yamlDoc('error_mapping:', '  404:', '    code: repoGone'), 'file:///w/other.adapter.yaml');
  const index = createWorkspaceIndex();
  const s = newService(index);
  index.update(
    other.uri,
    [],
    [
      {
        uri: other.uri,
        code: 'repoGone',
        kind: 'reference',
        range: { start: { line: 2, character: 10 }, end: { line: 2, character: 18 } },
      },
    ],
  );
  const doc = docOf(yamlDoc('error_codes:', '  repoGone:', '    category: NOT_FOUND'));
  const d = s.validate(doc, {}).find(x => x.code === 'code.name-format')!;
  const [a] = fixesOf(s, doc, d.range, { diagnostics: [d] }, {});
  assert.deepEqual(Object.keys(a!.edit!.changes!).sort(), [doc.uri, other.uri].sort());
  assert.equal(a!.edit!.changes![other.uri]![0]!.newText, 'NOT_FOUND_REPO_GONE');
});
