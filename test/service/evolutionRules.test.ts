/**
 * Every rule of the change table on its smallest case (one before/after pair per rule,
 * asserting the exact list of changes), plus the table's own invariants and the cases a diff must
 * not report (a code moved to another file, aliases and merge keys followed).
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { CHANGE_RULE_INFO, CHANGE_RULES, mirrorsOf, type ChangeRule, type ContractChange } from '../../server/src/service';
import { newService, ROOT } from './helpers';

const doc = (text: string, name = 'a.adapter.yaml', side = 'new') => ({
  doc: TextDocument.create(`file:///${side}/${name}`, 'yaml', 1, text),
  fileKey: name,
});

const service = newService();

/** before/after are error_codes + error_mapping bodies of one file. */
export function diff(before: string | Record<string, string>, after: string | Record<string, string>): ContractChange[] {
  const files = (x: string | Record<string, string>, side: string) =>
    Object.entries(typeof x === 'string' ? { 'a.adapter.yaml': x } : x).map(([n, t]) => doc(t, n, side));
  return service.diffContracts(files(before, 'old'), files(after, 'new'));
}

const code = (body: string) => `error_codes:\n  NOT_FOUND_ORDER:\n    category: NOT_FOUND\n${body}`;
const BASE = code(`    message_template: "Order '{order_id}' not found"\n    details:\n      order_id: { type: string, required: true }\n`);
const map = (body: string) => `name: shop\nerror_mapping:\n${body}`;

/** rule → [before, after, the change's subject and before/after]. */
const CASES: Record<ChangeRule, [string | Record<string, string>, string | Record<string, string>, Partial<ContractChange>]> = {
  'adapter.added': [{}, { 'b.adapter.yaml': 'name: shop\n' }, { adapter: 'shop' }],
  'adapter.removed': [{ 'b.adapter.yaml': 'name: shop\n' }, {}, { adapter: 'shop' }],
  'code.added': ['error_codes: {}\n', BASE, { code: 'NOT_FOUND_ORDER' }],
  'code.removed': [BASE, 'error_codes: {}\n', { code: 'NOT_FOUND_ORDER' }],
  'code.category-changed': [
    code('    category: NOT_FOUND\n'),
    code('    category: CONFLICT\n').replace('    category: NOT_FOUND\n', ''),
    { code: 'NOT_FOUND_ORDER', before: 'NOT_FOUND', after: 'CONFLICT' },
  ],
  'code.description-changed': [
    code('    description: a\n'),
    code('    description: b\n'),
    { code: 'NOT_FOUND_ORDER', before: 'a', after: 'b' },
  ],
  'code.retry-changed': [
    code(''),
    code('    retry: do-not-retry\n'),
    { code: 'NOT_FOUND_ORDER', before: "retry-after-change (NOT_FOUND's default)", after: 'do-not-retry' },
  ],
  'code.condition-changed': [
    code(''),
    code('    condition: "response.status == 404"\n'),
    { code: 'NOT_FOUND_ORDER', before: '(none)', after: 'response.status == 404' },
  ],
  'code.status-added': [code(''), code('    maps_from_http: [404]\n'), { code: 'NOT_FOUND_ORDER', status: '404' }],
  'code.status-removed': [code('    maps_from_http: [404]\n'), code(''), { code: 'NOT_FOUND_ORDER', status: '404' }],
  // 404 is claimed, but the unconditional 4XX entry answers every 4xx before a code without a condition is tried.
  'code.shadowed-status-added': [
    code('') + map('  4XX:\n    code: VALIDATION_INVALID_TYPE\n'),
    code('    maps_from_http: [404]\n') + map('  4XX:\n    code: VALIDATION_INVALID_TYPE\n'),
    { code: 'NOT_FOUND_ORDER', status: '404', severity: 'dangerous', after: 'error_mapping[4XX]' },
  ],
  'code.shadowed-status-removed': [
    code('    maps_from_http: [404]\n') + map('  4XX:\n    code: VALIDATION_INVALID_TYPE\n'),
    code('') + map('  4XX:\n    code: VALIDATION_INVALID_TYPE\n'),
    { code: 'NOT_FOUND_ORDER', status: '404', severity: 'safe' },
  ],
  'details.key-added': [
    code(''),
    code('    details:\n      order_id: { type: string, required: false }\n'),
    { code: 'NOT_FOUND_ORDER', key: 'order_id' },
  ],
  'details.required-added': [
    code('    details:\n      order_id: { type: string, required: false }\n'),
    code('    details:\n      order_id: string\n'),
    { code: 'NOT_FOUND_ORDER', key: 'order_id', before: 'optional', after: 'required' },
  ],
  'details.key-removed': [code('    details:\n      order_id: string\n'), code(''), { code: 'NOT_FOUND_ORDER', key: 'order_id' }],
  'details.required-removed': [
    code('    details:\n      order_id: string\n'),
    code('    details:\n      order_id: { type: string, required: false }\n'),
    { code: 'NOT_FOUND_ORDER', key: 'order_id', before: 'required', after: 'optional' },
  ],
  'details.type-changed': [
    code('    details:\n      n: string\n'),
    code('    details:\n      n: integer\n'),
    { code: 'NOT_FOUND_ORDER', key: 'n', before: 'string', after: 'integer' },
  ],
  'details.type-widened': [
    code('    details:\n      n: integer\n'),
    code('    details:\n      n: number\n'),
    { code: 'NOT_FOUND_ORDER', key: 'n', before: 'integer', after: 'number' },
  ],
  'details.type-narrowed': [
    code('    details:\n      n: number\n'),
    code('    details:\n      n: integer\n'),
    { code: 'NOT_FOUND_ORDER', key: 'n', before: 'number', after: 'integer' },
  ],
  'details.enum-value-added': [
    code('    details:\n      s: { type: string, enum: [a] }\n'),
    code('    details:\n      s: { type: string, enum: [a, b] }\n'),
    { code: 'NOT_FOUND_ORDER', key: 's', before: '"a"', after: '"a", "b"' },
  ],
  'details.enum-value-removed': [
    code('    details:\n      s: { type: string, enum: [a, b] }\n'),
    code('    details:\n      s: { type: string, enum: [a] }\n'),
    { code: 'NOT_FOUND_ORDER', key: 's', before: '"a", "b"', after: '"a"' },
  ],
  'template.added': [code(''), code('    message_template: "Not found"\n'), { code: 'NOT_FOUND_ORDER', after: 'Not found' }],
  'template.removed': [code('    message_template: "Not found"\n'), code(''), { code: 'NOT_FOUND_ORDER', before: 'Not found' }],
  'template.placeholder-added': [
    code('    message_template: "Not found"\n'),
    code('    message_template: "Not found: {id}"\n'),
    { code: 'NOT_FOUND_ORDER', before: 'Not found', after: 'Not found: {id}' },
  ],
  'template.placeholder-removed': [
    code('    message_template: "Not found: {id}"\n'),
    code('    message_template: "Not found"\n'),
    { code: 'NOT_FOUND_ORDER', before: 'Not found: {id}', after: 'Not found' },
  ],
  'template.text-changed': [
    code('    message_template: "Not found: {id}"\n'),
    code('    message_template: "No such order: {id}"\n'),
    { code: 'NOT_FOUND_ORDER', before: 'Not found: {id}', after: 'No such order: {id}' },
  ],
  'mapping.status-added': [
    map('  400:\n    code: VALIDATION_INVALID_TYPE\n'),
    map('  400:\n    code: VALIDATION_INVALID_TYPE\n  401:\n    code: PERMISSION_DENIED\n'),
    { adapter: 'shop', status: '401', after: 'PERMISSION_DENIED' },
  ],
  'mapping.status-removed': [
    map('  400:\n    code: VALIDATION_INVALID_TYPE\n  401:\n    code: PERMISSION_DENIED\n'),
    map('  400:\n    code: VALIDATION_INVALID_TYPE\n'),
    { adapter: 'shop', status: '401', before: 'PERMISSION_DENIED' },
  ],
  'mapping.status-retargeted': [
    map('  401:\n    code: PERMISSION_DENIED\n'),
    map('  401:\n    code: INTERNAL_ERROR\n'),
    { adapter: 'shop', status: '401', before: 'PERMISSION_DENIED', after: 'INTERNAL_ERROR' },
  ],
  'mapping.entry-added': [
    map('  400:\n    - code: VALIDATION_INVALID_TYPE\n'),
    map('  400:\n    - condition: "response.body.x == 1"\n      code: VALIDATION_MISSING_PARAM\n    - code: VALIDATION_INVALID_TYPE\n'),
    { adapter: 'shop', status: '400', code: 'VALIDATION_MISSING_PARAM', after: 'response.body.x == 1' },
  ],
  'mapping.entry-removed': [
    map('  400:\n    - condition: "response.body.x == 1"\n      code: VALIDATION_MISSING_PARAM\n    - code: VALIDATION_INVALID_TYPE\n'),
    map('  400:\n    - code: VALIDATION_INVALID_TYPE\n'),
    { adapter: 'shop', status: '400', code: 'VALIDATION_MISSING_PARAM', before: 'response.body.x == 1' },
  ],
  'mapping.condition-changed': [
    map('  400:\n    condition: "response.body.x == 1"\n    code: VALIDATION_INVALID_TYPE\n'),
    map('  400:\n    condition: "response.body.x == 2"\n    code: VALIDATION_INVALID_TYPE\n'),
    { adapter: 'shop', status: '400', before: 'response.body.x == 1', after: 'response.body.x == 2' },
  ],
};

for (const rule of CHANGE_RULES) {
  test(`rule ${rule} (${CHANGE_RULE_INFO[rule].severity}) on its smallest case`, () => {
    const c = CASES[rule];
    assert.ok(c, `a case for ${rule}`);
    const changes = diff(c[0], c[1]);
    assert.deepEqual(
      changes.map(x => x.rule),
      [rule],
      JSON.stringify(changes, null, 1),
    );
    const got = changes[0]!;
    assert.equal(got.severity, CHANGE_RULE_INFO[rule].severity);
    for (const [k, v] of Object.entries(c[2])) assert.deepEqual(got[k as keyof ContractChange], v, `${rule}: ${k}`);
    // The same edit backwards is reported as one of the rule's mirrors.
    const back = diff(c[1], c[0]);
    assert.equal(back.length, 1, JSON.stringify(back));
    assert.ok(mirrorsOf(rule).includes(back[0]!.rule), `${rule} backwards gave ${back[0]!.rule}`);
  });
}

test('the rule table in docs/contract-diff.md lists every rule with its class, and nothing else', () => {
  const md = readFileSync(join(ROOT, 'docs', 'contract-diff.md'), 'utf8');
  const rows = [...md.matchAll(/^\| `([a-z.-]+)` \| (breaking|dangerous|safe) \|/gm)].map(m => [m[1], m[2]]);
  assert.deepEqual(
    rows,
    CHANGE_RULES.map(r => [r, CHANGE_RULE_INFO[r].severity]),
  );
  for (const r of CHANGE_RULES) for (const m of mirrorsOf(r)) assert.ok(mirrorsOf(m).includes(r), `${r} ↔ ${m}`);
});

test('a code moved to another file is not removed; aliases and merge keys are followed', () => {
  const details = '    details:\n      order_id: { type: string, required: true }\n';
  assert.deepEqual(
    diff(
      { 'a.adapter.yaml': code(details), 'b.adapter.yaml': 'name: b\n' },
      { 'a.adapter.yaml': 'error_codes: {}\n', 'b.adapter.yaml': `name: b\n${code(details)}` },
    ),
    [],
  );
  const aliased = [
    'base: &d',
    '  order_id: { type: string, required: true }',
    'common: &c',
    '  category: NOT_FOUND',
    'error_codes:',
    '  NOT_FOUND_ORDER:',
    '    <<: *c',
    '    details: *d',
    '',
  ].join('\n');
  assert.deepEqual(diff(code(details), aliased), []);
  // A change made through the anchor is seen where the alias is used.
  const changed = diff(
    code(details),
    aliased
      .replace('order_id: { type: string, required: true }', 'order_id: { type: integer, required: true }')
      .replace('category: NOT_FOUND', 'category: CONFLICT'),
  );
  assert.deepEqual(
    changed.map(c => [c.rule, c.key ?? '', c.before, c.after]),
    [
      ['code.category-changed', '', 'NOT_FOUND', 'CONFLICT'],
      ['details.type-changed', 'order_id', 'string', 'integer'],
    ],
  );
});

test('each change points at the line that made it in the new version, and at the old one', () => {
  const [c] = diff(code('    details:\n      n: integer\n'), code('    details:\n      n: number\n'));
  assert.deepEqual(c!.at, {
    uri: 'file:///new/a.adapter.yaml',
    range: { start: { line: 4, character: 6 }, end: { line: 4, character: 7 } },
  });
  assert.deepEqual(c!.was, {
    uri: 'file:///old/a.adapter.yaml',
    range: { start: { line: 4, character: 6 }, end: { line: 4, character: 7 } },
  });
});

test("a renamed code (its mapping retargeted from the old name to the new) still shows that code's other changes", () => {
  const before = [
    'error_codes:',
    '  NOT_FOUND_ORDER:',
    '    category: NOT_FOUND',
    '    message_template: "Order \'{order_id}\' not found"',
    '    details:',
    '      order_id: { type: string, required: true }',
    'error_mapping:',
    '  404: { code: NOT_FOUND_ORDER }',
    '',
  ].join('\n');
  const after = [
    'error_codes:',
    '  NOT_FOUND_PURCHASE:',
    '    category: NOT_FOUND',
    '    message_template: "Purchase \'{purchase_id}\' not found"',
    '    details:',
    '      purchase_id: { type: integer, required: true }',
    'error_mapping:',
    '  404: { code: NOT_FOUND_PURCHASE }',
    '  410: { code: NOT_FOUND_PURCHASE }',
    '',
  ].join('\n');
  assert.deepEqual(
    diff(before, after).map(c => `${c.rule} ${c.message}`),
    [
      'code.removed NOT_FOUND_ORDER was removed',
      'code.added NOT_FOUND_PURCHASE was added',
      'details.key-removed NOT_FOUND_PURCHASE (renamed from NOT_FOUND_ORDER) details.order_id was removed',
      'details.required-added NOT_FOUND_PURCHASE (renamed from NOT_FOUND_ORDER) details.purchase_id was added, required',
      'template.placeholder-removed NOT_FOUND_PURCHASE (renamed from NOT_FOUND_ORDER): placeholder {order_id} was removed from the message template',
      'template.placeholder-added NOT_FOUND_PURCHASE (renamed from NOT_FOUND_ORDER): placeholder {purchase_id} was added to the message template',
      'mapping.status-retargeted a.adapter.yaml: error_mapping[404] gives NOT_FOUND_PURCHASE, was NOT_FOUND_ORDER',
      'mapping.status-added a.adapter.yaml: error_mapping now maps HTTP 410 to NOT_FOUND_PURCHASE',
    ],
  );
});
