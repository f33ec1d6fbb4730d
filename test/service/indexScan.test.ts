/**
 * The fast index scan (parse/indexScan.ts) returns exactly what declaredCodes + codeOccurrences return
 * on the full model, ranges included, or falls back (undefined) where only the model can tell.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileText, pathOf } from '../../bench/genWorkspace';
import { ROOT, yamlDoc } from './helpers';
import { compare, filesUnder, read } from './indexScanHelpers';

const ANY = ['**/*'];

test('every fixture and example, as YAML, front matter and JSON: the scan equals the model or falls back', () => {
  const fastOnes = new Set<string>();
  const files = [...filesUnder(join(ROOT, 'test', 'fixtures')), ...filesUnder(join(ROOT, 'examples'))];
  assert.ok(files.length >= 25);
  for (const f of files) {
    const text = read(f);
    const name = f.slice(ROOT.length).replace(/\\/g, '/');
    const variants: [string, string][] = [[`file://${name}`, text]];
    if (/\.ya?ml$/.test(f)) variants.push([`file://${name}-adapter.md`, `---\n${text}---\n# body\n`]);
    if (/\.json$/.test(f)) variants.push([`file://${name}.adapter.json`, text]);
    if (/\.md$/.test(f)) variants.push([`file://${name}.adapter.yaml`, text]);
    for (const [uri, t] of variants) {
      const r = compare(uri, t, ANY);
      if (r.fast) {
        fastOnes.add(uri);
        assert.deepEqual(r.fast, r.full, uri);
      }
    }
  }
  // The real adapters are what the scan is for: they take it (broken examples, tabs, aliases, two documents do not).
  for (const f of [
    'corpus/MCPAQL-examples--github-api-adapter.md',
    'corpus/MCPAQL-examples--airpods-mcp-schema.json',
    'matrix/shop.adapter.yaml',
  ])
    assert.ok(fastOnes.has(`file:///test/fixtures/${f}`), f);
  assert.ok(fastOnes.has('file:///examples/weather.adapter.json'));
  assert.ok(!fastOnes.has('file:///examples/shop.adapter.yaml'), 'two documents');
  assert.ok(!fastOnes.has('file:///examples/broken/alias-bomb.adapter.yaml'), 'aliases');
  assert.ok(fastOnes.size >= 25, `${fastOnes.size} took the fast scan`);
});

test('a sample of the generated workspace (md, yaml, json) always takes the fast scan and equals the model', () => {
  for (let i = 0; i < 60; i++) {
    const r = compare(`file:///ws/${pathOf(i)}`, fileText(i, 60, i === 30));
    assert.ok(r.fast, pathOf(i));
    assert.deepEqual(r.fast, r.full, pathOf(i));
    assert.ok(r.full.declarations.length >= 3);
  }
});

test('quoted keys and codes, escapes, flow lists, comments, CRLF, same-indent lists, compact maps: exact ranges', () => {
  const texts = [
    yamlDoc(
      '# leading comment',
      '---',
      'name: x # trailing',
      'error_codes:',
      '  "QUOTED_CODE":   # comment',
      "    category: 'NOT_FOUND_'",
      '    message_template: "Say \\"{a}\\" \\u00e9 \\\\ done"',
      '    description: plain words, a:b here #not a comment',
      '    maps_from_http: [404, "409", 4xx, ~, true, [1], {a: b}]',
      '    details:',
      '      a: string',
      '      b: { type: integer, required: true, description: "B" }',
      '      c:',
      '        type: boolean',
      '        required: false',
      '        type: string',
      '  LISTED:',
      '    details: [x, "y", 3]',
      '  EMPTY:',
      "  'SINGLE''Q': ~",
      'error_mapping:',
      '  400:',
      '  - code: QUOTED_CODE',
      '  -   code: "LISTED"',
      '      condition: x',
      '  - - code: NESTED',
      '  -',
      '  "404": { code: EMPTY }',
      "  5XX: {code: 'SINGLE''Q', code: LAST}",
      '  418:',
      '    code: 12',
    ),
    'error_codes:\r\n  A_CODE:\r\n    category: VALIDATION\r\nerror_mapping:\r\n  400:\r\n    code: A_CODE\r\n',
  ];
  for (const t of texts) {
    const r = compare('file:///t.adapter.yaml', t);
    assert.ok(r.fast, t);
    assert.deepEqual(r.fast, r.full);
    assert.ok(r.full.occurrences.some(o => o.kind === 'reference'));
  }
});

test('JSON: escapes, nested values, numbers, keys named like fields', () => {
  const t = JSON.stringify(
    {
      error_codes: {
        'J\u00e9_CODE': {
          category: 'CONFLICT',
          message_template: 'a "{b}" \\ / \n',
          maps_from_http: [409, '4xx', 422, null],
          details: { b: { type: 'string', example: [1, { x: -2.5 }], required: false } },
        },
        OTHER: 1,
      },
      error_mapping: { '409': [{ code: 'J\u00e9_CODE' }, { code: 3 }, 5], '500': { code: 'OTHER' } },
    },
    null,
    1,
  );
  const withFloat = compare('file:///t.adapter.json', t.replace('422', '4.22e2'));
  assert.equal(withFloat.fast, undefined, 'a float status falls back');
  const ok = compare('file:///t.adapter.json', t);
  assert.ok(ok.fast);
  assert.deepEqual(ok.fast, ok.full);
});

test('the scan falls back on what it does not read itself', () => {
  const base = (extra: string) => yamlDoc('error_codes:', '  A:', `    category: VALIDATION`, extra);
  const fallbacks = [
    base('  B: &x { category: CONFLICT }'),
    base('  C: *x'),
    base('  D: !!str x'),
    base('  E:\n    <<: {category: X}'),
    base('  F:\n    description: |\n      block'),
    base('  G:\n    description: two\n      lines'),
    base('  H:\n    description: "two\n      lines"'),
    base('\tI: x'),
    base('  J: [a,\n    b]'),
    base('---\nK: x'),
    '%YAML 1.2\n---\nerror_codes:\n  A: {}\n',
    base('  L: x: y'),
    base('   M: odd'),
    base('  1.5: float key'),
    yamlDoc('error_codes:', '  A:', '    maps_from_http: [0x1F]'),
  ];
  for (const t of fallbacks) assert.equal(compare('file:///f.adapter.yaml', t).fast, undefined, t);
  assert.equal(compare('file:///f-adapter.md', '---\nerror_codes:\n  A: {}\n').fast, undefined, 'unclosed front matter');
  const jsonFallbacks = ['{"error_codes": {"A": {}},}', '{"a": 1 /* c */}', '{"a" : 1}', '[1]', '{"a": "\\x41"}'];
  for (const t of jsonFallbacks) assert.equal(compare('file:///f.adapter.json', t).fast, undefined, t);
});

test('no front matter, empty files and comment-only files: nothing, like the model', () => {
  for (const [uri, t] of [
    ['file:///a-adapter.md', '# just markdown\n'],
    ['file:///a.adapter.yaml', ''],
    ['file:///a.adapter.yaml', '# only a comment\n\n'],
    ['file:///a.adapter.yaml', '---\n'],
  ] as const) {
    const r = compare(uri, t);
    assert.deepEqual(r.fast, { declarations: [], occurrences: [] }, t);
    assert.deepEqual(r.fast, r.full);
  }
});

test('hostile shapes (deep nesting, long lines, many keys) fall back or equal the model, never throw', () => {
  const deepBlock = 'error_codes:\n' + Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i + 2)}k${i}:`).join('\n') + '\n';
  const deepFlow = `error_codes:\n  A: ${'['.repeat(20000)}${']'.repeat(20000)}\n`;
  const deepJson = `{"error_codes": {"A": ${'['.repeat(20000)}${']'.repeat(20000)}}}`;
  const longKey = `error_codes:\n  ${'K'.repeat(2000)}: {}\n`;
  const many = 'error_codes:\n' + Array.from({ length: 5000 }, (_, i) => `  C_${i}: { category: VALIDATION }`).join('\n') + '\n';
  for (const [uri, t] of [
    ['file:///h.adapter.yaml', deepBlock],
    ['file:///h.adapter.yaml', deepFlow],
    ['file:///h.adapter.json', deepJson],
    ['file:///h.adapter.yaml', longKey],
    ['file:///h.adapter.yaml', many],
  ] as const) {
    const r = compare(uri, t);
    if (r.fast) assert.deepEqual(r.fast, r.full, t.slice(0, 60));
  }
  assert.equal(compare('file:///h.adapter.yaml', deepFlow).fast, undefined);
  assert.equal(compare('file:///h.adapter.yaml', longKey).fast, undefined, 'a key over 1024 characters');
  assert.equal(compare('file:///h.adapter.yaml', many).fast?.declarations.length, 5000);
});
