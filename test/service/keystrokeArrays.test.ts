/**
 * What a keystroke in one entry allocates per version (parse/patchEntry.ts; bench/NOTES.md, "memory over long typing sessions"): the
 * block's items array is the previous version's, spliced in place (a copy per keystroke became old-space garbage),
 * under a new block mapping and root; the extracted code list stays each version's own (the checks compare two
 * versions' lists; createResolver memoises per list). Outputs stay a fresh parse's and a fresh service's.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { isNode, type Pair, type YAMLMap } from 'yaml';
import { buildModel } from '../../server/src/service/parse/buildModel';
import type { AdapterModel } from '../../server/src/service/model/model';
import { docOf, newService, yamlDoc } from './helpers';

const URI = 'file:///w/arrays.adapter.yaml';

const TEXT = yamlDoc(
  'name: arrays',
  'error_codes:',
  ...Array.from({ length: 5 }, (_, i) => [
    `  VALIDATION_E${i}:`,
    '    category: VALIDATION',
    `    message_template: "Field '{field}' (entry ${i})"`,
    '    maps_from_http: [422]',
    '    details: { field: string }',
  ]).flat(),
  'error_mapping:',
  '  400:',
  '    code: VALIDATION_E0',
  '  404:',
  '    code: VALIDATION_E1',
);

const block = (m: AdapterModel, name: string): YAMLMap =>
  (m.sections[0]!.doc.contents as YAMLMap).items.find(p => String((p.key as { value: unknown }).value) === name)!.value as YAMLMap;

/** The block's pairs as a fresh parse would give them: key, value's source range. */
const pairsOf = (map: YAMLMap): unknown[] =>
  (map.items as Pair[]).map(p => [String((p.key as { value: unknown }).value), isNode(p.value) ? p.value.range : null]);

test("a keystroke in an entry splices the previous version's block items in place, under a new block mapping and root", () => {
  let text = TEXT;
  let model = buildModel(URI, text, [], { chunkThreshold: 0 })!;
  const items = block(model, 'error_codes').items;
  // Typed after `entry N` (the marker stays findable), the same entry twice.
  for (const entry of ['entry 0', 'entry 2', 'entry 4', 'entry 2']) {
    const prevMap = block(model, 'error_codes');
    const prevRoot = model.sections[0]!.doc.contents;
    const prevCodes = model.codes;
    const prevCodeList = [...prevCodes];
    const at = text.indexOf(entry) + entry.length;
    text = text.slice(0, at) + 'x' + text.slice(at);
    model = buildModel(URI, text, [], { chunkThreshold: 0, previous: model, change: { start: at, oldEnd: at, newEnd: at + 1 } })!;
    const map = block(model, 'error_codes');
    assert.equal(map.items, items, `${entry}: the same items array`);
    assert.notEqual(map, prevMap, `${entry}: a new block mapping`);
    assert.notEqual(model.sections[0]!.doc.contents, prevRoot, `${entry}: a new root`);
    assert.notEqual(model.codes, prevCodes, `${entry}: a new code list`);
    assert.deepEqual([...prevCodes], prevCodeList, `${entry}: the previous code list unchanged`);
    const fresh = buildModel(URI, text, [], { chunkThreshold: 0 })!;
    assert.deepEqual(pairsOf(map), pairsOf(block(fresh, 'error_codes')));
    assert.deepEqual(
      model.codes.map(c => [c.name, c.entrySpan.start, c.entrySpan.end]),
      fresh.codes.map(c => [c.name, c.entrySpan.start, c.entrySpan.end]),
    );
  }
});

test("typing a key into another's name and back, and a broken entry mended: every version's diagnostics are a fresh service's", () => {
  const uri = 'file:///w/keys.adapter.yaml';
  const service = newService();
  let text = TEXT;
  let version = 1;
  service.validate(docOf(text, uri, version));
  const type = (at: number, end: number, insert: string) => {
    service.edited(uri, version, version + 1, [{ start: at, end, text: insert }]);
    text = text.slice(0, at) + insert + text.slice(end);
    version++;
    const got = service.validate(docOf(text, uri, version));
    assert.deepEqual(got, newService().validate(docOf(text, uri, version)), JSON.stringify(text.slice(at - 20, at + 20)));
    return got;
  };
  // VALIDATION_E3 becomes a second VALIDATION_E1 (yaml.duplicate-key), then itself again.
  const key = text.indexOf('VALIDATION_E3:') + 'VALIDATION_E'.length;
  const dup = type(key, key + 1, '1');
  assert.ok(
    dup.some(d => d.code === 'yaml.duplicate-key'),
    'the duplicate is reported',
  );
  type(key, key + 1, '3');
  // An entry broken (an unclosed quote) and mended, then typed in at the first and last entries.
  const quote = text.indexOf('"Field', text.indexOf('VALIDATION_E2:'));
  type(quote, quote + 1, '');
  type(quote, quote, '"');
  for (const entry of ['entry 0', 'entry 4', 'entry 0']) {
    const at = text.indexOf(entry) + entry.length;
    type(at, at, 'y');
  }
});
