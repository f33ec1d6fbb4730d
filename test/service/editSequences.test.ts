/**
 * After a sequence of edits from an open (typing in the first entry, in a later one and in a mapping; lines added and
 * removed between entries; a line ending typed inside an entry; several changes in one didChange; an entry broken and
 * fixed; an entry deleted; edits undone), in LF and CRLF files, what the service says is exactly what a fresh service
 * says of the same text: diagnostics, document symbols, hover and completion at every occurrence of a few words. The keystroke
 * path moves every entry after an edit (parse/patchEntry.ts) and every kept problem with its entry
 * (checks/relocate.ts): a wrong offset anywhere after the edit shows here.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { conditionLines, docOf, generatedAdapter, newService } from './helpers';

const generate = (n: number, eol = '\n'): string =>
  generatedAdapter(n, {
    eol,
    flawed: true,
    mapsFromHttp: true,
    tail: [
      'error_mapping:',
      '  400:',
      ...conditionLines(3),
      '  404:',
      '    code: VALIDATION_E1',
      '  409:',
      '    code: NOT_A_CODE',
      'operations:',
      '  read:',
      '    - name: get',
    ],
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
    ['typing in the first entry', [[{ start: e0, end: e0, text: 'x' }], [{ start: e0 + 1, end: e0 + 1, text: 'y' }]]],
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
    test(`after an open, ${name} (${eol === '\n' ? 'LF' : 'CRLF'}): what a fresh service says`, () => {
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
            // Completion finds the node at the position through the ranges of the block mappings too.
            assert.deepEqual(service.complete(doc, pos), fresh.complete(freshDoc, pos), `completion: ${word} at ${i}`);
          }
      }
    });
