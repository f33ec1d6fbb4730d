/**
 * The shared index pass (node/workspacePass.ts) takes the service's fast index scan: the index it
 * builds equals one built from the full models, it builds no model for a scanned file (so nothing
 * stale can be reused when the editor opens it), and only large files still go through a parked model.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { fileText, pathOf } from '../../bench/genWorkspace';
import { createAdapterService, createWorkspaceIndex, type AdapterService, type ServiceOptions } from '../../server/src/service';
import { indexFiles, indexText, MODEL_INDEX_SIZE } from '../../server/src/node/workspacePass';
import { loadDeps } from '../service/helpers';

const N = 40;
const files = new Map<string, string>(Array.from({ length: N }, (_, i) => [`file:///ws/${pathOf(i)}`, fileText(i, N, i === 20)] as const));
files.set(
  'file:///ws/alias.adapter.yaml',
  'error_codes:\n  A_CODE: &a\n    category: VALIDATION\n  B_CODE: *a\nerror_mapping:\n  400:\n    code: B_CODE\n',
);
files.set('file:///ws/notes.yaml', 'just: notes\n');
files.set('file:///ws/ignored.adapter.yaml', 'error_codes:\n  IGNORED_CODE: {}\n');
const opts = (uri: string): ServiceOptions => (uri.includes('ignored') ? { ignored: true } : {});

/** The service, with every indexEntries call's `model` option recorded. */
function spied(): { service: AdapterService; calls: { uri: string; model: boolean }[] } {
  const calls: { uri: string; model: boolean }[] = [];
  const service = createAdapterService({ ...loadDeps() });
  const indexEntries: AdapterService['indexEntries'] = (doc, o, x) => {
    calls.push({ uri: doc.uri, model: !!x?.model });
    return service.indexEntries(doc, o, x);
  };
  return { service: { ...service, indexEntries }, calls };
}

test('the index pass equals an index of the full models: declarations, occurrences, signatures', () => {
  const { service } = spied();
  const index = createWorkspaceIndex();
  const changed = [...indexFiles(service, index, files.keys(), u => files.get(u), opts)];
  assert.equal(changed.length, files.size);
  const model = createAdapterService({ ...loadDeps() });
  const expected = createWorkspaceIndex();
  for (const [uri, text] of files) {
    const doc = TextDocument.create(uri, 'yaml', 0, text);
    if (model.isAdapter(doc, opts(uri))) expected.update(uri, model.declaredCodes(doc, opts(uri)), model.codeOccurrences(doc, opts(uri)));
  }
  assert.deepEqual(index.uris().sort(), expected.uris().sort());
  assert.ok(!index.has('file:///ws/notes.yaml') && !index.has('file:///ws/ignored.adapter.yaml'));
  for (const uri of expected.uris()) {
    assert.equal(index.signature(uri), expected.signature(uri), uri);
    assert.deepEqual(index.declaredIn(uri), expected.declaredIn(uri), uri);
    assert.deepEqual(index.referencedIn(uri), expected.referencedIn(uri), uri);
  }
  for (const code of ['PERMISSION_DENIED', 'B_CODE', 'NOT_FOUND_SVC3_E0', 'NOT_FOUND_NOWHERE'])
    assert.deepEqual(index.occurrences(code), expected.occurrences(code), code);
});

test('a scanned file leaves no model behind: opened later with other text, it is checked afresh', () => {
  const { service, calls } = spied();
  const index = createWorkspaceIndex();
  const uri = 'file:///ws/a.adapter.yaml';
  const before = 'error_codes:\n  A_CODE:\n    category: BOGUS\n';
  indexText(service, index, uri, before, {});
  assert.deepEqual(calls, [{ uri, model: false }]);
  assert.deepEqual(
    index.declaredIn(uri).map(d => d.code),
    ['A_CODE'],
  );
  const now = before.replace('BOGUS', 'VALIDATION');
  const opened = service.validate(TextDocument.create(uri, 'yaml', 1, now));
  assert.deepEqual(opened, createAdapterService({ ...loadDeps() }).validate(TextDocument.create(uri, 'yaml', 1, now)));
  assert.ok(!opened.some(d => d.code === 'code.unknown-category'));
});

test('a file of MODEL_INDEX_SIZE or more is indexed through its model (parked for the open); a live document never asks for one', () => {
  const { service, calls } = spied();
  const index = createWorkspaceIndex();
  const big = `error_codes:\n  BIG_CODE:\n    category: VALIDATION\n${'# padding\n'.repeat(MODEL_INDEX_SIZE / 10)}`;
  assert.ok(big.length >= MODEL_INDEX_SIZE);
  indexText(service, index, 'file:///ws/big.adapter.yaml', big, {});
  indexText(service, index, 'file:///ws/live.adapter.yaml', TextDocument.create('file:///ws/live.adapter.yaml', 'yaml', 3, big), {});
  assert.deepEqual(
    calls.map(c => c.model),
    [true, false],
  );
  assert.deepEqual(
    index.declaredIn('file:///ws/big.adapter.yaml').map(d => d.code),
    ['BIG_CODE'],
  );
});

test('indexEntries: cached model, fallback, non-adapter, ignored and too-large files answer as declaredCodes + codeOccurrences', () => {
  const s = createAdapterService({ ...loadDeps() });
  const both = (doc: TextDocument, o: ServiceOptions) => ({
    declarations: s.declaredCodes(doc, o),
    occurrences: s.codeOccurrences(doc, o),
  });
  const cases: [TextDocument, ServiceOptions][] = [
    [TextDocument.create('file:///x/alias.adapter.yaml', 'yaml', 0, files.get('file:///ws/alias.adapter.yaml')!), {}],
    [TextDocument.create('file:///x/notes.yaml', 'yaml', 0, 'just: notes\n'), {}],
    [TextDocument.create('file:///x/i.adapter.yaml', 'yaml', 0, 'error_codes:\n  I_CODE: {}\n'), { ignored: true }],
    [TextDocument.create('file:///x/big.adapter.yaml', 'yaml', 0, 'error_codes:\n  I_CODE: {}\n'), { maxFileSize: 10 }],
    [TextDocument.create('file:///x/svc.adapter.json', 'json', 0, fileText(4, N)), {}],
  ];
  for (const [doc, o] of cases) {
    const fresh = s.indexEntries(doc, o);
    assert.deepEqual(fresh, both(doc, o), doc.uri);
    // Now the model is cached (declaredCodes built it): the same answer from it.
    assert.deepEqual(s.indexEntries(doc, o), fresh, doc.uri);
  }
});

test('the same text indexed again (the editor opening a file the scan indexed) is not scanned again; other text, options or a removal are', () => {
  const { service, calls } = spied();
  const index = createWorkspaceIndex();
  const uri = 'file:///ws/again.adapter.yaml';
  const text = 'error_codes:\n  AGAIN_CODE:\n    category: VALIDATION\n';
  assert.equal(indexText(service, index, uri, text, {}), true);
  assert.equal(indexText(service, index, uri, TextDocument.create(uri, 'yaml', 1, text), {}), false);
  assert.equal(calls.length, 1, 'the open of the same text reuses the scan');
  assert.deepEqual(
    index.declaredIn(uri).map(d => d.code),
    ['AGAIN_CODE'],
  );
  const edited = text.replace('AGAIN_CODE', 'AGAIN_CODES');
  assert.equal(indexText(service, index, uri, TextDocument.create(uri, 'yaml', 2, edited), {}), true);
  assert.equal(calls.length, 2);
  assert.equal(indexText(service, index, uri, edited, { ignored: true }), true, 'other options: indexed again (ignored)');
  assert.equal(index.has(uri), false);
  index.update(uri, [], []);
  index.remove(uri);
  assert.equal(indexText(service, index, uri, edited, {}), true, 'after a removal the same text is indexed again');
  assert.deepEqual(
    index.declaredIn(uri).map(d => d.code),
    ['AGAIN_CODES'],
  );
});

test('a large file indexed twice with the same text keeps its parked model for the open', () => {
  const { service, calls } = spied();
  const parks: string[] = [];
  const spy: AdapterService = { ...service, park: u => (parks.push(u), service.park(u)) };
  const index = createWorkspaceIndex();
  const uri = 'file:///ws/big-again.adapter.yaml';
  let text = 'error_codes:\n';
  for (let i = 0; text.length < MODEL_INDEX_SIZE; i++)
    text += `  VALIDATION_BIG_${i}:\n    category: VALIDATION\n    message_template: 'Code ${i} failed'\n`;
  indexText(spy, index, uri, text, {});
  indexText(spy, index, uri, text, {});
  assert.deepEqual(calls, [{ uri, model: true }], 'one model built, by the first pass');
  // park() on a file with no cached model would drop the parked one: the second pass must not call it.
  assert.deepEqual(parks, [uri]);
});

test("the CLI's scan notes nothing for an open that never comes; the editor's scan does, and a later unnoted indexing forgets it", () => {
  const { service, calls } = spied();
  const uri = 'file:///ws/scan.adapter.yaml';
  const text = 'error_codes:\n  SCAN_CODE:\n    category: VALIDATION\n';
  const read = () => text;
  // The CLI's scan (remember off): the same text indexed afterwards is read again.
  const cli = createWorkspaceIndex();
  assert.deepEqual([...indexFiles(service, cli, [uri], read, () => ({}))], [{ uri, changed: true }]);
  assert.equal(indexText(service, cli, uri, TextDocument.create(uri, 'yaml', 1, text), {}), false);
  assert.equal(calls.length, 2, 'nothing noted: read again');
  // The editor's scan: the open of the same text is skipped.
  const editor = createWorkspaceIndex();
  assert.deepEqual([...indexFiles(service, editor, [uri], read, () => ({}), undefined, true)], [{ uri, changed: true }]);
  assert.equal(indexText(service, editor, uri, TextDocument.create(uri, 'yaml', 1, text), {}), false);
  assert.equal(calls.length, 3, 'the open reuses the scan');
  // Other text indexed without a note, then the first text again: read again (the old note is gone).
  const other = text.replace('category: VALIDATION', 'category: VALIDATION\n    description: other');
  indexFiles(
    service,
    editor,
    [uri],
    () => other,
    () => ({}),
  ).next();
  assert.equal(calls.length, 4);
  indexText(service, editor, uri, TextDocument.create(uri, 'yaml', 2, text), {});
  assert.equal(calls.length, 5, 'the note of the first text was dropped with the unnoted indexing');
  assert.equal(index0(editor, uri), 'SCAN_CODE');
});

const index0 = (index: ReturnType<typeof createWorkspaceIndex>, uri: string): string | undefined => index.declaredIn(uri)[0]?.code;

test('a text over its size limit is indexed with no entries, each time (never taken as unchanged), and its successor read', () => {
  const { service, calls } = spied();
  const index = createWorkspaceIndex();
  const uri = 'file:///ws/big.adapter.yaml';
  const small = 'error_codes:\n  BIG_CODE:\n    category: VALIDATION\n    message_template: "x"\n';
  const big = small + '# ' + 'x'.repeat(2048) + '\n';
  const o: ServiceOptions = { maxFileSize: 1024 };
  indexText(service, index, uri, big, o);
  indexText(service, index, uri, big, o);
  assert.deepEqual(index.declaredIn(uri), []);
  assert.equal(calls.filter(c => c.uri === uri).length, 2);
  assert.equal(indexText(service, index, uri, small, o), true);
  assert.deepEqual(
    index.declaredIn(uri).map(d => d.code),
    ['BIG_CODE'],
  );
  assert.equal(indexText(service, index, uri, small, o), false);
  assert.equal(calls.filter(c => c.uri === uri).length, 3);
  assert.equal(indexText(service, index, uri, big, o), true);
  assert.deepEqual(index.declaredIn(uri), []);
});
