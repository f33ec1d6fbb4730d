/** How other files' codes are seen: a registry redefinition never leaks, the code scope. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { createWorkspaceIndex, type AdapterService } from '../../server/src/service';
import { docOf, fixture, newService, yamlDoc } from './helpers';

/** A service whose workspace holds the given files (indexed through the service, as the CLI and server do). */
function workspace(files: Record<string, string>): { s: AdapterService; index: ReturnType<typeof createWorkspaceIndex> } {
  const index = createWorkspaceIndex();
  const s = newService(index);
  for (const [uri, text] of Object.entries(files)) {
    const d = docOf(text, uri);
    index.update(uri, s.declaredCodes(d), s.codeOccurrences(d));
  }
  return { s, index };
}

const REDEFINES = yamlDoc(
  'error_codes:',
  '  RATE_LIMIT_EXCEEDED:',
  '    category: RATE_LIMIT',
  "    message_template: 'Slow down on {bucket}'",
  '    details: { bucket: string }',
);

test('a file that redefines a registry code does not change how other files resolve it', () => {
  const { s } = workspace({ 'file:///w/a/redefines.adapter.yaml': REDEFINES });
  const f = fixture(
    yamlDoc(
      'error_mapping:',
      '  429:',
      '    code: RATE_LIMIT_EXCEEDED',
      "    message_template: 'Wait {retry_after_seconds}s, not [[{bucket}]]'",
    ),
    { uri: 'file:///w/b/uses.adapter.yaml' },
  );
  const ds = s.validate(f.doc).filter(d => d.code === 'template.unknown-placeholder');
  assert.deepEqual(
    ds.map(d => d.range),
    [f.spans[0]],
  );
  assert.match(String(ds[0]!.message), /retry_after_seconds/);
  const hover = s.hover(f.doc, { line: 2, character: 14 });
  assert.match(JSON.stringify(hover), /registry/);
  assert.doesNotMatch(JSON.stringify(hover), /Slow down/);
  // The redefining file itself still uses its own definition.
  const own = docOf(
    REDEFINES + yamlDoc('error_mapping:', '  429:', '    code: RATE_LIMIT_EXCEEDED', "    message_template: 'On {bucket}'"),
    'file:///w/a/redefines.adapter.yaml',
  );
  assert.deepEqual(
    s.validate(own).filter(d => d.code === 'template.unknown-placeholder'),
    [],
  );
});

const CODES = yamlDoc(
  'error_codes:',
  '  NOT_FOUND_WIDGET:',
  '    category: NOT_FOUND',
  "    message_template: 'No widget {id}'",
  '    details: { id: string }',
);
const USES = yamlDoc('error_mapping:', '  404:', '    code: [[NOT_FOUND_WIDGET]]');

test('code scope workspace (default): a code of any file is known, and completion and hover name that file', () => {
  const { s } = workspace({ 'file:///w/lib/codes.adapter.yaml': CODES });
  const f = fixture(USES, { uri: 'file:///w/app/uses.adapter.yaml' });
  assert.deepEqual(
    s.validate(f.doc).map(d => d.code),
    [],
  );
  assert.deepEqual(
    s.validate(f.doc, { codeScope: 'workspace' }).map(d => d.code),
    [],
  );
  const item = s.complete(f.doc, { line: 2, character: 10 }).find(i => i.label === 'NOT_FOUND_WIDGET');
  assert.equal(item?.detail, 'NOT_FOUND · custom (codes.adapter.yaml)');
  assert.match(JSON.stringify(s.hover(f.doc, { line: 2, character: 12 })), /custom code \(codes\.adapter\.yaml\)/);
});

test('code scope folder: only files of the same directory; the diagnostic says where the code is declared', () => {
  const { s } = workspace({
    'file:///w/lib/codes.adapter.yaml': CODES,
    'file:///w/app/more.adapter.yaml': yamlDoc('error_codes:', '  NOT_FOUND_GADGET:', '    category: NOT_FOUND'),
  });
  const f = fixture(USES, { uri: 'file:///w/app/uses.adapter.yaml' });
  const ds = s.validate(f.doc, { codeScope: 'folder' });
  assert.deepEqual(
    ds.map(d => [d.code, d.range]),
    [['mapping.unknown-code', f.spans[0]]],
  );
  assert.equal(
    ds[0]!.message,
    "'NOT_FOUND_WIDGET' is declared in codes.adapter.yaml, outside this file's code scope (mcpAql.codeScope); declare it here or widen the scope.",
  );
  const sibling = fixture(yamlDoc('error_mapping:', '  404:', '    code: NOT_FOUND_GADGET'), { uri: 'file:///w/app/uses.adapter.yaml' });
  assert.deepEqual(
    s.validate(sibling.doc, { codeScope: 'folder' }).map(d => d.code),
    [],
  );
  const labels = s.complete(f.doc, { line: 2, character: 10 }, { codeScope: 'folder' }).map(i => i.label);
  assert.ok(labels.includes('NOT_FOUND_GADGET') && !labels.includes('NOT_FOUND_WIDGET'));
});

test('code scope file: no other file counts, not even in the same directory', () => {
  const { s } = workspace({ 'file:///w/app/codes.adapter.yaml': CODES });
  const f = fixture(USES, { uri: 'file:///w/app/uses.adapter.yaml' });
  assert.deepEqual(
    s.validate(f.doc, { codeScope: 'file' }).map(d => [d.code, d.range]),
    [['mapping.unknown-code', f.spans[0]]],
  );
  assert.deepEqual(s.definition(f.doc, { line: 2, character: 12 }, { codeScope: 'file' }), []);
  assert.equal(s.definition(f.doc, { line: 2, character: 12 }).length, 1);
});

test('a template of a mapping entry whose code comes from another file names that file when a key is missing', () => {
  const { s } = workspace({ 'file:///w/lib/codes.adapter.yaml': CODES });
  const f = fixture(yamlDoc('error_mapping:', '  404:', '    code: NOT_FOUND_WIDGET', "    message_template: 'No [[{name}]]'"), {
    uri: 'file:///w/app/uses.adapter.yaml',
  });
  const ds = s.validate(f.doc).filter(d => d.code === 'template.unknown-placeholder');
  assert.deepEqual(
    ds.map(d => d.range),
    [f.spans[0]],
  );
  assert.equal(
    ds[0]!.message,
    '{name} is not a details key of this error (details: id — NOT_FOUND_WIDGET is declared in codes.adapter.yaml); it would render literally.',
  );
});

test('the index files names by prefix and forgets a name when its last declaring file goes', () => {
  const index = createWorkspaceIndex();
  const r = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const decl = (uri: string, code: string) => ({ uri, code, range: r, details: [], mapsFromHttp: [] });
  index.update('file:///a.adapter.yaml', [decl('file:///a.adapter.yaml', 'NOT_FOUND_A'), decl('file:///a.adapter.yaml', 'CONFLICT_X')], []);
  index.update(
    'file:///b.adapter.yaml',
    [decl('file:///b.adapter.yaml', 'NOT_FOUND_A'), decl('file:///b.adapter.yaml', 'NOT_FOUND_B')],
    [{ uri: 'file:///b.adapter.yaml', code: 'PERMISSION_DENIED', range: r, kind: 'reference' }],
  );
  assert.deepEqual([...index.names!(undefined, 'not_f')].sort(), ['NOT_FOUND_A', 'NOT_FOUND_B']);
  assert.deepEqual([...index.names!('file:///b.adapter.yaml', 'NOT')].sort(), ['NOT_FOUND_A']);
  assert.deepEqual(
    [...index.names!(undefined, 'NO')].sort(),
    ['CONFLICT_X', 'NOT_FOUND_A', 'NOT_FOUND_B'].filter(n => n.startsWith('NO')),
  );
  assert.deepEqual(index.referencedIn('file:///b.adapter.yaml'), ['PERMISSION_DENIED']);
  index.remove('file:///b.adapter.yaml');
  assert.deepEqual([...index.names!(undefined, 'NOT')], ['NOT_FOUND_A']);
  assert.deepEqual(index.declarations('NOT_FOUND_B'), []);
  assert.deepEqual(
    index.declarations('NOT_FOUND_A').map(d => d.uri),
    ['file:///a.adapter.yaml'],
  );
});
