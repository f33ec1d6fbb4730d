/**
 * The open rehearses the keystroke path (parse/patchEntry.ts, `rehearseEdit`: a space typed at the end of the
 * first entry's key line and taken back, each run moving every later chunk). What it leaves must be what the
 * open's parse gave: the same values, syntax errors and node ranges; and what the service says after a
 * sequence of edits from there (lines added and removed, CRLF, inside the rehearsed entry, between entries,
 * several changes in one didChange, undone) must be what a fresh service says of the same text: diagnostics,
 * document symbols and hover, exactly.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { isMap, isPair, isSeq, type Node } from 'yaml';
import { buildModel, PARSE_OPTIONS } from '../../server/src/service/parse/buildModel';
import { parseChunked } from '../../server/src/service/parse/chunkedParse';
import type { ChunkState } from '../../server/src/service/parse/chunkState';
import { rehearseEdit } from '../../server/src/service/parse/patchEntry';
import type { AdapterModel } from '../../server/src/service/model/model';
import { docOf, newService, withoutNodes } from './helpers';

const URI = 'file:///w/big.adapter.yaml';

function generate(n: number, eol = '\n'): string {
  const lines = ['name: big', 'type: adapter', 'error_codes:'];
  for (let i = 0; i < n; i++)
    lines.push(
      `  VALIDATION_E${i}:`,
      '    category: VALIDATION',
      `    message_template: "Field '{field}' (entry ${i}) {nope}"`,
      '    maps_from_http: [422]',
      '    details: { field: string, unused: number }',
    );
  lines.push('error_mapping:', '  400:');
  for (let i = 0; i < 3; i++) lines.push(`    - condition: "response.body.code == 'm${i}'"`, `      code: VALIDATION_E${i}`);
  lines.push('  404:', '    code: VALIDATION_E1', '  409:', '    code: NOT_A_CODE', 'operations:', '  read:', '    - name: get');
  return lines.join(eol) + eol;
}

/** Every node range under the section's root, in document order. */
function rangesOf(contents: unknown): number[][] {
  const out: number[][] = [];
  const node = (n: Node | null | undefined): void => {
    if (!n) return;
    if (n.range) out.push([...n.range]);
    if (isMap(n) || isSeq(n))
      for (const it of n.items)
        if (isPair(it)) {
          node(it.key as Node | null);
          node(it.value as Node | null);
        } else node(it as Node | null);
  };
  node(contents as Node);
  return out;
}

const values = (m: AdapterModel) => ({
  codes: withoutNodes(m.codes),
  mappings: withoutNodes(m.mappings),
  params: withoutNodes(m.params),
  errors: m.syntaxErrors,
  ranges: rangesOf(m.sections[0]!.doc.contents),
});

const TEXTS: [string, string][] = [
  ['LF', generate(8)],
  ['CRLF', generate(8, '\r\n')],
  ['an entry that does not parse', generate(6).replace('    maps_from_http: [422]', '    maps_from_http: [422')],
  ['no entry with a bare key line', generate(3).replace(/^( {2}\w+):$/gm, '$1: # a comment')],
  ['anchors', generate(5).replace('    category: VALIDATION\n', '    category: &cat VALIDATION\n')],
];

for (const [name, text] of TEXTS)
  test(`the open's model after the rehearsal equals its parse without it: ${name}`, () => {
    const rehearsed = buildModel(URI, text, [], { chunkThreshold: 0 })!;
    const plain = parseChunked(text, 0, PARSE_OPTIONS, undefined)!;
    assert.deepEqual(rangesOf(rehearsed.sections[0]!.doc.contents), rangesOf(plain.section.doc.contents));
    assert.deepEqual(values(rehearsed), values(buildModel(URI, text, [], { chunkThreshold: 0, previous: undefined })!));
    // The state kept for the next edit is usable (not consumed) and holds this text.
    const st = rehearsed.parseState as ChunkState;
    assert.equal(st.consumed, undefined);
    assert.equal(st.text, text);
  });

test('rehearseEdit runs the keystroke path on a plain open and leaves it alone where that path does not apply', () => {
  const text = generate(4);
  const open = parseChunked(text, 0, PARSE_OPTIONS, undefined)!;
  const codes = open.extracted.codes.slice();
  const mappings = open.extracted.mappings.slice();
  const after = rehearseEdit(open, text, 0, PARSE_OPTIONS);
  assert.notEqual(after, open);
  assert.equal(after.path, 'chunks');
  assert.equal(after.change, undefined);
  // The largest split block (error_codes) has fewer than 1,000 entries: its first was parsed again, equal by value;
  // every other entry kept its objects.
  codes.forEach((c, i) => {
    if (i === 0) assert.notEqual(after.extracted.codes[i], c, `code ${i}`);
    else assert.equal(after.extracted.codes[i], c, `code ${i}`);
    assert.deepEqual(withoutNodes(after.extracted.codes[i]), withoutNodes(c));
  });
  mappings.forEach((m, i) => assert.equal(after.extracted.mappings[i], m, `mapping ${i}`));
  assert.deepEqual(after.errors, open.errors);
  assert.deepEqual(rangesOf(after.section.doc.contents), rangesOf(open.section.doc.contents));
  // A longer block: the entry 1,000 from its end, so that few chunks move.
  const long = generate(1010);
  const open2 = parseChunked(long, 0, PARSE_OPTIONS, undefined)!;
  const codes2 = open2.extracted.codes.slice();
  const after2 = rehearseEdit(open2, long, 0, PARSE_OPTIONS);
  codes2.forEach((c, i) => {
    if (i === 10) assert.notEqual(after2.extracted.codes[i], c, `entry ${i}`);
    else assert.equal(after2.extracted.codes[i], c, `entry ${i}`);
  });
  assert.deepEqual(rangesOf(after2.section.doc.contents), rangesOf(open2.section.doc.contents));
  for (const [name, t] of TEXTS.slice(3)) {
    const p = parseChunked(t, 0, PARSE_OPTIONS, undefined)!;
    assert.equal(rehearseEdit(p, t, 0, PARSE_OPTIONS), p, name);
    assert.equal(p.state.consumed, undefined, name);
  }
});

/** One didChange: its changes in order, each in the offsets of the text the previous one left. */
type Change = { start: number; end: number; text: string };

function apply(text: string, changes: readonly Change[]): string {
  for (const c of changes) text = text.slice(0, c.start) + c.text + text.slice(c.end);
  return text;
}

/** Edit sequences from the open: each a list of didChange notifications. */
function sequences(text: string, eol: string): [string, Change[][]][] {
  const at = (s: string, from = 0) => {
    const i = text.indexOf(s, from);
    assert.ok(i >= 0, s);
    return i;
  };
  const e0 = at('(entry 0)') + 1;
  const m0 = at("'m0'") + 1;
  const e3 = at('(entry 3)') + 1;
  const line4 = at('  VALIDATION_E4:');
  const mapping = at('    code: NOT_A_CODE');
  const added = `  ADDED_ONE:${eol}    category: VALIDATION${eol}`;
  return [
    ['typing inside the rehearsed entry (the first)', [[{ start: e0, end: e0, text: 'x' }], [{ start: e0 + 1, end: e0 + 1, text: 'y' }]]],
    ['typing in a mapping entry', [[{ start: m0, end: m0, text: 'x' }], [{ start: m0 + 1, end: m0 + 1, text: 'y' }]]],
    ['typing in a later entry, then undone', [[{ start: e3, end: e3, text: 'abc' }], [{ start: e3, end: e3 + 3, text: '' }]]],
    [
      'a line added between entries, then removed',
      [[{ start: line4, end: line4, text: added }], [{ start: line4, end: line4 + added.length, text: '' }]],
    ],
    ['a line ending inserted inside an entry', [[{ start: e3, end: e3, text: eol }], [{ start: e3, end: e3 + eol.length, text: '' }]]],
    [
      'several changes in one didChange (the later one first in the text)',
      [
        [
          { start: mapping + 10, end: mapping + 10, text: 'Z' },
          { start: e0, end: e0, text: 'q' },
        ],
      ],
    ],
    ['an edit that breaks an entry, then the fix', [[{ start: e3 - 1, end: e3 - 1, text: '"' }], [{ start: e3 - 1, end: e3, text: '' }]]],
    ['a whole entry deleted', [[{ start: line4, end: at('  VALIDATION_E5:'), text: '' }]]],
  ];
}

for (const eol of ['\n', '\r\n'])
  for (const [name, steps] of sequences(generate(8, eol), eol))
    test(`after the rehearsed open, ${name} (${eol === '\n' ? 'LF' : 'CRLF'}): what a fresh service says`, () => {
      const uri = 'file:///w/seq.adapter.yaml';
      const service = newService();
      const fresh = newService();
      let text = generate(8, eol);
      let version = 1;
      service.validate(docOf(text, uri, version));
      for (const changes of steps) {
        service.edited(uri, version, version + 1, changes);
        text = apply(text, changes);
        version++;
        const doc = docOf(text, uri, version);
        fresh.forget(uri);
        const freshDoc = docOf(text, uri, version);
        assert.deepEqual(service.validate(doc), fresh.validate(freshDoc));
        assert.deepEqual(service.documentSymbols(doc), fresh.documentSymbols(freshDoc));
        for (const word of ['VALIDATION_E5', 'NOT_A_CODE', 'category'])
          for (let i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + 1)) {
            const pos = doc.positionAt(i + 2);
            assert.deepEqual(service.hover(doc, pos), fresh.hover(freshDoc, pos), `${word} at ${i}`);
          }
      }
    });
