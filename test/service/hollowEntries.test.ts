/**
 * A big document's checked entries keep no nodes (parse/hollow.ts): their mappings read their items again from the
 * chunk text when asked. Here every size is "big" (hollowThreshold(0)): after an open and after edit sequences (typing
 * in an entry, lines added and removed between entries, an entry broken and fixed, an entry deleted), what the service
 * says of a hollowed document is what a service without hollowing says of the same text: diagnostics, document
 * symbols, hover and completion at every few characters, each diagnostic's quick fixes and Fix all.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic } from 'vscode-languageserver-types';
import { docOf, generatedAdapter, newService } from './helpers';
import * as hollow from '../../server/src/service/parse/hollow';

/**
 * `marks`: a `!` in some templates and a `<<` in a description (their entries are not hollowed; the others are).
 * `alike`: details keys that read alike ignoring case (`4xx` and `4XX`, a duplicate to report; `straße` and `STRASSE`,
 * whose upper cases are equal at different lengths): entries hollowed only after their first check.
 */
function generate(n: number, eol = '\n', marks = false, alike = false): string {
  const lines = ['name: big', 'type: adapter', ...(marks ? ['description: "x << 2"'] : []), 'error_codes:'];
  for (let i = 0; i < n; i++)
    lines.push(
      `  VALIDATION_E${i}:`,
      '    category: VALIDATION',
      `    message_template: "Field '{field}' (entry ${i}) {nope}${marks && i % 2 ? '!' : ''}"`,
      '    maps_from_http: [422]',
      alike && i === 1
        ? '    details: { field: string, 4xx: number, 4XX: number }'
        : alike && i === 2
          ? '    details:\n      field: string\n      straße: string\n      STRASSE: string'
          : i % 2
            ? '    details: { field: string, unused: number }'
            : '    details:\n      field: string\n      other: { type: strin }',
      ...(i % 3 ? [] : ['    retry: sometimes', '    extra_key: 1']),
    );
  lines.push('  NOT_FOUND:', '    category: NOT_FOUND', '    message_template: "gone"', '    details:', '      - id');
  lines.push('error_mapping:', '  400:');
  for (let i = 0; i < 3; i++) lines.push(`    - condition: "response.body.code == 'm${i}'"`, `      code: VALIDATION_E${i}`);
  lines.push('  404:', '    code: VALIDATION_E1', '  409:', '    code: NOT_A_CODE', 'operations:', '  read:', '    - name: get');
  return lines.join(eol) + eol;
}

type Change = { start: number; end: number; text: string };
const apply = (text: string, changes: readonly Change[]) => changes.reduce((t, c) => t.slice(0, c.start) + c.text + t.slice(c.end), text);

function sequences(text: string, eol: string): [string, Change[][]][] {
  const at = (s: string) => {
    const i = text.indexOf(s);
    assert.ok(i >= 0, s);
    return i;
  };
  const e0 = at('(entry 0)') + 1;
  const e3 = at('(entry 3)') + 1;
  const line4 = at('  VALIDATION_E4:');
  const added = `  ADDED_ONE:${eol}    category: VALIDATION${eol}`;
  return [
    ['nothing typed', []],
    ['typing in the first entry', [[{ start: e0, end: e0, text: 'x' }], [{ start: e0 + 1, end: e0 + 1, text: 'y' }]]],
    ['typing in a later entry, then undone', [[{ start: e3, end: e3, text: 'abc' }], [{ start: e3, end: e3 + 3, text: '' }]]],
    [
      'a line added between entries, then removed',
      [[{ start: line4, end: line4, text: added }], [{ start: line4, end: line4 + added.length, text: '' }]],
    ],
    ['an edit that breaks an entry, then the fix', [[{ start: e3 - 1, end: e3 - 1, text: '"' }], [{ start: e3 - 1, end: e3, text: '' }]]],
    ['a whole entry deleted', [[{ start: line4, end: at('  VALIDATION_E5:'), text: '' }]]],
    ['a top-level key added above', [[{ start: 0, end: 0, text: `description: x${eol}` }]]],
  ];
}

const uri = 'file:///w/hollow.adapter.yaml';

/** Runs `f` with entries hollowed from size `bytes` on. */
function sized<T>(bytes: number, f: () => T): T {
  const was = hollow.hollowThreshold(bytes);
  try {
    return f();
  } finally {
    hollow.hollowThreshold(was);
  }
}

/** Entries without a problem: the checks read none of them back. */
const clean = (n: number): string => generatedAdapter(n, { mapsFromHttp: true, blockDetails: true });

test('the entries are hollowed as parsed: the checks read none back, a completion inside one reads it once', () => {
  const text = clean(6);
  const service = newService();
  const doc = docOf(text, uri, 1);
  const before = hollow.rereads;
  sized(0, () => service.validate(doc));
  // What the editor asks of a whole document reads the extracted entries, not the nodes.
  service.documentSymbols(doc);
  service.codeLenses(doc);
  assert.equal(hollow.rereads, before);
  const at = doc.positionAt(text.indexOf('    maps_from_http', text.indexOf('VALIDATION_E3:')) + 4);
  service.complete(doc, at);
  assert.equal(hollow.rereads, before + 1);
  service.complete(doc, at);
  service.hover(doc, at);
  assert.equal(hollow.rereads, before + 1, 'read from the cache');
  // A keystroke elsewhere: the checks keep every other entry's answers, reading no hollow entry.
  const e0 = text.indexOf('(entry 0)') + 1;
  service.edited(uri, 1, 2, [{ start: e0, end: e0, text: 'x' }]);
  sized(0, () => service.validate(docOf(text.slice(0, e0) + 'x' + text.slice(e0), uri, 2)));
  assert.equal(hollow.rereads, before + 1);
});

for (const [eol, marks, alike] of [
  ['\n', false, false],
  ['\r\n', false, false],
  ['\n', true, false],
  ['\r\n', false, true],
] as const)
  for (const [name, steps] of sequences(generate(6, eol, marks, alike), eol))
    test(`hollowed entries, ${name} (${eol === '\n' ? 'LF' : 'CRLF'}${marks ? ', with ! and <<' : ''}${alike ? ', keys alike ignoring case' : ''}): what a service without hollowing says`, () => {
      const service = newService();
      const plain = newService();
      let text = generate(6, eol, marks, alike);
      let version = 1;
      sized(0, () => service.validate(docOf(text, uri, version)));
      const reads = hollow.rereads;
      const compare = () => {
        const doc = docOf(text, uri, version);
        plain.forget(uri);
        const plainDoc = docOf(text, uri, version);
        const ds: Diagnostic[] = sized(0, () => service.validate(doc));
        const pds = sized(Infinity, () => plain.validate(plainDoc));
        assert.deepEqual(ds, pds);
        assert.deepEqual(service.documentSymbols(doc), plain.documentSymbols(plainDoc));
        for (let i = 0; i < text.length; i += 3) {
          const pos = doc.positionAt(i);
          assert.deepEqual(service.hover(doc, pos), plain.hover(plainDoc, pos), `hover at ${i}`);
          assert.deepEqual(service.complete(doc, pos), plain.complete(plainDoc, pos), `completion at ${i}`);
        }
        for (const d of ds)
          assert.deepEqual(
            service.quickFixes(doc, d.range, { diagnostics: [d] }),
            plain.quickFixes(plainDoc, d.range, { diagnostics: [d] }),
            `fixes of ${d.code}`,
          );
        assert.deepEqual(service.fixAll(doc), plain.fixAll(plainDoc));
      };
      compare();
      for (const changes of steps) {
        service.edited(uri, version, version + 1, changes);
        text = apply(text, changes);
        version++;
        compare();
      }
      // The features above read hollowed entries back (so what they said was said of hollow ones).
      assert.ok(hollow.rereads > reads);
    });

test('a region that may hold an anchor or an alias is not hollowed (its checks would read every entry)', () => {
  for (const [what, extra] of [
    ['an alias', 'x-shared: &s { a: 1 }\nx-use: *s\n'],
    ['a star in a string', 'description: "a*b"\n'],
    ['an ampersand in a string', 'description: "a & b"\n'],
  ]) {
    const text = clean(6) + extra;
    const service = newService();
    const doc = docOf(text, uri, 1);
    sized(0, () => service.validate(doc));
    const before = hollow.rereads;
    service.complete(doc, doc.positionAt(text.indexOf('    maps_from_http', text.indexOf('VALIDATION_E3:')) + 4));
    assert.equal(hollow.rereads, before, what);
  }
});

test('a `!` or `<<` in a string: its entry is not hollowed, the others are, and the walk for bad merges reads none back', () => {
  const text = clean(6).replace('(entry 2)', '(entry 2)!').replace('(entry 4)', '(entry 4 << 1)');
  const service = newService();
  const doc = docOf(text, uri, 1);
  sized(0, () => service.validate(doc));
  const before = hollow.rereads;
  // A keystroke: the model is parsed again, with its walk for bad merges (the text may hold one).
  const at = text.indexOf('(entry 0)') + 1;
  service.edited(uri, 1, 2, [{ start: at, end: at, text: 'x' }]);
  const next = text.slice(0, at) + 'x' + text.slice(at);
  const doc2 = docOf(next, uri, 2);
  sized(0, () => service.validate(doc2));
  assert.equal(hollow.rereads, before);
  const inside = (entry: string) => doc2.positionAt(next.indexOf('    maps_from_http', next.indexOf(`${entry}:`)) + 4);
  for (const entry of ['VALIDATION_E2', 'VALIDATION_E4']) service.complete(doc2, inside(entry));
  assert.equal(hollow.rereads, before, 'not hollowed');
  service.complete(doc2, inside('VALIDATION_E3'));
  assert.equal(hollow.rereads, before + 1, 'hollowed');
});
