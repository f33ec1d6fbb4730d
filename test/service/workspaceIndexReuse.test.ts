/**
 * Re-indexing a file keeps what did not change (the server re-indexes an open document each time typing pauses:
 * bench/NOTES.md, "the re-index after a pause"): a declaration equal to the one indexed before keeps its packed
 * entry, its details list and the file's signature; only a changed code name re-files the file's names. What the
 * index answers after any sequence of edits is what an index built from scratch answers, and so are every file's
 * diagnostics (code.declared-elsewhere, mapping.unknown-code across files).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import type { CodeDeclaration, CodeOccurrence } from '../../server/src/service';
import { createWorkspaceIndex, type IndexStats, type WorkspaceIndex } from '../../server/src/service/workspace/workspaceIndex';
import { docOf, newService, yamlDoc } from './helpers';

const X = 'file:///w/a/x.adapter.yaml';
const Y = 'file:///w/a/y.adapter.yaml';
const Z = 'file:///w/b/z.adapter.yaml';

const base = yamlDoc(
  'error_codes:',
  '  A_ONE:',
  '    category: NOT_FOUND',
  `    message_template: "No '{id}'"`,
  '    details: { id: string }',
  '    maps_from_http: [404]',
  '  A_TWO:',
  '    category: CONFLICT',
  '    details: { id: string }',
  '  SHARED_CODE:',
  '    category: NOT_FOUND',
  '    description: "Declared in x and y"',
  'error_mapping:',
  '  404:',
  '    code: SHARED_CODE',
  '  409:',
  '    code: Y_ONLY',
  '  500:',
  '    code: A_ONE',
);

const Y_TEXT = yamlDoc(
  'error_codes:',
  '  SHARED_CODE:',
  '    category: NOT_FOUND',
  '  Y_ONLY:',
  '    category: CONFLICT',
  '    details: { id: string }',
  'error_mapping:',
  '  410:',
  '    code: A_TWO',
  '  411:',
  '    code: A_TWO_RENAMED',
);

const Z_TEXT = yamlDoc('error_mapping:', '  404:', '    code: SHARED_CODE', '  409:', '    code: A_NEW', '  500:', '    code: A_ONE');

/** x's text through a sequence of edits: typing, lines moving, codes added, renamed, removed, declared twice. */
const STEPS: [string, (t: string) => string][] = [
  ['the same text again', t => t],
  ['a character typed in a template', t => t.replace("No '{id}'", "No x'{id}'")],
  ['a line added above everything', t => `# a comment\n${t}`],
  ['a blank line added between two codes', t => t.replace('  A_TWO:', '\n  A_TWO:')],
  [
    'a code added between two others',
    t => t.replace('  A_TWO:', '  A_NEW:\n    category: VALIDATION\n    details: { field: string }\n  A_TWO:'),
  ],
  ['a code renamed', t => t.replace('  A_TWO:', '  A_TWO_RENAMED:')],
  ['a detail added', t => t.replace('details: { field: string }', 'details: { field: string, reason: string }')],
  [
    'a detail made required',
    t => t.replace('details: { field: string, reason: string }', 'details: { field: { type: string, required: true } }'),
  ],
  [
    'a detail given a description',
    t =>
      t.replace(
        'details: { field: { type: string, required: true } }',
        'details: { field: { type: string, required: true, description: "Which" } }',
      ),
  ],
  ['the description typed in', t => t.replace('description: "Which" }', 'description: "Which field" }')],
  ['a category changed', t => t.replace(/(SHARED_CODE:\n {4}category: )NOT_FOUND/, '$1CONFLICT')],
  ['a description changed', t => t.replace('Declared in x and y', 'Declared in both')],
  ['maps_from_http changed', t => t.replace('maps_from_http: [404]', 'maps_from_http: [404, 410]')],
  ['a code of y declared here too', t => t.replace('error_mapping:', '  Y_ONLY:\n    category: CONFLICT\nerror_mapping:')],
  ['a code declared twice in this file', t => t.replace('error_mapping:', '  A_ONE:\n    category: CONFLICT\nerror_mapping:')],
  ['the shared code removed', t => t.replace(/ {2}SHARED_CODE:\n(?: {4}.*\n)+/, '')],
  ['a mapping line moved down', t => t.replace('  500:', '\n\n  500:')],
  ['a code removed', t => t.replace(/ {2}A_ONE:\n(?: {4}.*\n)+/, '')],
  ['every code removed', t => t.replace(/error_codes:\n(?: {2}\S.*\n(?: {4}.*\n)*)+/, 'error_codes:\n')],
  ['no longer an adapter', () => 'just: text\n'],
  ['back to the first text', () => base],
  ['back again, a character typed in a code name', t => t.replace('  A_TWO:', '  A_TWOx:')],
];

const byUri = <T extends { uri: string }>(xs: Iterable<T>): T[] => [...xs].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
const CODES = ['A_ONE', 'A_TWO', 'A_TWO_RENAMED', 'A_TWOx', 'A_NEW', 'SHARED_CODE', 'Y_ONLY', 'NOPE'];

/** Everything the index answers, in an order that does not depend on the order files were indexed in. */
function dump(index: WorkspaceIndex) {
  const uris = index.uris().sort();
  const all = () => true;
  return {
    uris,
    size: index.size,
    files: uris.map(u => ({
      u,
      has: index.has(u),
      declared: index.declaredIn(u),
      referenced: index.referencedIn(u),
      dependsOn: index.dependsOn(u),
      signature: index.signature(u),
    })),
    codes: CODES.map(c => ({
      c,
      declarations: byUri(index.declarations(c)),
      occurrences: byUri<CodeOccurrence>(index.occurrences(c)),
      except: [X, Y, Z].map(u => [byUri(index.declarations(c, u)), byUri<CodeOccurrence>(index.occurrences(c, u))]),
    })),
    all: byUri<CodeDeclaration>(index.allDeclarations()),
    allExcept: byUri<CodeDeclaration>(index.allDeclarations(X)),
    names: [[...index.names!()].sort(), ...[X, Y, Z].map(u => [...index.names!(u)].sort()), [...index.names!(X, 'a_t')].sort()],
    near: ['A_TWO', 'A_TWOO', 'SHARED_COD', 'Y_ONL', 'ZZZZZZZZ'].map(w => [
      index.nearNames!(w, 5, undefined, all),
      index.nearNames!(w, 5, X, all),
      index.nearNames!(w, 5, Y, all),
    ]),
  };
}

const service = newService();
const entriesOf = (uri: string, text: string) => {
  const d = docOf(text, uri, 1);
  service.forget(uri);
  // Through the model, as an open document is re-indexed.
  const e = service.isAdapter(d) ? service.indexEntries(d, undefined, { model: true }) : undefined;
  service.forget(uri);
  return e;
};
const put = (index: WorkspaceIndex, uri: string, text: string) => {
  const e = entriesOf(uri, text);
  if (e) index.update(uri, e.declarations, e.occurrences);
  else index.remove(uri);
};

test('re-indexed after each edit, the index answers what an index built from scratch answers, and so do the diagnostics', () => {
  const live = createWorkspaceIndex();
  const liveService = newService(live);
  put(live, X, base);
  put(live, Y, Y_TEXT);
  put(live, Z, Z_TEXT);
  let text = base;
  for (const [what, edit] of STEPS) {
    text = edit(text);
    put(live, X, text);
    const fresh = createWorkspaceIndex();
    // Another order on purpose.
    put(fresh, Z, Z_TEXT);
    put(fresh, X, text);
    put(fresh, Y, Y_TEXT);
    assert.deepEqual(dump(live), dump(fresh), what);
    const freshService = newService(fresh);
    for (const [uri, t] of [
      [X, text],
      [Y, Y_TEXT],
      [Z, Z_TEXT],
    ] as const) {
      liveService.forget(uri);
      assert.deepEqual(liveService.validate(docOf(t, uri, 1)), freshService.validate(docOf(t, uri, 1)), `${what}: ${uri}`);
    }
  }
});

test('the other files edited too: a code moving between files, a file removed and indexed again', () => {
  const live = createWorkspaceIndex();
  const texts = new Map([
    [X, base],
    [Y, Y_TEXT],
    [Z, Z_TEXT],
  ]);
  for (const [u, t] of texts) put(live, u, t);
  const edits: [string, string][] = [
    [Y, Y_TEXT.replace('  SHARED_CODE:', '  SHARED_CODEx:')],
    [X, base.replace('  A_TWO:', '  Y_ONLY:')],
    [Y, Y_TEXT.replace(/ {2}Y_ONLY:\n(?: {4}.*\n)+/, '')],
    [Z, Z_TEXT.replace('error_mapping:', 'error_codes:\n  A_ONE:\n    category: NOT_FOUND\nerror_mapping:')],
    [X, base],
    [Y, Y_TEXT],
  ];
  for (const [u, t] of edits) {
    texts.set(u, t);
    put(live, u, t);
    const fresh = createWorkspaceIndex();
    for (const [fu, ft] of [...texts].reverse()) put(fresh, fu, ft);
    assert.deepEqual(dump(live), dump(fresh), `${u} edited`);
  }
  live.remove(Y);
  put(live, Y, Y_TEXT);
  const fresh = createWorkspaceIndex();
  for (const [fu, ft] of texts) put(fresh, fu, ft);
  assert.deepEqual(dump(live), dump(fresh), 'y removed and indexed again');
});

/** A file of `n` codes, as a generated adapter: the same details and statuses for every code. */
const many = (n: number, lead = '') =>
  lead +
  yamlDoc(
    'error_codes:',
    ...Array.from({ length: n }, (_, i) => [
      `  CODE_${i}:`,
      '    category: VALIDATION',
      `    message_template: "Bad '{field}' (${i})"`,
      '    maps_from_http: [422]',
      '    details: { field: string }',
    ]).flat(),
    'error_mapping:',
    '  422:',
    '    code: CODE_0',
  );

const counting = (): Required<IndexStats> => ({ visited: 0, packed: 0, signatures: 0, refiled: 0 });

test('what did not change is kept: the packed declarations, their details lists, the signature and the names', () => {
  const stats = counting();
  const index = createWorkspaceIndex(stats);
  put(index, X, many(50));
  put(index, Y, many(3));
  assert.equal(stats.packed, 53);
  const at = (field: 'details' | 'mapsFromHttp') => index.declaredIn(X).map(d => d[field]);
  const details = at('details');
  // Within a file, equal lists are one list.
  assert.ok(details.every(d => d === details[0]));
  const signature = index.signature(X);
  const step = (text: string) => {
    Object.assign(stats, counting());
    put(index, X, text);
    return { ...stats };
  };

  // The same text: nothing packed, nothing re-filed, no new signature.
  assert.deepEqual(step(many(50)), counting());
  assert.deepEqual(at('details'), details);
  assert.ok(at('details').every((d, i) => d === details[i]));

  // A character typed in one template: that declaration alone is packed again, with the file's details list.
  const typed = many(50).replace('(7)', '(7x)');
  assert.deepEqual(step(typed), { ...counting(), packed: 1 });
  assert.ok(at('details').every((d, i) => d === details[i]));
  assert.equal(index.declaredIn(X)[7]!.template, "Bad '{field}' (7x)");
  assert.equal(index.signature(X), signature);

  // A line added above: every range moves, no declaration is packed again, the names stay filed.
  assert.deepEqual(step(`# moved\n${typed}`), counting());
  assert.equal(index.declaredIn(X)[0]!.range.start.line, 2);
  assert.deepEqual(
    index.occurrences('CODE_0', Y).map(o => o.range.start.line),
    [2, 5 * 50 + 4],
  );

  // A detail changed in one code: packed again with a list of its own; the signature changes.
  const detail = typed.replace(
    '(9)"\n    maps_from_http: [422]\n    details: { field: string }',
    '(9)"\n    maps_from_http: [422]\n    details: { field: number }',
  );
  assert.notEqual(detail, typed);
  assert.deepEqual(step(detail), { ...counting(), packed: 1, signatures: 1 });
  const changed = at('details');
  assert.notEqual(changed[9], details[9]);
  assert.deepEqual(changed[9], [{ name: 'field', type: 'number', required: undefined, description: undefined }]);
  assert.ok(changed.every((d, i) => i === 9 || d === details[i]));
  assert.notEqual(index.signature(X), signature);

  // Back as it was: the list equal to its neighbours' is theirs again, and so is the signature.
  assert.deepEqual(step(typed), { ...counting(), packed: 1, signatures: 1 });
  assert.ok(at('details').every((d, i) => d === details[i]));
  assert.equal(index.signature(X), signature);

  // A code renamed: the file's names are filed again.
  assert.deepEqual(step(typed.replace('CODE_1:', 'CODE_1x:')), { ...counting(), packed: 1, signatures: 1, refiled: 1 });
  assert.deepEqual(
    index.declarations('CODE_1x').map(d => d.uri),
    [X],
  );
  assert.deepEqual(
    index.declarations('CODE_1').map(d => d.uri),
    [Y],
  );
});

test("an open document's live entries are its declaredCodes and codeOccurrences, read one at a time; none without a current model", () => {
  const s = newService();
  const texts = [
    base,
    Y_TEXT,
    Z_TEXT,
    many(20, '# lead\r\n').replace(/\n/g, '\r\n'),
    yamlDoc('error_codes:', '  "QUOTED_CODE":', '    category: NOT_FOUND', 'error_mapping:', '  404:', "    code: 'QUOTED_CODE'"),
    // Uses before the declarations (the positions are looked up backwards), no line break at the end.
    yamlDoc(
      'error_mapping:',
      '  404:',
      '    code: LATE_CODE',
      '  409:',
      '    code: "OTHER"',
      'error_codes:',
      '  LATE_CODE:',
      '    category: NOT_FOUND',
    ).trimEnd(),
    // Everything on one line.
    '{"error_codes": {"JSON_CODE": {"category": "NOT_FOUND"}, "JSON_TWO": {}}, "error_mapping": {"404": {"code": "JSON_CODE"}}}',
  ];
  for (const [k, text] of texts.entries()) {
    const uri = `file:///w/live${k}.adapter.${text.startsWith('{') ? 'json' : 'yaml'}`;
    const doc = docOf(text, uri, 2);
    assert.equal(s.liveIndexEntries(doc), undefined, 'no model yet');
    s.validate(doc);
    const live = s.liveIndexEntries(doc)!;
    const read = <T>(l: { length: number; at(i: number): T | undefined }) => Array.from({ length: l.length }, (_, i) => l.at(i));
    assert.ok(s.codeOccurrences(doc).length > 0, uri);
    assert.deepEqual(read(live.declarations), s.declaredCodes(doc), uri);
    assert.deepEqual(read(live.occurrences), s.codeOccurrences(doc), uri);
    assert.equal(live.declarations.at(live.declarations.length), undefined);
    assert.equal(live.occurrences.at(live.occurrences.length), undefined);
    assert.equal(s.liveIndexEntries(doc, { ignored: true }), undefined, 'ignored');
  }
});

test('entries made by hand: declarations without occurrences, a declaration dropped, the numbers laid out anew', () => {
  const uri = 'file:///w/hand.adapter.yaml';
  const d = (code: string, line: number) => ({
    uri,
    code,
    range: { start: { line, character: 2 }, end: { line, character: 2 + code.length } },
    details: [],
    mapsFromHttp: [],
  });
  const o = (code: string, line: number, kind: 'declaration' | 'reference') => ({ ...d(code, line), kind });
  const live = createWorkspaceIndex();
  const steps: [Parameters<WorkspaceIndex['update']>[1], Parameters<WorkspaceIndex['update']>[2]][] = [
    [[d('A_CODE', 1), d('B_CODE', 5)], []],
    [[d('A_CODE', 1)], []],
    [[d('A_CODE', 1)], [o('A_CODE', 1, 'declaration')]],
    [[d('A_CODE', 2)], [o('A_CODE', 2, 'declaration'), o('B_CODE', 7, 'reference')]],
    [[], [o('B_CODE', 7, 'reference')]],
    [[d('C_CODE', 7)], [o('B_CODE', 7, 'reference')]],
  ];
  for (const [k, [ds, os]] of steps.entries()) {
    live.update(uri, ds, os);
    const fresh = createWorkspaceIndex();
    fresh.update(uri, ds, os);
    assert.deepEqual(dump(live), dump(fresh), `step ${k}`);
  }
});
