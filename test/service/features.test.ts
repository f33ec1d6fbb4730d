import test from 'node:test';
import assert from 'node:assert/strict';
import { createWorkspaceIndex } from '../../server/src/service';
import { applyEdits, docOf, editsOf, fixture, newService, yamlDoc } from './helpers';

const adapter = (cursorLine: string, ...rest: string[]) =>
  yamlDoc(
    'operations:',
    '  read:',
    '    - name: get_repo',
    '      maps_to: "GET /repos/{owner}/{repo}"',
    'error_codes:',
    '  NOT_FOUND_REPOSITORY:',
    '    category: NOT_FOUND',
    '    message_template: "Repository \'{owner}/{repo}\' not found"',
    '    details: { owner: string, repo: string }',
    'error_mapping:',
    '  404:',
    cursorLine,
    ...rest,
  );

test('completion after code: offers registry and custom codes, replacing the typed prefix', () => {
  const f = fixture(adapter('    code: NOT_F|'), { cursor: true });
  const items = newService().complete(f.doc, f.cursor!);
  const labels = items.map(i => i.label);
  assert.ok(labels.includes('NOT_FOUND_RESOURCE') && labels.includes('NOT_FOUND_REPOSITORY'));
  assert.ok(!labels.includes('RATE_LIMIT_QUOTA_WARNING'), 'warning codes are not offered');
  const item = items.find(i => i.label === 'NOT_FOUND_RESOURCE')!;
  assert.equal(applyEdits(f.doc, [item.textEdit as never]), adapter('    code: NOT_FOUND_RESOURCE'));
  assert.match(JSON.stringify(item.documentation), /NOT_FOUND/);
  assert.ok(items.find(i => i.label === 'NOT_FOUND_REPOSITORY')!.sortText! < item.sortText!);
});

test('completion of categories, details keys inside {, entry keys, statuses and condition roots', () => {
  const s = newService();
  const cat = fixture(yamlDoc('error_codes:', '  X_Y:', '    category: RA|'), { cursor: true });
  assert.ok(s.complete(cat.doc, cat.cursor!).some(i => i.label === 'RATE_LIMIT'));
  const ph = fixture(
    yamlDoc(
      'error_codes:',
      '  NOT_FOUND_REPO:',
      '    category: NOT_FOUND',
      '    message_template: "Repository \'{ow|\' gone"',
      '    details: { owner: string, repo: string }',
    ),
    { cursor: true },
  );
  const phItems = s.complete(ph.doc, ph.cursor!);
  assert.deepEqual(phItems.map(i => i.label).sort(), ['owner', 'repo']);
  assert.ok(applyEdits(ph.doc, [phItems.find(i => i.label === 'owner')!.textEdit as never]).includes("'{owner}' gone"));
  const key = fixture(yamlDoc('error_codes:', '  NOT_FOUND_REPO:', '    category: NOT_FOUND', '    mes|'), { cursor: true });
  const keyLabels = s.complete(key.doc, key.cursor!).map(i => i.label);
  assert.ok(keyLabels.includes('message_template') && !keyLabels.includes('category'));
  const st = fixture(yamlDoc('error_mapping:', '  404:', '    code: NOT_FOUND_RESOURCE', '  4|'), { cursor: true });
  const stItems = s.complete(st.doc, st.cursor!);
  assert.ok(stItems.some(i => i.label === '403' && i.detail === 'Forbidden'));
  assert.ok(!stItems.some(i => i.label === '404'));
  const cond = fixture(yamlDoc('error_mapping:', '  403:', '    - condition: "resp|"', '      code: PERMISSION_DENIED'), { cursor: true });
  assert.ok(s.complete(cond.doc, cond.cursor!).some(i => i.label === 'response.body.'));
});

test('hover on a registry code, a custom code, a placeholder and a status', () => {
  const s = newService();
  const f = fixture(adapter('    code: NOT_FOUND_RE|SOURCE'), { cursor: true });
  const h = s.hover(f.doc, f.cursor!)!;
  assert.match(JSON.stringify(h.contents), /NOT_FOUND.*stop, or choose another target/);
  assert.equal(f.doc.getText(h.range!), 'NOT_FOUND_RESOURCE');
  const g = fixture(adapter('    code: NOT_FOUND_REPOSITORY', '    message_template: "Repo \'{ow|ner}\'"'), { cursor: true });
  assert.match(JSON.stringify(s.hover(g.doc, g.cursor!)!.contents), /details key of type `string`/);
  const k = fixture(adapter('    code: NOT_FOUND_REPOSITORY').replace('  404:', '  40|4:'), { cursor: true });
  assert.match(JSON.stringify(s.hover(k.doc, k.cursor!)!.contents), /404 Not Found.*NOT_FOUND_RESOURCE/);
});

test('definition, references and rename of a custom code across files', () => {
  const index = createWorkspaceIndex();
  const s = newService(index);
  const a = docOf(adapter('    code: NOT_FOUND_REPOSITORY'), 'file:///w/a.adapter.yaml');
  const b = docOf(yamlDoc('error_mapping:', '  410:', '    code: NOT_FOUND_REPOSITORY'), 'file:///w/b.adapter.yaml');
  for (const d of [a, b]) index.update(d.uri, s.declaredCodes(d), s.codeOccurrences(d));
  const at = { line: 2, character: 12 };
  const defs = s.definition(b, at, {});
  assert.deepEqual(
    defs.map(l => [l.uri, a.getText(l.range)]),
    [[a.uri, 'NOT_FOUND_REPOSITORY']],
  );
  assert.equal(s.references(b, at, true, {}).length, 3);
  assert.equal(s.rename(b, at, 'bad name', {}), null);
  const edit = s.rename(b, at, 'NOT_FOUND_REPO', {})!;
  assert.ok(applyEdits(a, editsOf(edit, a.uri)).includes('  NOT_FOUND_REPO:\n'));
  assert.ok(applyEdits(b, editsOf(edit, b.uri)).includes('code: NOT_FOUND_REPO\n'));
  assert.equal(
    s.prepareRename(docOf(yamlDoc('error_mapping:', '  404:', '    code: NOT_FOUND_RESOURCE')), { line: 2, character: 12 }),
    null,
  );
});

test('rename a details key renames its placeholders', () => {
  const s = newService();
  const doc = docOf(adapter('    code: NOT_FOUND_REPOSITORY'));
  const edit = s.rename(doc, { line: 8, character: 16 }, 'owner_login')!;
  const out = applyEdits(doc, editsOf(edit, doc.uri));
  assert.ok(out.includes("'{owner_login}/{repo}'") && out.includes('{ owner_login: string'));
});

test('outline and CodeLens', () => {
  const s = newService();
  const doc = docOf(
    adapter(
      '    code: NOT_FOUND_REPOSITORY',
      '  403:',
      '    - condition: "response.status == 403"',
      '      code: PERMISSION_DENIED',
      '    - code: INTERNAL_ERROR',
    ),
  );
  const syms = s.documentSymbols(doc);
  assert.deepEqual(
    syms.map(x => x.name),
    ['error_codes', 'error_mapping'],
  );
  assert.deepEqual(
    syms[0]!.children!.map(c => [c.name, c.detail]),
    [['NOT_FOUND_REPOSITORY', 'NOT_FOUND']],
  );
  assert.deepEqual(
    syms[1]!.children!.map(c => c.name),
    ['404', '403'],
  );
  assert.deepEqual(
    syms[1]!.children![1]!.children!.map(c => c.name),
    ['[0] PERMISSION_DENIED', '[1] INTERNAL_ERROR'],
  );
  const lenses = s.codeLenses(doc);
  assert.equal(lenses.length, 4);
  assert.deepEqual(lenses[0]!.command!.arguments![1], { code: 'NOT_FOUND_REPOSITORY', offset: doc.offsetAt(lenses[0]!.range.start) });
});

test('code completion in a huge file is cut at 200 items by prefix and marked incomplete', () => {
  const s = newService();
  const lines = ['error_codes:'];
  for (let i = 0; i < 1000; i++) lines.push(`  VALIDATION_E${String(i).padStart(4, '0')}:`, '    category: VALIDATION');
  lines.push('error_mapping:', '  400:', '    code: VALIDATION_E00|');
  const f = fixture(lines.join('\n') + '\n', { cursor: true });
  const list = s.completeList(f.doc, f.cursor!);
  assert.equal(list.isIncomplete, false);
  assert.ok(list.items.every(i => String(i.label).startsWith('VALIDATION_E00')));
  assert.equal(list.items.length, 100);
  const g = fixture(lines.join('\n').replace('code: VALIDATION_E00|', 'code: |') + '\n', { cursor: true });
  const all = s.completeList(g.doc, g.cursor!);
  assert.equal(all.isIncomplete, true);
  assert.equal(all.items.length, 200);
  assert.ok(all.items.some(i => i.label === 'NOT_FOUND_RESOURCE'));
});
