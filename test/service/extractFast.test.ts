/**
 * Extraction reads a mapping without a merge key of its own straight from its items; the oracle
 * is the path that resolves merges for every mapping (`extractTesting.viaMerges`). On random adapters
 * (merge keys, anchors and aliases, odd scalars, tags, flow collections, duplicate keys, details written
 * every way), on the fixtures and examples and on generated JSON adapters, both give the same codes,
 * mappings and parameters, keys in the same order. Seeds are fixed, so a failure replays.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileText, pathOf } from '../../bench/genWorkspace';
import { buildModel } from '../../server/src/service/parse/buildModel';
import { extract, extractTesting } from '../../server/src/service/parse/extract';
import { ROOT } from './helpers';
import { filesUnder, read, rng } from './indexScanHelpers';

const SCALARS = [
  'x',
  'yes',
  '~',
  '',
  '404',
  '"404"',
  '5xx',
  '-0',
  '.nan',
  '!!str 7',
  '!t v',
  '"a {b} c"',
  "'{q}'",
  '[a, b]',
  '{type: string}',
];
const DETAIL_VALUES = [
  'string',
  'number',
  '{type: string, required: false}',
  '{type: integer, enum: [1, 2], example: 1}',
  '~',
  '[a]',
  '!!map {type: string}',
  '*dv',
];

function adapter(r: () => number): string {
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
  const lines = [
    'name: fuzz',
    'x-base: &base',
    `  category: ${pick(['NOT_FOUND', 'VALIDATION', 'x'])}`,
    '  message_template: "{id} gone"',
    '  details: &det',
    '    id: &dv string',
    '    other: {type: number}',
    'x-more: &more {description: more, maps_from_http: [404, "5XX"]}',
    'error_codes:',
  ];
  const n = 1 + Math.floor(r() * 6);
  for (let i = 0; i < n; i++) {
    const name = pick(['NOT_FOUND_A', 'NOT_FOUND_B', 'VALIDATION_C', '"QUOTED_D"', '? [k]', '~']);
    if (r() < 0.1) {
      lines.push(`  ${name}: *base`);
      continue;
    }
    if (r() < 0.1) {
      lines.push(`  ${name}: {category: NOT_FOUND, details: {a: string, a: number}, <<: *more}`);
      continue;
    }
    lines.push(`  ${name}:`);
    if (r() < 0.3) lines.push(`    <<: ${pick(['*base', '[*base, *more]', '*more', '*dv'])}`);
    for (const key of ['category', 'message_template', 'maps_from_http', 'condition', 'description', 'details', 'details', 'code']) {
      if (r() < 0.4) continue;
      if (key === 'details') {
        const form = r();
        if (form < 0.2) lines.push('    details: *det');
        else if (form < 0.35) lines.push(`    details: [a, ${pick(SCALARS)}, *dv]`);
        else if (form < 0.5) lines.push(`    details: {<<: *det, k: ${pick(DETAIL_VALUES)}}`);
        else {
          lines.push('    details:');
          const m = 1 + Math.floor(r() * 3);
          for (let j = 0; j < m; j++) lines.push(`      ${pick(['id', 'k', 'k', '"q"', '<<', '1'])}: ${pick(DETAIL_VALUES)}`);
        }
      } else if (key === 'maps_from_http') lines.push(`    maps_from_http: [${pick(['404', '"4xx"', 'x', '*dv'])}, ${pick(SCALARS)}]`);
      else lines.push(`    ${key}: ${pick(SCALARS)}`);
    }
  }
  lines.push('error_mapping:');
  for (const status of ['404', '"5XX"', '? [999]']) {
    if (r() < 0.3) continue;
    if (r() < 0.5)
      lines.push(`  ${status}: {code: NOT_FOUND_A, details: ${pick(['*det', '{a: string}', '~'])}, <<: ${pick(['*more', '*base'])}}`);
    else
      lines.push(
        `  ${status}:`,
        `    - code: ${pick(['NOT_FOUND_A', '*dv', '"VALIDATION_C"'])}`,
        `      message_template: ${pick(SCALARS)}`,
        '    - *more',
      );
  }
  lines.push('operations:', '  read:', '    - name: op', '      maps_to: "GET /x/{id}"', '      params: {id: {type: string}}');
  return lines.join('\n') + '\n';
}

/** Every plain object's keys in order, and its values (a yaml node, whose plain value may throw, by class only). */
function shape(x: unknown): string {
  if (Array.isArray(x)) return `[${x.map(shape).join(',')}]`;
  if (x && typeof x === 'object') {
    const proto = Object.getPrototypeOf(x) as object | null;
    if (proto !== Object.prototype && proto !== null) return `<${(x as object).constructor.name}>`;
    return `{${Object.entries(x)
      .map(([k, v]) => `${k}:${shape(v)}`)
      .join(',')}}`;
  }
  return typeof x === 'number' && Number.isNaN(x) ? 'NaN' : String(JSON.stringify(x) ?? typeof x);
}

function compare(uri: string, text: string): number {
  const model = buildModel(uri, text, [], { once: true });
  if (!model) return 0;
  extractTesting.viaMerges = true;
  let slow;
  try {
    slow = extract(model.sections);
  } finally {
    extractTesting.viaMerges = false;
  }
  const fast = extract(model.sections);
  assert.deepStrictEqual(fast, slow, text);
  // Same keys in the same order (the models are compared and serialized elsewhere).
  assert.equal(shape(fast), shape(slow), text);
  return fast.codes.length + fast.mappings.length;
}

test('extraction without merge resolution equals the resolving path on random adapters', () => {
  const r = rng(4049);
  let entries = 0;
  for (let i = 0; i < 400; i++) entries += compare('file:///fz/fuzz.adapter.yaml', adapter(r));
  assert.ok(entries > 2000, `${entries} entries`);
});

test('extraction without merge resolution equals the resolving path on the fixtures, examples and generated JSON adapters', () => {
  let entries = 0;
  const files = [...filesUnder(join(ROOT, 'test', 'fixtures')), ...filesUnder(join(ROOT, 'examples'))].filter(p =>
    /\.adapter\.(ya?ml|json|md)$/.test(p),
  );
  for (const p of files) entries += compare(`file://${p}`, read(p));
  for (const i of [0, 1, 2, 3, 4, 5, 6, 7]) entries += compare(`file:///fz/${pathOf(i)}`, fileText(i, 8));
  assert.ok(entries > 200, `${entries} entries`);
});
