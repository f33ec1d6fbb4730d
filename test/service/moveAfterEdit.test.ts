/**
 * The keystroke path moves every chunk after the edited entry (parse/patchEntry.ts movePieces): each node range of
 * the assembled document and each span of what was extracted must then be where a fresh parse of the same text puts
 * it — in the edited block, in a later block (its header moved without spans) and in a top-level key after both, after
 * edits that lengthen and shorten the text, typed twice at one place (the second move starts from the first's offsets).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { isNode, type Node } from 'yaml';
import { buildModel } from '../../server/src/service/parse/buildModel';
import { rehearseMove } from '../../server/src/service/parse/patchEntry';
import type { AdapterModel } from '../../server/src/service/model/model';
import type { ChunkState } from '../../server/src/service/parse/chunkState';
import { docOf, newService, yamlDoc } from './helpers';

const URI = 'file:///w/move.adapter.yaml';

const TEXT = yamlDoc(
  'name: moves',
  'error_codes:',
  ...Array.from({ length: 6 }, (_, i) => [
    `  VALIDATION_E${i}:`,
    '    category: VALIDATION',
    `    message_template: "Field '{field}' (entry ${i})"`,
    '    maps_from_http: [422]',
    `    condition: "response.body.code == 'c${i}'"`,
    '    details: { field: string }',
  ]).flat(),
  'error_mapping:',
  '  400:',
  '    - condition: "response.body.code == \'m0\'"',
  '      code: VALIDATION_E0',
  '  404:',
  '    code: VALIDATION_E1',
  'operations:',
  '  read:',
  '    - name: get',
  '      params: { id: string }',
);

/** Every node range of the document, in document order. */
function ranges(m: AdapterModel): number[][] {
  const out: number[][] = [];
  const seen = new Set<object>();
  const visit = (n: unknown): void => {
    if (!n || typeof n !== 'object' || seen.has(n)) return;
    seen.add(n);
    if (isNode(n) && (n as Node).range) out.push([...(n as Node).range!]);
    for (const v of Object.values(n)) if (v && typeof v === 'object' && !('tags' in v)) visit(v);
  };
  for (const s of m.sections) visit(s.doc.contents);
  return out;
}

/** What was extracted, yaml nodes left out (their ranges are compared by `ranges`). */
const extracted = (m: AdapterModel): string =>
  JSON.stringify({ codes: m.codes, mappings: m.mappings, params: m.params }, (k, v: unknown) => (isNode(v) ? undefined : v));

test('after edits at the first entry, every later range and span is where a fresh parse puts it', () => {
  let text = TEXT;
  let model = buildModel(URI, text, [], { chunkThreshold: 0 })!;
  const at = text.indexOf('(entry 0)') + 1;
  const edits: [number, number, string][] = [
    [at, at, 'xyz'],
    [at + 3, at + 3, 'w'],
    [at, at + 2, ''],
    [text.indexOf('(entry 3)') + 1, text.indexOf('(entry 3)') + 1, 'q'],
  ];
  for (const [start, end, insert] of edits) {
    text = text.slice(0, start) + insert + text.slice(end);
    model = buildModel(URI, text, [], {
      chunkThreshold: 0,
      previous: model,
      change: { start, oldEnd: end, newEnd: start + insert.length },
    })!;
    const fresh = buildModel(URI, text, [], { chunkThreshold: 0 })!;
    assert.deepEqual(ranges(model), ranges(fresh));
    assert.equal(extracted(model), extracted(fresh));
  }
});

test('after typing in error_codes, completion in error_mapping is what a fresh service gives (the block mapping moved)', () => {
  const uri = 'file:///w/complete.adapter.yaml';
  let text = TEXT.replace('    code: VALIDATION_E1\n', '    code: \n');
  const service = newService();
  const fresh = newService();
  service.validate(docOf(text, uri, 1));
  const at = text.indexOf('(entry 0)') + 1;
  const typed = ' '.repeat(40);
  service.edited(uri, 1, 2, [{ start: at, end: at, text: typed }]);
  text = text.slice(0, at) + typed + text.slice(at);
  const doc = docOf(text, uri, 2);
  const freshDoc = docOf(text, uri, 2);
  assert.deepEqual(service.validate(doc), fresh.validate(freshDoc));
  const pos = doc.positionAt(text.indexOf('    code: \n') + '    code: '.length);
  const items = fresh.complete(freshDoc, pos);
  assert.ok(
    items.some(i => i.label === 'VALIDATION_E3'),
    'the codes are offered',
  );
  assert.deepEqual(service.complete(doc, pos), items);
});

test('after an open and after each keystroke, every chunk already holds what a move moves (none collected on a move)', () => {
  let text = TEXT;
  let model = buildModel(URI, text, [], { chunkThreshold: 0 })!;
  const missing = () => {
    const out: string[] = [];
    for (const p of (model.parseState as ChunkState).pieces)
      for (const q of [p, p.header, ...(p.sub ?? [])]) {
        const c = q?.chunk;
        if (c && !c.ranges) out.push(`ranges of ${c.text.slice(0, 20)}`);
        if (c?.extracted && !c.anchors && !c.spans) out.push(`spans of ${c.text.slice(0, 20)}`);
      }
    return out;
  };
  assert.deepEqual(missing(), []);
  for (const entry of ['(entry 0)', '(entry 3)', '(entry 5)']) {
    const at = text.indexOf(entry) + 1;
    text = text.slice(0, at) + 'x' + text.slice(at);
    model = buildModel(URI, text, [], { chunkThreshold: 0, previous: model, change: { start: at, oldEnd: at, newEnd: at + 1 } })!;
    assert.deepEqual(missing(), [], entry);
  }
});

test("the idle warm-up (rehearseMove) leaves every range, span and placement as it found it; the next keystrokes are a fresh parse's", () => {
  let text = TEXT;
  let model = buildModel(URI, text, [], { chunkThreshold: 0 })!;
  const state = model.parseState as ChunkState;
  const placements = () =>
    JSON.stringify(
      state.pieces.map(p =>
        [p, p.header, ...(p.sub ?? [])].map(q => q && [q.start, q.end, q.chunk?.placedAt ?? null, q.chunk?.extractedAt ?? null]),
      ),
    );
  const before = [ranges(model), extracted(model), placements()];
  assert.equal(rehearseMove(state, model.sections[0]!.base), true);
  // Only the first entries (a large file's warm-up): the others stay where they are, the moved ones come back.
  assert.equal(rehearseMove(state, model.sections[0]!.base, 2), true);
  assert.deepEqual([ranges(model), extracted(model), placements()], before);
  for (const entry of ['(entry 0)', '(entry 4)']) {
    const at = text.indexOf(entry) + 1;
    text = text.slice(0, at) + 'xy' + text.slice(at);
    model = buildModel(URI, text, [], { chunkThreshold: 0, previous: model, change: { start: at, oldEnd: at, newEnd: at + 2 } })!;
    const fresh = buildModel(URI, text, [], { chunkThreshold: 0 })!;
    assert.deepEqual(ranges(model), ranges(fresh));
    assert.equal(extracted(model), extracted(fresh));
  }
  // A state the keystroke path has moved on from, or one with anchors, is left alone.
  assert.equal(rehearseMove(state, model.sections[0]!.base), false, 'consumed');
  const anchored = buildModel(URI, TEXT.replace('name: moves', 'name: &n moves'), [], { chunkThreshold: 0 })!;
  assert.equal(rehearseMove(anchored.parseState as ChunkState, anchored.sections[0]!.base), false, 'anchors');
});

test('service.warmUp: true on an open adapter and nothing it says changes; false for a document it holds no model of', () => {
  const uri = 'file:///w/warm.adapter.yaml';
  const service = newService();
  const fresh = newService();
  let text = TEXT;
  const doc = docOf(text, uri, 1);
  const said = (s: typeof service, d: typeof doc) => [
    s.validate(d),
    s.documentSymbols(d),
    s.complete(d, d.positionAt(text.indexOf('code: VALIDATION_E1') + 8)),
  ];
  const before = said(service, doc);
  assert.equal(service.warmUp(uri), true);
  assert.deepEqual(said(service, doc), before);
  assert.equal(service.warmUp('file:///w/unknown.adapter.yaml'), false);
  const at = text.indexOf('(entry 0)') + 1;
  service.edited(uri, 1, 2, [{ start: at, end: at, text: 'x' }]);
  text = text.slice(0, at) + 'x' + text.slice(at);
  assert.deepEqual(said(service, docOf(text, uri, 2)), said(fresh, docOf(text, uri, 2)));
});
