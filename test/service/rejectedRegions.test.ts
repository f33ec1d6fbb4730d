/**
 * Only the syntax error speaks for a region the parser rejected (docs/robustness.md, "Broken text"):
 * after a fatal JSON mistake, a JSON loader reads nothing more of the file, and what the YAML parse made
 * of the rest (keys read into an object left open) gets no schema, mapping or other verdict; an
 * under-indented YAML key (and its value) gets its yaml.syntax only, and the entry it fell out of gets no
 * verdict that reads the whole entry. Problems outside those regions are still reported. The same in a
 * whole parse, a chunked parse, and after a keystroke that breaks a valid file.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { docOf, newService } from './helpers';

type Row = [code: string, startLine: number, startCol: number, endLine: number, endCol: number];

const rows = (ds: { code?: unknown; range: { start: { line: number; character: number }; end: { line: number; character: number } } }[]) =>
  ds.map((d): Row => [String(d.code), d.range.start.line + 1, d.range.start.character, d.range.end.line + 1, d.range.end.character]);

/** The diagnostics of `bad`: fresh (whole parse), fresh in chunks, and after one edit from `good` (keystroke path). */
function threeWays(good: string, bad: string, uri: string): Row[] {
  const whole = rows(newService().validate(docOf(bad, uri)));
  assert.deepEqual(rows(newService().validate(docOf(bad, uri), { chunkThreshold: 0 })), whole, 'chunked parse');
  const s = newService();
  s.validate(docOf(good, uri, 1), { chunkThreshold: 0 });
  let a = 0;
  while (a < good.length && a < bad.length && good[a] === bad[a]) a++;
  let b = 0;
  while (b < good.length - a && b < bad.length - a && good[good.length - 1 - b] === bad[bad.length - 1 - b]) b++;
  s.edited(uri, 1, 2, [{ start: a, end: good.length - b, text: bad.slice(a, bad.length - b) }]);
  assert.deepEqual(rows(s.validate(docOf(bad, uri, 2), { chunkThreshold: 0 })), whole, 'keystroke');
  return whole;
}

const JSON_URI = 'file:///w/tracker.adapter.json';
const YAML_URI = 'file:///w/tracker.adapter.yaml';

// error_mapping first, so that a real problem (CONFLICT_LOCKD) stands before the broken spot.
const GOOD_JSON = [
  '{',
  '  "name": "tracker",',
  '  "type": "adapter",',
  '  "error_mapping": {',
  '    "409": { "code": "CONFLICT_LOCKD" }',
  '  },',
  '  "error_codes": {',
  '    "NOT_FOUND_ITEM": {',
  '      "category": "NOT_FOUND",',
  `      "message_template": "Item '{item_id}' not found",`,
  '      "details": { "item_id": "string" }',
  '    },',
  '    "CONFLICT_LOCKED": {',
  '      "category": "CONFLICT",',
  '      "message_template": "Locked"',
  '    }',
  '  },',
  '  "operations": { "read": { "maps_to": "GET /items" } }',
  '}',
  '',
].join('\n');

test('the valid JSON base reports only its real problem', () => {
  assert.deepEqual(rows(newService().validate(docOf(GOOD_JSON, JSON_URI))), [['mapping.unknown-code', 5, 21, 5, 37]]);
});

test('JSON: an entry whose closing brace is missing: the rest of the file is read into it, and only json.syntax speaks for it', () => {
  const bad = GOOD_JSON.replace('"details": { "item_id": "string" }\n    },', '"details": { "item_id": "string" }\n    ,');
  // Before: schema.unknown-key on CONFLICT_LOCKED and on operations (read into NOT_FOUND_ITEM), schema.required, ...
  assert.deepEqual(threeWays(GOOD_JSON, bad, JSON_URI), [
    ['json.syntax', 1, 0, 1, 1],
    ['mapping.unknown-code', 5, 21, 5, 37],
  ]);
});

test('JSON: a missing comma where a brace is missing (the next top-level key read into error_codes): json.syntax only from there on', () => {
  const bad = GOOD_JSON.replace('    }\n  },\n  "operations"', '    }\n  \n  "operations"').replace(
    '"category": "CONFLICT"',
    '"category": "CONFLICTS"',
  );
  // The unknown category before the broken spot is still reported; "operations" read as a code is not.
  assert.deepEqual(threeWays(GOOD_JSON, bad, JSON_URI), [
    ['mapping.unknown-code', 5, 21, 5, 37],
    ['code.unknown-category', 14, 18, 14, 29],
    ['json.syntax', 18, 2, 18, 3],
  ]);
});

test('JSON: a missing comma inside an entry ends the JSON read there; a lenient mistake before it is still reported', () => {
  const bad = GOOD_JSON.replace('"name": "tracker",', '"name": "tracker", // ours').replace(
    '"category": "CONFLICT",',
    '"category": "CONFLICT"\n      "maps_from_http": [999],',
  );
  assert.deepEqual(threeWays(GOOD_JSON, bad, JSON_URI), [
    ['json.syntax', 2, 21, 2, 28],
    ['mapping.unknown-code', 5, 21, 5, 37],
    ['json.syntax', 15, 6, 15, 7],
  ]);
});

test('JSON: only the last brace missing: nothing was read into the wrong object, so everything is still checked', () => {
  const bad = GOOD_JSON.replace(/\}\n$/, '\n').replace('"category": "CONFLICT"', '"category": "CONFLICTS"');
  assert.deepEqual(threeWays(GOOD_JSON, bad, JSON_URI), [
    ['json.syntax', 1, 0, 1, 1],
    ['mapping.unknown-code', 5, 21, 5, 37],
    ['code.unknown-category', 14, 18, 14, 29],
  ]);
});

const GOOD_YAML = [
  'name: tracker',
  'type: adapter',
  'error_codes:',
  '  NOT_FOUND_ITEM:',
  '    category: NOT_FOUND',
  `    message_template: "Item '{item_id}' not found"`,
  '    maps_from_http: [404]',
  '    details:',
  '      item_id: string',
  '      reason: string',
  '  CONFLICT_LOCKED:',
  '    category: CONFLICT',
  'error_mapping:',
  '  409:',
  '    code: CONFLICT_LOCKD',
  '    condition: "response.status == 409"',
  '  404:',
  '    code: NOT_FOUND_ITEM',
  '',
].join('\n');

test('the valid YAML base reports only its real problems', () => {
  assert.deepEqual(rows(newService().validate(docOf(GOOD_YAML, YAML_URI))), [
    ['template.unused-detail', 10, 6, 10, 12],
    ['mapping.unknown-code', 15, 10, 15, 24],
    ['mapping.precedence', 17, 2, 17, 5],
  ]);
});

test('YAML: an under-indented details key gets its yaml.syntax, not schema.unknown-key as a key of the entry', () => {
  const bad = GOOD_YAML.replace('      reason: string', '     reason: string');
  assert.deepEqual(threeWays(GOOD_YAML, bad, YAML_URI), [
    ['yaml.syntax', 10, 0, 10, 1],
    ['mapping.unknown-code', 15, 10, 15, 24],
    ['mapping.precedence', 17, 2, 17, 5],
  ]);
});

test('YAML: an under-indented key in the middle of an entry: its value and the keys after it get only yaml.syntax, the entry no whole-entry verdict', () => {
  const bad = GOOD_YAML.replace('    maps_from_http: [404]', '   maps_from_http: [404]');
  // Before: code.name-format and schema.type on maps_from_http, schema.required and code.name-format on details read
  // as codes, schema.unknown-key on item_id, template.unknown-placeholder on NOT_FOUND_ITEM's template.
  assert.deepEqual(threeWays(GOOD_YAML, bad, YAML_URI), [
    ['yaml.syntax', 7, 0, 7, 1],
    ['yaml.syntax', 8, 0, 8, 1],
    // maps_from_http was rejected with its key, so 404 is no longer claimed twice (no mapping.precedence).
    ['mapping.unknown-code', 15, 10, 15, 24],
  ]);
});

test('YAML: several under-indented keys, in error_codes and in error_mapping: one yaml.syntax each; the rest is still checked', () => {
  const bad = GOOD_YAML.replace('      reason: string', '     reason: string')
    .replace('    condition: "response.status == 409"', '   condition: "response.status == 409"')
    .replace('    category: CONFLICT', '    category: CONFLICTS');
  assert.deepEqual(threeWays(GOOD_YAML, bad, YAML_URI), [
    ['yaml.syntax', 10, 0, 10, 1],
    ['code.unknown-category', 12, 14, 12, 23],
    ['mapping.unknown-code', 15, 10, 15, 24],
    ['yaml.syntax', 16, 0, 16, 1],
    ['mapping.precedence', 17, 2, 17, 5],
  ]);
});

test('YAML: an under-indented key in a list entry (read as an entry of its own): its yaml.syntax only, no verdict that rests on that phantom entry', () => {
  const good = [
    'name: tracker',
    'type: adapter',
    'error_mapping:',
    '  403:',
    '    - condition: "response.body.x == 1"',
    '      code: PERMISSION_DENIED',
    '      description: blocked',
    '    - code: PERMISSION_DENIED',
    '',
  ].join('\n');
  const bad = good.replace('      description: blocked', '     description: blocked');
  // Before: schema.required (no code) on the phantom entry, mapping.unreachable-entry on the entry after it.
  assert.deepEqual(threeWays(good, bad, YAML_URI), [['yaml.syntax', 7, 0, 7, 1]]);
});
