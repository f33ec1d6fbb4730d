/**
 * Edge cases of block YAML for the fast index scan, one by one: wherever the scan answers, it equals the
 * full model (ranges included); the shapes it leaves to the model are listed and checked to fall back.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { compare } from './indexScanHelpers';

const wrap = (codeBody: string, mapBody = '  400:\n    code: C1\n') => `error_codes:\n${codeBody}error_mapping:\n${mapBody}`;
const cases = [
  wrap('  FOO   : { category: VALIDATION }\n'),
  wrap('  "FOO"  : {}\n'),
  wrap('  C1: {}\n', '  400:\n    - code:   C1   # c\n'),
  wrap('  C1: {}\n', '  400:\n    code: X:Y\n'),
  wrap('  C1:\n    description: a #b\n'),
  wrap("  C1:\n    description: 'a' #c\n"),
  wrap('  C1:\n    description: "a"#c\n'),
  wrap('  C1:\n    maps_from_http: [404, 409]  # c\n'),
  wrap('  C1:\n    details: {a: 1, b: [2, 3]}\n'),
  wrap('  C1:\n    details: [ ]\n    maps_from_http: {}\n'),
  wrap('  C1:\n    details: [a,b]\n'),
  wrap('  C1:\n    details: {a:b}\n'),
  wrap('  C1:\n    details: [a, b,]\n'),
  wrap('  C1:   \n    category: X   \n'),
  wrap('  C1:\n\n    category: X\n# col0\n    description: d\n'),
  wrap('  on: {}\n  yes: {}\n  ~: {}\n  null: {}\n  404: {}\n  true: {}\n  True: {}\n  NULL: {}\n'),
  wrap('  C1:\n    maps_from_http: [-1, 0x10, 1_000, .5, +1, 1e3, 0o7, 007, "007", 5xx, 5XX, 6xx]\n'),
  wrap('  C1:\n    maps_from_http:\n    - 404\n    - "4xx"\n    -\n    - [1]\n'),
  wrap(
    '  C1:\n    required: yes\n    details:\n      a: {type: string, required: True}\n      b: {type: 1, required: "true"}\n      c: ~\n      d: [x]\n',
  ),
  wrap('  C1:\n    category: 12\n    message_template: 13\n    description: 14\n'),
  wrap("  C1:\n    category: VALIDATION_\n    message_template: 'it''s {x}'\n"),
  wrap('  C1: {}\n', '  400: { code: C1 }\n  "401": [{code: C1}, {code: "C1"}]\n  4XX:\n  - code: \'C1\'\n'),
  wrap('  C1: {}\n', '  400:\n  - code: C1\n  401:\n  -   code: C1\n      message_template: x\n'),
  wrap('  C1: {}\n', '  400:\n    - - code: C1\n'),
  wrap('  C1: {}\n', '  400:\n    -\n      code: C1\n'),
  wrap('  C1: {}\n', '  400:\n    code: C1\n    code: C2\n'),
  wrap('  C1: {}\n', '  400:\n    code: C1\n    code: 12\n'),
  '---\n' + wrap('  C1: {}\n') + '...\n',
  wrap('  C1: {}\n') + '---\nerror_codes:\n  C2: {}\n',
  'error_codes:\n  C1: {}\nerror_codes:\n  C2: {}\n',
  'error_codes: {C1: {category: VALIDATION}, C2: {}}\nerror_mapping: {400: {code: C1}}\n',
  'error_codes:\n  C1:\n    category:\n      VALIDATION\n',
  'error_codes:\n  C1:\n    category:\n    - VALIDATION\n',
  'error_codes:\n- C1\n',
  'error_codes:\n  C1: {}\n  C2: x\n  C3: [a]\n',
  'error_codes:\n  "C\\u0031": {}\n  \'C 2\': {}\n  C 3: {}\n  C-4.x: {}\n',
  'error_codes:\n  C1: {}\n # indented comment\n  C2: {}\n',
  'error_codes:\n  C1: {}\n   # deeper comment\n  C2: {}\n',
  'error_codes:\n  C1:\n      category: X\n      description: y\n  C2: {}\n',
  'error_codes:\n  C1:\n      category: X\n    description: y\n',
  'error_codes:\n    C1: {}\n  C2: {}\n',
  'a:\n  b: 1\n error_codes:\n  C1: {}\n',
  'error_codes: \n  C1: {}\n',
  'error_codes:   # c\n  C1: {}\n',
  'error_codes:\n  C1: {} # c\n',
  'error_codes:\n  C1: {}  \n',
  'error_codes:\n  C1: {} x\n',
  'error_codes:\n  C1: [] []\n',
  'error_codes:\n  C1: "a" "b"\n',
  'error_codes:\n  C1: a "b"\n',
  'error_codes:\n  C1: @x\n',
  'error_codes:\n  C1: `x\n',
  'error_codes:\n  C1: %x\n',
  'error_codes:\n  C1: x%\n',
  'error_codes:\n  C1: -x\n  C2: ?x\n  C3: :x\n',
  'error_codes:\n  C1: { category: X }\n  C2: { category: X, }\n',
  'error_codes:\n  C1: { category: "X" , description: d }\n',
  'error_codes:\n  C1: {category: X ,description: d}\n',
  'error_codes:\n  C1: [a , b]\n',
  'error_codes:\n  C1: { a: [b, {c: d}] }\n',
  'error_codes:\n  C1: { "a": b }\n',
  'error_codes:\n  C1: { a: "b:c" }\n',
  'error_codes:\n  C1: { a: b c }\n',
  'error_codes:\n  C1: { a: b#c }\n',
  'error_codes:\n  C1: { a b: c }\n',
  'error_codes:\n  C1: [a: b]\n',
  'error_codes:\n  C1: {a}\n',
  'error_codes:\n  C1: {a: }\n',
  'error_codes:\n  C1: {: a}\n',
  'error_codes:\n  C1: [~, null, , ]\n',
  'error_codes:\n  C1:\n    message_template: "\\x41 \\e \\N \\_"\n',
  'error_codes:\n  C1:\n    message_template: "a\\\n      b"\n',
  'error_codes:\n  C1:\n    message_template: "\\ud83d\\ude00 \\u00E9"\n',
  'error_codes:\n  C1:\n    message_template: "😀 é"\n',
  'error_codes:\n  C1:\n    message_template: "a\u00a0b"\n',
  'error_codes:\n  C1: {}\nerror_mapping:\n  400: [{code: C1}]\n',
  'error_codes:\n  C1: {}\nerror_mapping:\n  ? 400\n  : code: C1\n',
  'error_codes:\n  C1: {}\nerror_mapping:\n  [400]: {code: C1}\n',
  'error_codes:\n  C1: {}\nerror_mapping:\n  400:\n    code: >\n      C1\n',
];

/** Indexes of `cases` the scan leaves to the model (a syntax error, a second document, a form it does not read). */
const FALLBACKS = [6, 11, 12, 16, 27, 28, 39, 40, 41, 46, 47, 48, 50, 51, 52, 54, 55, 63, 65, 66, 67, 68, 69, 70, 71, 76, 77, 78];

test('edge cases of block YAML, as .yaml and as front matter: equal to the model, or a listed fallback', () => {
  cases.forEach((t, i) => {
    for (const [uri, text] of [
      ['file:///e.adapter.yaml', t],
      ['file:///e-adapter.md', `---\n${t}---\n`],
    ] as const) {
      const r = compare(uri, text);
      if (uri.endsWith('.yaml')) assert.equal(!r.fast, FALLBACKS.includes(i), `case ${i}: ${t}`);
      if (r.fast) assert.deepEqual(r.fast, r.full, `case ${i} (${uri}): ${t}`);
    }
  });
});
