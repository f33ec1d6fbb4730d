/**
 * The schema check and extraction read an entry's plain value through `plainValue`, a direct
 * conversion of the common nodes that leaves the rest to `toJSON`. The oracle is `toJSON` itself: on
 * every collection of random documents (odd scalars, anchors, aliases, merge keys, tags, flow collections,
 * duplicate and prototype-named keys, collection and null keys), of the fixtures and examples and of
 * JSON texts read by the JSON reader, both give equal values (same keys in the same order, -0 and NaN
 * included) or both throw. Seeds are fixed, so a failure replays.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { isMap, isPair, isSeq, parseAllDocuments, type Document, type Node } from 'yaml';
import { PARSE_OPTIONS } from '../../server/src/service/parse/buildModel';
import { jsonDocument } from '../../server/src/service/parse/jsonDocument';
import { OTHER, plain, plainValue } from '../../server/src/service/parse/plainValue';
import { ROOT } from './helpers';
import { filesUnder, read, rng } from './indexScanHelpers';

const SCALARS = [
  'x',
  'yes',
  'No',
  'on',
  '~',
  'null',
  'Null',
  '',
  '0',
  '-0',
  '0x1F',
  '0o17',
  '1e3',
  '-.inf',
  '.NaN',
  '12.50',
  '007',
  'true',
  'FALSE',
  '"quoted"',
  "'single'",
  '"a\\tb"',
  '"\\u0000"',
  '__proto__',
  'constructor',
  'toString',
  '<<',
  "'<<'",
  '!!str 5',
  '!!int "7"',
  '!!float 1',
  '!!bool yes',
  '!!null ""',
  '!custom v',
  '!!binary aGk=',
  '!!timestamp 2001-12-14',
  '123456789012345678901234567890',
  '"404"',
  '4xx',
  '2001-12-14',
  '[]',
  '{}',
  '[1, [2, {a: 3}]]',
  '{a: 1, a: 2}',
  '{? [k]: v}',
  '{__proto__: {x: 1}}',
  '"multi\n  line"',
];
const KEYS = [
  'a',
  'b',
  'a',
  'code',
  '__proto__',
  'constructor',
  '1',
  '01',
  'true',
  'null',
  '~',
  '"q"',
  "'<<'",
  '[k]',
  '{k: 1}',
  '""',
  '? x',
];

function gen(r: () => number, depth: number, indent: string, anchors: string[]): string {
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
  const roll = r();
  if (depth > 3 || roll < 0.35) {
    if (anchors.length && r() < 0.15) return `*${pick(anchors)}`;
    return pick(SCALARS);
  }
  const anchor = r() < 0.15 ? `&n${anchors.length} ` : '';
  const tag = r() < 0.08 ? pick(['!!map ', '!!seq ', '!!set ', '!!omap ', '!!pairs ', '!x ']) : '';
  if (roll < 0.55) {
    // flow
    const items = Array.from({ length: Math.floor(r() * 4) }, () => gen(r, depth + 3, '', anchors).replace(/\n/g, ' '));
    const flow = r() < 0.5 ? `[${items.join(', ')}]` : `{${items.map((v, i) => `${pick(KEYS)}${i}: ${v}`).join(', ')}}`;
    if (anchor) anchors.push(`n${anchors.length}`);
    return `${anchor}${tag}${flow}`;
  }
  const lines: string[] = [];
  const n = 1 + Math.floor(r() * 4);
  const inner = indent + '  ';
  if (roll < 0.8) {
    for (let i = 0; i < n; i++) {
      const v = gen(r, depth + 1, inner, anchors);
      const key = r() < 0.1 && anchors.length ? '<<' : pick(KEYS);
      const block = v.startsWith('\n');
      lines.push(`${inner}${key}:${block ? '' : ' '}${v}`);
    }
  } else {
    for (let i = 0; i < n; i++) {
      const v = gen(r, depth + 1, inner + '  ', anchors);
      lines.push(`${inner}-${v.startsWith('\n') ? '' : ' '}${v}`);
    }
  }
  const head = anchor || tag ? ` ${anchor}${tag}`.trimEnd() : '';
  if (anchor) anchors.push(`n${anchors.length}`);
  return `${head}\n${lines.join('\n')}`;
}

/** Every collection of a document (its pairs' keys and values included). */
function collections(doc: Document): Node[] {
  const out: Node[] = [];
  const walk = (n: unknown, d: number) => {
    if (d > 50 || !n || typeof n !== 'object') return;
    if (isPair(n)) {
      walk(n.key, d + 1);
      walk(n.value, d + 1);
    } else if (isMap(n) || isSeq(n)) {
      out.push(n as Node);
      for (const it of n.items) walk(it, d + 1);
    } else out.push(n as Node);
  };
  walk(doc.contents, 0);
  return out;
}

const outcome = (f: () => unknown): { value?: unknown; threw?: true } => {
  try {
    return { value: f() };
  } catch {
    return { threw: true };
  }
};

/** Compares the two on every node of `doc`; returns how many took the direct path. */
function compareAll(doc: Document, what: string): number {
  let direct = 0;
  for (const n of collections(doc)) {
    const slow = outcome(() => n.toJSON());
    const fast = outcome(() => plainValue(n));
    assert.deepStrictEqual(fast, slow, what);
    if (!slow.threw) assert.equal(JSON.stringify(fast.value), JSON.stringify(slow.value), what);
    if (plain(n) !== OTHER) direct++;
  }
  return direct;
}

test('plainValue equals toJSON on random documents (odd scalars, aliases, merge keys, tags, flow, duplicate keys)', () => {
  const r = rng(2311);
  let direct = 0,
    other = 0;
  for (let i = 0; i < 1500; i++) {
    const text = `root:${gen(r, 0, '', [])}\n`;
    for (const doc of parseAllDocuments(text, PARSE_OPTIONS) as Document[]) {
      const d = compareAll(doc, text);
      direct += d;
      other += collections(doc).length - d;
    }
  }
  // Neither path is vacuous.
  assert.ok(direct > 5000, `${direct} direct`);
  assert.ok(other > 1000, `${other} left to toJSON`);
});

test('plainValue equals toJSON on every node of the fixtures, the examples and their JSON read by the JSON reader', () => {
  let direct = 0;
  const files = [...filesUnder(join(ROOT, 'test', 'fixtures')), ...filesUnder(join(ROOT, 'examples'))].filter(p =>
    /\.(ya?ml|json|md)$/.test(p),
  );
  assert.ok(files.length > 50);
  for (const p of files) {
    const text = read(p);
    const json = p.endsWith('.json') ? jsonDocument(text, PARSE_OPTIONS) : undefined;
    if (json) direct += compareAll(json, p);
    const body = p.endsWith('.md') ? (/^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? '') : text;
    for (const doc of parseAllDocuments(body, PARSE_OPTIONS) as Document[]) direct += compareAll(doc, p);
  }
  assert.ok(direct > 1000, `${direct} direct`);
});

test('plainValue: a duplicate key keeps its first position with the last value; __proto__ is an own key', () => {
  const doc = parseAllDocuments('a: 1\nb: 2\na: 3\n__proto__: {x: 1}\nconstructor: 4\n', PARSE_OPTIONS)[0] as Document;
  const v = plainValue(doc.contents as Node) as Record<string, unknown>;
  assert.deepEqual(Object.keys(v), ['a', 'b', '__proto__', 'constructor']);
  assert.equal(v.a, 3);
  assert.equal(Object.getPrototypeOf(v), Object.prototype);
  assert.deepEqual(Object.getOwnPropertyDescriptor(v, '__proto__')?.value, { x: 1 });
  assert.notEqual(plain(doc.contents), OTHER);
});
