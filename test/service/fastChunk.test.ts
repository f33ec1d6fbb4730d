/**
 * parse/fastChunk.ts builds the plainest chunks' nodes itself: they must be exactly what the `yaml` parse composes
 * (classes, own properties, ranges) on every chunk it accepts, and it must refuse what it does not read. Checked on
 * the chunks of every fixture and example, on generated entries, and on mutations of them.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Pair } from 'yaml';
import { PARSE_OPTIONS } from '../../server/src/service/parse/buildModel';
import { composeYaml } from '../../server/src/service/parse/compose';
import { fastPairs } from '../../server/src/service/parse/fastChunk';
import { MAX_NESTING } from '../../server/src/service/util/nesting';
import { splitTop } from '../../server/src/service/parse/splitLayout';
import { ROOT } from './helpers';

/** What the `yaml` parse gives a chunk: its root mapping's pairs, or undefined when it has errors or is no mapping. */
function composed(t: string): Pair[] | undefined {
  const docs = composeYaml(t, PARSE_OPTIONS, MAX_NESTING - 1).docs;
  if (docs.length !== 1 || docs[0]!.errors.length) return undefined;
  const c = docs[0]!.contents as { items?: Pair[] } | null;
  return c?.items;
}

/** Every node's class and own properties (enumerable), recursively: what deepStrictEqual compares, and the class. */
function shape(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(shape);
  if (x && typeof x === 'object') {
    const out: Record<string, unknown> = { class: (x as object).constructor.name };
    for (const [k, v] of Object.entries(x)) out[k] = shape(v);
    return out;
  }
  return x;
}

/** Asserts fastPairs(t) equals the composed pairs when it reads t; returns whether it did. */
function agrees(t: string): boolean {
  const fast = fastPairs(t, PARSE_OPTIONS);
  if (!fast) return false;
  assert.deepStrictEqual(shape(fast), shape(composed(t)), JSON.stringify(t));
  return true;
}

function chunksOf(text: string): string[] {
  const out: string[] = [];
  for (const p of splitTop(text) ?? []) {
    for (const s of p.sub ? [p.header!, ...p.sub] : [p]) out.push(text.slice(s.start, s.end));
  }
  return out;
}

function adapterFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory() && e.name !== 'jsontestsuite') adapterFiles(p, out);
    else if (e.isFile() && /\.adapter\.ya?ml$/.test(e.name)) out.push(p);
  }
  return out;
}

const FIXTURE_CHUNKS = [...adapterFiles(join(ROOT, 'test', 'fixtures')), ...adapterFiles(join(ROOT, 'examples'))].flatMap(f =>
  chunksOf(readFileSync(f, 'utf8')),
);

const ENTRY = `  VALIDATION_E000010:
    category: VALIDATION
    message_template: "Request '{resource_id}' failed during '{operation}' (entry 10)"
    maps_from_http: [422]
    condition: "response.body.code == 'e10'"
    details: { resource_id: string, operation: string }
`;

test('a generated entry and its plain variants are read, and equal the composed nodes', () => {
  for (const t of [
    ENTRY,
    ENTRY.replace('[422]', '[ 422, 409 ]'),
    ENTRY.replace('{ resource_id: string, operation: string }', '{resource_id: \'x\', operation: "y"}'),
    ENTRY.replace(
      '    details: { resource_id: string, operation: string }\n',
      '    details:\n      resource_id: string\n      operation:\n        type: string\n',
    ),
    'name: bench\n',
    ENTRY.trimStart() + '  ',
    'A_B:\n    category: VALIDATION\n    details:\n      x: string\n  ',
    'version: "1.0.0"\n',
    'retry: 3\n',
    '  A_B:\n    category: VALIDATION\n  C_D:\n    category: NOT_FOUND\n',
  ])
    assert.ok(agrees(t), t);
});

test('what it does not read it refuses', () => {
  for (const t of [
    'error_codes:\n',
    'a: b # note\n',
    'a: b \n',
    'a: b',
    'a: b\n  c',
    '  ',
    'a:\n\n  b: c\n',
    'a: null\n',
    'a: true\n',
    'a: 1.5\n',
    'a: -1\n',
    'a: 0x1f\n',
    'a: 012\n',
    'a: "x\\ny"\n',
    "a: 'it''s'\n",
    'a: &x b\n',
    'a: *x\n',
    'a: !tag b\n',
    'a:\n  - b\n',
    'a: |\n  b\n',
    'a: []\n',
    'a: [b ,c]\n',
    'a: [b,c]\n',
    'a: [b,  c]\n',
    'a: b c\n',
    'a:  b\n',
    'a :b\n',
    'a:\n    b: c\n  d: e\n',
    'a: "b"c\n',
    'a: [b\n',
    'a: {b: c, d}\n',
    'a:\r\n  b: c\r\n',
    'a:\n\tb: c\n',
  ])
    assert.equal(fastPairs(t, PARSE_OPTIONS), undefined, JSON.stringify(t));
});

test('every chunk of the fixtures and examples it reads equals the composed nodes', () => {
  let read = 0,
    all = 0;
  for (const t of FIXTURE_CHUNKS) {
    all++;
    if (agrees(t)) read++;
  }
  assert.ok(all > 100 && read >= 20, `${read} of ${all} chunks read`);
});

test('mutated entries: whatever it reads equals the composed nodes', () => {
  const alphabet = [' ', '  ', ':', ': ', ',', ', ', '[', ']', '{', '}', '"', "'", '\n', 'a', 'B_1', '7', '0', 'x y', '#', '-', '.'];
  fc.assert(
    fc.property(fc.nat(ENTRY.length), fc.nat(6), fc.constantFrom(...alphabet), (at, cut, put) => {
      agrees(ENTRY.slice(0, at) + put + ENTRY.slice(Math.min(ENTRY.length, at + cut)));
    }),
    { numRuns: 3000 },
  );
});

test('mutated fixture chunks: whatever it reads equals the composed nodes', () => {
  const alphabet = [' ', ':', ': ', ', ', '[', ']', '{', '}', '"', '\n', '\n  ', '\n    ', 'a', '12', 'x_y'];
  fc.assert(
    fc.property(fc.constantFrom(...FIXTURE_CHUNKS), fc.nat(1000), fc.nat(4), fc.constantFrom(...alphabet), (t, at, cut, put) => {
      const i = at % (t.length + 1);
      agrees(t.slice(0, i) + put + t.slice(Math.min(t.length, i + cut)));
    }),
    { numRuns: 3000 },
  );
});

test('placed at an offset, every range is moved by it', () => {
  const shift = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(shift);
    if (x && typeof x === 'object') {
      const o = x as Record<string, unknown>;
      const out: Record<string, unknown> = { class: (x as object).constructor.name };
      for (const [k, v] of Object.entries(o)) out[k] = k === 'range' ? (v as number[]).map(n => n + 1000) : shift(v);
      return out;
    }
    return x;
  };
  for (const t of [ENTRY, ENTRY.trimStart() + '  ', 'name: bench\n', 'a:\n  b: [1, 2]\n  c: { d: "e" }\n']) {
    const fast = fastPairs(t, PARSE_OPTIONS, 1000);
    assert.ok(fast, t);
    assert.deepStrictEqual(shape(fast), shift(composed(t)), t);
  }
});
