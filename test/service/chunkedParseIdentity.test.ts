/**
 * The contract of the incremental parse with per-entry caches: after an edit, every entry
 * the edit did not touch keeps its objects (the same CodeDef / MappingEntry, the same YAML nodes) in
 * model.codes / model.mappings, and every span and node range a reader sees is the current absolute
 * offset, equal to a whole parse of the new text.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isMap, type Node, type YAMLMap } from 'yaml';
import { buildModel, PARSE_OPTIONS } from '../../server/src/service/parse/buildModel';
import { parseChunked } from '../../server/src/service/parse/chunkedParse';
import type { AdapterModel } from '../../server/src/service/model/model';
import { conditionLines, generatedAdapter, withoutNodes } from './helpers';

const URI = 'file:///w/big.adapter.yaml';

const generate = (n: number): string =>
  generatedAdapter(n, {
    mapsFromHttp: true,
    tail: [
      'error_mapping:',
      '  400:',
      ...conditionLines(5),
      '  404:',
      '    code: VALIDATION_E1',
      'operations:',
      '  read:',
      '    - name: get',
      '      maps_to: "GET /x/{field}"',
    ],
  });

/** The model without YAML nodes (compared by value). */
function values(m: AdapterModel): unknown {
  const strip = withoutNodes;
  return { codes: strip(m.codes), mappings: strip(m.mappings), params: strip(m.params), errors: m.syntaxErrors };
}

const insert = (m: AdapterModel, at: number, s: string): AdapterModel =>
  buildModel(URI, m.text.slice(0, at) + s + m.text.slice(at), [], {
    previous: m,
    change: { start: at, oldEnd: at, newEnd: at + s.length },
  })!;

/** Every node range of the entry's mapping, checked against the text it should cover. */
function assertNodesAt(text: string, node: YAMLMap | undefined, name: string): void {
  assert.ok(isMap(node), name);
  const value = (k: string) => node.items.find(p => (p.key as { value?: unknown }).value === k)?.value as Node;
  assert.equal(text.slice(value('category').range![0], value('category').range![1]), 'VALIDATION', name);
  assert.ok(text.slice(node.range![0]).startsWith('category: VALIDATION'), name);
}

test('an edit inside one code keeps every other entry: same objects, current offsets', () => {
  let m = buildModel(URI, generate(40), [], { chunkThreshold: 0 })!;
  for (const k of [20, 0, 39, 20]) {
    const before = m;
    m = insert(m, m.text.indexOf(`entry ${k})`), 'x');
    assert.equal(m.codes.length, 40);
    for (let i = 0; i < 40; i++) {
      const [old, now] = [before.codes[i]!, m.codes[i]!];
      if (i === k) assert.notEqual(now, old, 'the edited entry is new');
      else {
        assert.equal(now, old, `entry ${i} is the same CodeDef`);
        assert.equal(now.node, old.node, `entry ${i} keeps its node`);
      }
      const keyAt = m.text.indexOf(`  VALIDATION_E${i}:\n`) + 2;
      assert.deepEqual(now.keySpan, { start: keyAt, end: keyAt + `VALIDATION_E${i}`.length }, `entry ${i}: current key span`);
      assert.equal(now.entrySpan.start, keyAt);
      assertNodesAt(m.text, now.node, `entry ${i}`);
    }
    before.mappings.forEach((e, i) => assert.equal(m.mappings[i], e, `mapping ${i} is the same MappingEntry`));
    before.params.forEach((p, i) => assert.equal(m.params[i], p, `param ${i} is the same`));
    assert.deepEqual(values(m), values(buildModel(URI, m.text, [], { chunkThreshold: Infinity })!));
  }
});

test('an edit inside one mapping status keeps every code and the other statuses', () => {
  const m0 = buildModel(URI, generate(10), [], { chunkThreshold: 0 })!;
  const m1 = insert(m0, m0.text.indexOf("== 'm3'") + 5, 'y');
  m0.codes.forEach((c, i) => assert.equal(m1.codes[i], c));
  const s404 = m0.mappings.findIndex(e => e.status.value === 404);
  assert.equal(m1.mappings[s404], m0.mappings[s404], 'status 404 untouched');
  assert.notEqual(m1.mappings[0], m0.mappings[0], 'status 400 re-extracted');
  assert.deepEqual(values(m1), values(buildModel(URI, m1.text, [], { chunkThreshold: Infinity })!));
});

test('a new entry typed between two others (the text is split again) still keeps every old entry', () => {
  const m0 = buildModel(URI, generate(10), [], { chunkThreshold: 0 })!;
  const at = m0.text.indexOf('  VALIDATION_E5:');
  const m1 = insert(m0, at, '  NEW_CODE:\n    category: VALIDATION\n');
  assert.equal(m1.codes.length, 11);
  assert.equal(m1.codes[5]!.name, 'NEW_CODE');
  m0.codes.forEach((c, i) => assert.equal(m1.codes[i < 5 ? i : i + 1], c, `entry ${i}`));
  assert.deepEqual(values(m1), values(buildModel(URI, m1.text, [], { chunkThreshold: Infinity })!));
});

test('an edit that breaks its entry: the error is placed, the next keystroke fixes it, offsets stay current', () => {
  const m0 = buildModel(URI, generate(10), [], { chunkThreshold: 0 })!;
  const at = m0.text.indexOf('details: { field: string }', m0.text.indexOf('VALIDATION_E4:')) + 9;
  const m1 = insert(m0, at, '[');
  assert.ok(m1.syntaxErrors.length > 0);
  assert.deepEqual(values(m1), values(buildModel(URI, m1.text, [], { chunkThreshold: 0 })!));
  const m2 = insert(m1, m1.text.indexOf('(entry 8)') + 1, 'z');
  assert.deepEqual(values(m2), values(buildModel(URI, m2.text, [], { chunkThreshold: 0 })!));
  const m3 = buildModel(URI, m2.text.slice(0, at) + m2.text.slice(at + 1), [], {
    previous: m2,
    change: { start: at, oldEnd: at + 1, newEnd: at },
  })!;
  assert.deepEqual(m3.syntaxErrors, []);
  assert.deepEqual(values(m3), values(buildModel(URI, m3.text, [], { chunkThreshold: Infinity })!));
});

test('random keystrokes inside entries take the keystroke path and equal a whole parse', () => {
  const base = generate(12);
  const key = fc.record({
    entry: fc.nat({ max: 11 }),
    col: fc.nat({ max: 40 }),
    ins: fc.constantFrom('x', '{', "'", ' ', '', '7'),
    del: fc.nat({ max: 2 }),
  });
  let entryPath = 0;
  fc.assert(
    fc.property(fc.array(key, { minLength: 1, maxLength: 10 }), keys => {
      let text = base;
      let state = parseChunked(text, 0, PARSE_OPTIONS, undefined)!.state;
      let model = buildModel(URI, text, [], { chunkThreshold: 0 })!;
      for (const k of keys) {
        const line = text.indexOf('message_template', text.indexOf(`  VALIDATION_E${k.entry}:`));
        const at = line + Math.min(k.col, text.indexOf('\n', line) - line - 1);
        const oldEnd = Math.min(at + k.del, text.indexOf('\n', line));
        const change = { start: at, oldEnd, newEnd: at + k.ins.length };
        text = text.slice(0, at) + k.ins + text.slice(oldEnd);
        const p = parseChunked(text, 0, PARSE_OPTIONS, state, change);
        if (p?.path === 'entry') entryPath++;
        if (p) state = p.state;
        model = buildModel(URI, text, [], { chunkThreshold: 0, previous: model, change })!;
        assert.deepEqual(values(model), values(buildModel(URI, text, [], { chunkThreshold: 0 })!));
        const whole = buildModel(URI, text, [], { chunkThreshold: Infinity })!;
        if (!whole.syntaxErrors.length) assert.deepEqual(values(model), values(whole));
      }
    }),
    { numRuns: 60, seed: 20261123 },
  );
  assert.ok(entryPath > 100, `the keystroke path was taken ${entryPath} times`);
});

test('keystrokes keep the suppressions of `# mcp-aql-disable-next-line` current (kept, or read again)', () => {
  const text = generate(6).replace(
    '    category: VALIDATION\n',
    '    # mcp-aql-disable-next-line schema.required\n    category: VALIDATION\n',
  );
  let m = buildModel(URI, text, [], { chunkThreshold: 0 })!;
  const steps: [string, number, string][] = [
    ['(entry 3)', 1, 'x'], // another line: kept
    ['schema.required', 6, '-x'], // the directive's own line: read again
    ['(entry 1)', 0, '\n    # mcp-aql-disable-next-line\n   '], // new lines: read again
    ['(entry 2)', 0, ' # mcp-aql-disable-next'], // a directive typed inside a template: still a comment-free string
  ];
  for (const [near, off, ins] of steps) {
    const at = m.text.indexOf(near) + off;
    m = insert(m, at, ins);
    assert.deepEqual(m.suppressions, buildModel(URI, m.text, [], { chunkThreshold: 0 })!.suppressions, near);
  }
  assert.ok(m.suppressions.size >= 1);
});
