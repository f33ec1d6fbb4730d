/**
 * Quick fixes of template.*: every edit asserted exactly (text under the range → new text), the
 * whole fixed text compared, and the fixed text re-checked clean of the diagnostic.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic } from 'vscode-languageserver-types';
import { check, codesIn, editsOf, fixture, newService, yamlDoc, type Fixture, fixesOf } from './helpers';
import { applyEdits } from './helpers';

const CODE = ['error_codes:', '  VALIDATION_X:', '    category: VALIDATION'];

/** The fix titled `title` (or the preferred one): its edits as [text under range, new text], and the result. */
function fix(f: Fixture, code: string, title?: string, nth = 0) {
  const { ds, service } = check(f, code);
  const d: Diagnostic | undefined = ds[nth];
  assert.ok(d, `no ${code} in:\n${f.doc.getText()}`);
  const actions = fixesOf(service, f.doc, d.range, { diagnostics: [d] });
  const a = title ? actions.find(x => x.title === title) : actions.find(x => x.isPreferred);
  assert.ok(a, `no fix ${title ?? '(preferred)'} among: ${actions.map(x => x.title).join(' | ')}`);
  const edits = editsOf(a, f.doc.uri);
  return {
    titles: actions.map(x => x.title),
    preferred: actions.filter(x => x.isPreferred).map(x => x.title),
    edits: edits.map(e => [f.doc.getText(e.range), e.newText]),
    text: applyEdits(f.doc, edits),
  };
}
const clean = (text: string, code: string) =>
  assert.deepEqual(
    codesIn(newService(), text).filter(c => c === code),
    [],
    text,
  );

// ---- template.unknown-placeholder ------------------------------------------------------------

test('unknown-placeholder: the fix list, and declaring an integer operation parameter is preferred', () => {
  const f = fixture(
    yamlDoc(
      'operations:',
      '  read:',
      '    - name: list_issues',
      '      params:',
      '        page:',
      '          type: integer',
      ...CODE,
      '    message_template: "Bad \'{label}\' on page [[{page}]]"',
      '    details:',
      '      label: string',
    ),
  );
  const r = fix(f, 'template.unknown-placeholder');
  assert.deepEqual(r.titles, ["Declare 'page: integer' in details", "Remove '{page}' from the template"]);
  assert.deepEqual(r.preferred, ["Declare 'page: integer' in details"]);
  assert.deepEqual(r.edits, [['', '      page: integer\n']]);
  assert.ok(r.text.endsWith('    details:\n      label: string\n      page: integer\n'));
  assert.deepEqual(codesIn(newService(), r.text), []);
});

test('unknown-placeholder: rename to the closest key is preferred when the key is no parameter', () => {
  const f = fixture(yamlDoc(...CODE, '    message_template: "Bad \'[[{feild}]]\'"', '    details: { field: string, other: string }'));
  const r = fix(f, 'template.unknown-placeholder');
  assert.deepEqual(r.preferred, ["Change to '{field}'"]);
  assert.deepEqual(r.edits, [['{feild}', '{field}']]);
  clean(r.text, 'template.unknown-placeholder');
});

test('unknown-placeholder: declare into flow maps, flow and block lists, an empty details:, and none', () => {
  const cases: [string[], string[]][] = [
    [['    details: { a: string }'], ['    details: { a: string, b: string }']],
    [['    details: {}'], ['    details: {b: string}']],
    [['    details: [a]'], ['    details: [a, b]']],
    [
      ['    details:', '      - a'],
      ['    details:', '      - a', '      - b'],
    ],
    [
      ['    details:', '    description: d'],
      ['    details:', '      b: string', '    description: d'],
    ],
    [['    description: d'], ['    description: d', '    details:', '      b: string']],
  ];
  for (const [before, after] of cases) {
    const hasA = before.some(l => /\ba\b/.test(l));
    const tpl = hasA ? `    message_template: "'{a}' '[[{b}]]'"` : `    message_template: "'[[{b}]]'"`;
    const f = fixture(yamlDoc(...CODE, tpl, ...before));
    const r = fix(f, 'template.unknown-placeholder', "Declare 'b: string' in details");
    assert.equal(r.text, yamlDoc(...CODE, tpl.replace(/\[\[|\]\]/g, ''), ...after), before.join('\n'));
    assert.deepEqual(codesIn(newService(), r.text), [], r.text);
  }
});

test('unknown-placeholder in a mapping entry: its own details are created, single and list entries', () => {
  const single = fixture(
    yamlDoc('error_mapping:', '  404:', '    code: NOT_FOUND_RESOURCE', `    message_template: "No repo '[[{repo}]]'"`),
  );
  const r1 = fix(single, 'template.unknown-placeholder');
  assert.deepEqual(r1.edits, [['', '    details:\n      repo: string\n']]);
  assert.deepEqual(codesIn(newService(), r1.text), []);
  const list = fixture(
    yamlDoc(
      'error_mapping:',
      '  403:',
      '    - condition: "response.status == 403"',
      '      code: PERMISSION_DENIED',
      `      message_template: "No '[[{who}]]'"`,
      '    - code: PERMISSION_DENIED',
    ),
  );
  const r2 = fix(list, 'template.unknown-placeholder', "Declare 'who: string' in details");
  assert.equal(
    r2.text,
    yamlDoc(
      'error_mapping:',
      '  403:',
      '    - condition: "response.status == 403"',
      '      code: PERMISSION_DENIED',
      `      message_template: "No '{who}'"`,
      '      details:',
      '        who: string',
      '    - code: PERMISSION_DENIED',
    ),
  );
  assert.deepEqual(codesIn(newService(), r2.text), []);
});

test('unknown-placeholder: remove takes the wrapping quotes and one space along, in every style', () => {
  const cases: [string, string][] = [
    [`    message_template: "Bad '[[{x}]]' here"`, '    message_template: "Bad here"'],
    [`    message_template: "'[[{x}]]' is bad"`, '    message_template: "is bad"'],
    [`    message_template: 'Bad ''[[{x}]]'', ok'`, "    message_template: 'Bad, ok'"],
    [`    message_template: Bad [[{x}]] here`, '    message_template: Bad here'],
    [`    message_template: "Bad [[{x}]]"`, '    message_template: "Bad"'],
  ];
  for (const [line, want] of cases) {
    const f = fixture(yamlDoc(...CODE, line));
    const r = fix(f, 'template.unknown-placeholder', "Remove '{x}' from the template");
    assert.equal(r.text, yamlDoc(...CODE, want), line);
    assert.deepEqual(codesIn(newService(), r.text), [], r.text);
  }
});

test('unknown-placeholder: a fix for a stale diagnostic (text changed under it) offers nothing', () => {
  const f = fixture(yamlDoc(...CODE, '    message_template: "Bad \'[[{x}]]\'"'));
  const { ds, service } = check(f, 'template.unknown-placeholder');
  const moved = {
    ...ds[0]!,
    range: { start: ds[0]!.range.start, end: { ...ds[0]!.range.end, character: ds[0]!.range.end.character - 1 } },
  };
  assert.deepEqual(
    fixesOf(service, f.doc, moved.range, { diagnostics: [moved] }).filter(a => a.title.includes('{x}')),
    [],
  );
});

// ---- template.unused-detail --------------------------------------------------------------------

test('unused-detail: use it — appended inside the quotes in every scalar style', () => {
  const cases: [string[], string[]][] = [
    [['    message_template: "Bad"'], [`    message_template: "Bad '{k}'"`]],
    [["    message_template: 'Bad'"], ["    message_template: 'Bad ''{k}'''"]],
    [['    message_template: Bad thing # note'], ["    message_template: Bad thing '{k}' # note"]],
    [
      ['    message_template: |', '      Bad thing', ''],
      ['    message_template: |', "      Bad thing '{k}'", ''],
    ],
    [
      ['    message_template: >-', '      Bad', '      thing'],
      ['    message_template: >-', '      Bad', "      thing '{k}'"],
    ],
  ];
  for (const [tpl, want] of cases) {
    const f = fixture(yamlDoc(...CODE, ...tpl, '    details:', '      [[k]]: string'));
    const r = fix(f, 'template.unused-detail', "Use '{k}' in the message template");
    assert.deepEqual(r.preferred, [], 'neither using nor removing an unused key is clearly the fix');
    assert.equal(r.text, yamlDoc(...CODE, ...want, '    details:', '      k: string'), tpl.join('\n'));
    assert.deepEqual(codesIn(newService(), r.text), [], r.text);
  }
});

test('unused-detail: remove the key — block middle, block with an object spec, flow middle and last', () => {
  const tpl = `    message_template: "'{a}' '{c}'"`;
  const cases: [string[], string[]][] = [
    [
      ['    details:', '      a: string', '      [[b]]: string', '      c: string'],
      ['    details:', '      a: string', '      c: string'],
    ],
    [
      ['    details:', '      a: string', '      [[b]]:', '        type: integer', '        required: true', '      c: string'],
      ['    details:', '      a: string', '      c: string'],
    ],
    [['    details: { a: string, [[b]]: string, c: string }'], ['    details: { a: string, c: string }']],
    [['    details: { a: string, c: string, [[b]]: { type: integer } }'], ['    details: { a: string, c: string }']],
  ];
  for (const [before, after] of cases) {
    const f = fixture(yamlDoc(...CODE, tpl, ...before));
    const r = fix(f, 'template.unused-detail', "Remove details key 'b'");
    assert.equal(r.text, yamlDoc(...CODE, tpl, ...after), before.join('\n'));
    assert.deepEqual(codesIn(newService(), r.text), [], r.text);
  }
});

test('unused-detail: removing the only key removes the whole details entry (block and flow)', () => {
  for (const details of [['    details:', '      [[k]]: string'], ['    details: { [[k]]: string }']]) {
    const f = fixture(yamlDoc(...CODE, '    message_template: "Bad"', ...details, '    description: d'));
    const r = fix(f, 'template.unused-detail', "Remove details key 'k'");
    assert.equal(r.text, yamlDoc(...CODE, '    message_template: "Bad"', '    description: d'));
    assert.deepEqual(codesIn(newService(), r.text), []);
  }
});

test("unused-detail in a mapping entry's own details", () => {
  const f = fixture(
    yamlDoc(
      'error_mapping:',
      '  404:',
      '    code: NOT_FOUND_RESOURCE',
      `    message_template: "No '{resource_id}'"`,
      '    details:',
      '      [[extra]]: string',
    ),
  );
  const r = fix(f, 'template.unused-detail', "Use '{extra}' in the message template");
  assert.deepEqual(r.edits, [['', " '{extra}'"]]);
  assert.deepEqual(codesIn(newService(), r.text), []);
  const r2 = fix(f, 'template.unused-detail', "Remove details key 'extra'");
  assert.equal(r2.text, yamlDoc('error_mapping:', '  404:', '    code: NOT_FOUND_RESOURCE', `    message_template: "No '{resource_id}'"`));
  assert.deepEqual(codesIn(newService(), r2.text), []);
});

// ---- template.unquoted-placeholder ---------------------------------------------------------------

test('unquoted-placeholder: wrap in quotes, written as the scalar style needs', () => {
  const cases: [string, string][] = [
    ['    message_template: "Bad [[{k}]] here"', `    message_template: "Bad '{k}' here"`],
    ["    message_template: 'It''s [[{k}]]'", "    message_template: 'It''s ''{k}'''"],
    ['    message_template: Bad [[{k}]] here', "    message_template: Bad '{k}' here"],
    ['    message_template: "[[{k}]] is bad"', `    message_template: "'{k}' is bad"`],
  ];
  for (const [line, want] of cases) {
    const f = fixture(yamlDoc(...CODE, line, '    details: { k: string }'));
    const r = fix(f, 'template.unquoted-placeholder');
    assert.equal(r.edits.length, 1);
    assert.equal(r.text, yamlDoc(...CODE, want, '    details: { k: string }'), line);
    assert.deepEqual(codesIn(newService(), r.text), [], r.text);
  }
  const folded = fixture(yamlDoc(...CODE, '    message_template: >', '      Bad [[{k}]]', '      here', '    details: { k: string }'));
  const r = fix(folded, 'template.unquoted-placeholder');
  assert.equal(r.text, yamlDoc(...CODE, '    message_template: >', "      Bad '{k}'", '      here', '    details: { k: string }'));
  assert.deepEqual(codesIn(newService(), r.text), []);
});

// ---- template.flow-mapping ---------------------------------------------------------------------

test('flow-mapping: quote the template with double quotes, escaping " and \\', () => {
  const cases: [string, string][] = [
    ['    message_template: [[{k}]]', '    message_template: "{k}"'],
    ['    message_template: [[{k} happened]] # why', '    message_template: "{k} happened" # why'],
    ['    message_template: [[{k}: "bad" \\ x]]', '    message_template: "{k}: \\"bad\\" \\\\ x"'],
  ];
  for (const [line, want] of cases) {
    const f = fixture(yamlDoc(...CODE, line, '    details: { k: integer }'));
    const { ds } = check(f, 'template.flow-mapping');
    assert.deepEqual(
      ds.map(d => d.range),
      f.spans,
      line,
    );
    const r = fix(f, 'template.flow-mapping');
    assert.equal(r.text, yamlDoc(...CODE, want, '    details: { k: integer }'), line);
    assert.deepEqual(codesIn(newService(), r.text), [], r.text);
  }
});

test('flow-mapping: an unclosed { squiggles its line only; the fix quotes that line', () => {
  const f = fixture(yamlDoc(...CODE, '    message_template: [[{k]]  # c', '    details: { k: string }'));
  const { ds } = check(f, 'template.flow-mapping');
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
  );
  const r = fix(f, 'template.flow-mapping');
  assert.deepEqual(r.edits, [['{k', '"{k"']]);
  const after = codesIn(newService(), r.text);
  assert.ok(!after.includes('template.flow-mapping') && !after.includes('yaml.syntax'), after.join());
  assert.ok(after.includes('template.malformed-placeholder'));
});

test('flow-mapping in a mapping entry; a real multi-line flow mapping gets no quoting fix', () => {
  const f = fixture(yamlDoc('error_mapping:', '  404:', '    code: NOT_FOUND_RESOURCE', '    message_template: [[{resource_id}]]'));
  const r = fix(f, 'template.flow-mapping');
  assert.equal(r.text, yamlDoc('error_mapping:', '  404:', '    code: NOT_FOUND_RESOURCE', '    message_template: "{resource_id}"'));
  clean(r.text, 'template.flow-mapping');
  const multi = fixture(yamlDoc(...CODE, '    message_template: [[{ a: 1,', '      b: 2 }]]'));
  const { ds, service } = check(multi, 'template.flow-mapping');
  assert.deepEqual(
    ds.map(d => d.range),
    multi.spans,
  );
  assert.deepEqual(fixesOf(service, multi.doc, ds[0]!.range, { diagnostics: [ds[0]!] }), []);
});

test('unknown-placeholder: declare in a flow-style entry adds a flow details map; nested and commented block details', () => {
  const f = fixture(yamlDoc('error_codes:', `  VALIDATION_X: { category: VALIDATION, message_template: "'[[{b}]]'" }`));
  const r = fix(f, 'template.unknown-placeholder', "Declare 'b: string' in details");
  assert.equal(
    r.text,
    yamlDoc('error_codes:', `  VALIDATION_X: { category: VALIDATION, message_template: "'{b}'", details: { b: string } }`),
  );
  assert.deepEqual(codesIn(newService(), r.text), []);
  const g = fixture(
    yamlDoc(
      ...CODE,
      `    message_template: "'{a}' '[[{b}]]'"`,
      '    details:',
      '      a:',
      '        type: string',
      '      # note',
      '    description: d',
    ),
  );
  const r2 = fix(g, 'template.unknown-placeholder', "Declare 'b: string' in details");
  assert.equal(
    r2.text,
    yamlDoc(
      ...CODE,
      `    message_template: "'{a}' '{b}'"`,
      '    details:',
      '      a:',
      '        type: string',
      '      b: string',
      '      # note',
      '    description: d',
    ),
  );
  assert.deepEqual(codesIn(newService(), r2.text), []);
});
