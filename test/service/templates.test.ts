import test from 'node:test';
import assert from 'node:assert/strict';
import { applyFix, check, codesIn, fixture, newService, readCorpus, yamlDoc } from './helpers';
import { createWorkspaceIndex } from '../../server/src/service';

const only = (service: ReturnType<typeof newService>, text: string, code: string) => codesIn(service, text).filter(c => c === code);

test('template.unknown-placeholder on the braces; rename to the closest key is preferred', () => {
  const f = fixture(
    yamlDoc(
      'error_codes:',
      '  NOT_FOUND_REPO:',
      '    category: NOT_FOUND',
      `    message_template: "Repository '{owner}/[[{repos}]]' not found"`,
      '    details: { owner: string, repo: string }',
    ),
  );
  const { ds, service } = check(f, 'template.unknown-placeholder');
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
  );
  const fixed = applyFix(service, f.doc, ds[0]!);
  assert.ok(fixed.includes(`'{owner}/{repo}'`));
  assert.deepEqual(only(newService(), fixed, 'template.unknown-placeholder'), []);
});

test('declaring an operation parameter is preferred: block details get a new line', () => {
  const f = fixture(
    yamlDoc(
      'operations:',
      '  read:',
      '    - name: get_repo',
      '      maps_to: "GET /repos/{owner}/{repo}"',
      'error_codes:',
      '  NOT_FOUND_REPO:',
      '    category: NOT_FOUND',
      `    message_template: "Repository '{owner}/[[{repo}]]' not found"`,
      '    details:',
      '      owner: string',
    ),
  );
  const { ds, service } = check(f, 'template.unknown-placeholder');
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
  );
  const fixed = applyFix(service, f.doc, ds[0]!);
  assert.ok(fixed.endsWith('    details:\n      owner: string\n      repo: string\n'), fixed);
  assert.deepEqual(only(newService(), fixed, 'template.unknown-placeholder'), []);
});

test('declare fix: flow details, no details at all, and remove', () => {
  const flow = fixture(
    yamlDoc(
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      "    message_template: \"'{a}' '{b}'\"",
      '    details: { a: string }',
    ),
  );
  const r1 = check(flow, 'template.unknown-placeholder');
  assert.equal(
    applyFix(r1.service, flow.doc, r1.ds[0]!, "Declare 'b: string' in details"),
    yamlDoc(
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      "    message_template: \"'{a}' '{b}'\"",
      '    details: { a: string, b: string }',
    ),
  );
  const none = fixture(yamlDoc('error_codes:', '  VALIDATION_X:', '    category: VALIDATION', '    message_template: "Bad \'{field}\'"'));
  const r2 = check(none, 'template.unknown-placeholder');
  const fixed = applyFix(r2.service, none.doc, r2.ds[0]!);
  assert.equal(
    fixed,
    yamlDoc(
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      '    message_template: "Bad \'{field}\'"',
      '    details:',
      '      field: string',
    ),
  );
  assert.deepEqual(codesIn(newService(), fixed), []);
  assert.equal(
    applyFix(r2.service, none.doc, r2.ds[0]!, "Remove '{field}' from the template"),
    yamlDoc('error_codes:', '  VALIDATION_X:', '    category: VALIDATION', '    message_template: "Bad"'),
  );
});

test("mapping templates see the target code's details, registry aliases included", () => {
  const s = newService();
  assert.deepEqual(
    codesIn(
      s,
      yamlDoc('error_mapping:', '  404:', '    code: NOT_FOUND_RESOURCE', "    message_template: \"No '{resource_type}' '{resource_id}'\""),
    ),
    [],
  );
  assert.deepEqual(
    codesIn(
      s,
      yamlDoc(
        'error_mapping:',
        '  404:',
        '    code: NOT_FOUND_OPERATION',
        '    message_template: "Unknown operation: \'{operation_name}\'"',
      ),
    ),
    [],
  );
  const f = fixture(
    yamlDoc(
      'error_mapping:',
      '  404:',
      '    code: NOT_FOUND_RESOURCE',
      '    message_template: "Repository \'{owner}/[[{repo}]]\'"',
      '    details: { owner: string }',
    ),
  );
  const { ds } = check(f, 'template.unknown-placeholder');
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
  );
});

test('template.unused-detail is a hint tagged Unnecessary; fixes insert or remove', () => {
  const f = fixture(
    yamlDoc(
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      '    message_template: "Bad \'{a}\'"',
      '    details:',
      '      a: string',
      '      [[b]]: integer',
    ),
  );
  const { ds, service } = check(f, 'template.unused-detail');
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
  );
  assert.equal(ds[0]!.severity, 4);
  assert.deepEqual(ds[0]!.tags, [1]);
  assert.equal(
    applyFix(service, f.doc, ds[0]!, "Use '{b}' in the message template"),
    yamlDoc(
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      "    message_template: \"Bad '{a}' '{b}'\"",
      '    details:',
      '      a: string',
      '      b: integer',
    ),
  );
  assert.equal(
    applyFix(service, f.doc, ds[0]!, "Remove details key 'b'"),
    yamlDoc(
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      '    message_template: "Bad \'{a}\'"',
      '    details:',
      '      a: string',
    ),
  );
  const g = fixture(
    yamlDoc(
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      "    message_template: 'Bad ''{a}'''",
      '    details: { a: string, [[b]]: string }',
    ),
  );
  const r = check(g, 'template.unused-detail');
  assert.equal(
    applyFix(r.service, g.doc, r.ds[0]!, "Use '{b}' in the message template"),
    yamlDoc(
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      "    message_template: 'Bad ''{a}'' ''{b}'''",
      '    details: { a: string, b: string }',
    ),
  );
  assert.equal(
    applyFix(r.service, g.doc, r.ds[0]!, "Remove details key 'b'"),
    yamlDoc(
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      "    message_template: 'Bad ''{a}'''",
      '    details: { a: string }',
    ),
  );
});

test('template.malformed-placeholder: {}, { x }, unclosed {', () => {
  const f = fixture(
    yamlDoc('error_codes:', '  VALIDATION_X:', '    category: VALIDATION', '    message_template: "a [[{}]] b [[{ x }]] c [[{y]]"'),
  );
  const { ds, texts } = check(f, 'template.malformed-placeholder');
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
  );
  assert.deepEqual(texts, ['{}', '{ x }', '{y']);
});

test('template.unquoted-placeholder: strings only; fix in double, single and plain styles', () => {
  const f = fixture(
    yamlDoc(
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      '    message_template: "Bad [[{field}]] ({n})"',
      '    details: { field: string, n: integer }',
    ),
  );
  const { ds, service } = check(f, 'template.unquoted-placeholder');
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
  );
  assert.equal(ds[0]!.severity, 3);
  assert.ok(applyFix(service, f.doc, ds[0]!).includes(`"Bad '{field}' ({n})"`));
  const single = fixture(
    yamlDoc(
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      "    message_template: 'Bad [[{field}]]'",
      '    details: { field: string }',
    ),
  );
  const r1 = check(single, 'template.unquoted-placeholder');
  const fixed1 = applyFix(r1.service, single.doc, r1.ds[0]!);
  assert.ok(fixed1.includes("'Bad ''{field}'''"), fixed1);
  assert.deepEqual(codesIn(newService(), fixed1), []);
  const plain = fixture(
    yamlDoc(
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      '    message_template: Bad [[{field}]] here',
      '    details: { field: string }',
    ),
  );
  const r2 = check(plain, 'template.unquoted-placeholder');
  assert.ok(applyFix(r2.service, plain.doc, r2.ds[0]!).includes("message_template: Bad '{field}' here"));
});

test('template.flow-mapping: an unquoted template starting with { ; fix quotes it', () => {
  const f = fixture(
    yamlDoc(
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      '    message_template: [[{reason}]]',
      '    details: { reason: string }',
    ),
  );
  const { ds, service } = check(f, 'template.flow-mapping');
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
  );
  const fixed = applyFix(service, f.doc, ds[0]!);
  assert.ok(fixed.includes('message_template: "{reason}"'));
  assert.deepEqual(
    codesIn(newService(), fixed).filter(c => c.startsWith('template.') && c !== 'template.unquoted-placeholder'),
    [],
  );
});

test('template.flow-mapping: one mistake, one diagnostic (no yaml.syntax inside the template); the fix quotes it', () => {
  for (const [tmpl, quoted] of [
    ['{reason} happened', '"{reason} happened"'],
    ['{a}, {b} failed', '"{a}, {b} failed"'],
    ['{reason', '"{reason"'],
  ]) {
    const f = fixture(
      yamlDoc(
        'error_codes:',
        '  VALIDATION_X:',
        '    category: VALIDATION',
        `    message_template: [[${tmpl}]]`,
        '    details: { reason: string, a: string, b: string }',
        '  VALIDATION_Y:',
        '    category: VALIDATION',
        '    message_template: "ok"',
      ),
    );
    const s = newService();
    const all = s.validate(f.doc);
    assert.deepEqual(
      all.map(d => [String(d.code), d.range]),
      [['template.flow-mapping', f.spans[0]]],
      tmpl,
    );
    const fixed = applyFix(s, f.doc, all[0]!);
    assert.equal(fixed, f.doc.getText().replace(`message_template: ${tmpl}`, `message_template: ${quoted}`));
  }
  // A syntax error elsewhere in the file is still reported.
  const g = fixture(
    yamlDoc(
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      '    message_template: {reason} happened',
      '    details: { reason: string }',
      '  VALIDATION_Y:',
      '    category: VALIDATION',
      '    message_template: [["ok]]',
    ),
  );
  assert.deepEqual(
    newService()
      .validate(g.doc)
      .map(d => String(d.code))
      .sort(),
    ['template.flow-mapping', 'yaml.syntax'],
  );
});

test('no template false positives on the four real adapters', () => {
  const s = newService();
  for (const [name, uri] of [
    ['MCPAQL-examples--github-api-adapter.md', 'file:///w/github-api-adapter.md'],
    ['MCPAQL-spec--github-api-adapter.md', 'file:///w/spec-github-api-adapter.md'],
    ['MCPAQL-examples--apple-mail-adapter.md', 'file:///w/apple-mail-adapter.md'],
    ['MCPAQL-examples--airpods-mcp-schema.json', 'file:///w/airpods.adapter.json'],
  ] as const) {
    assert.deepEqual(codesIn(s, readCorpus(name), uri), [], name);
  }
});

test('design.md s2 example: of template.*, code.* and schema.* only the decided C-32 category-prefix', () => {
  // design.md s2's example, copied inline (a clone has no design.md).
  const copy = yamlDoc(
    'error_codes:',
    '  GITHUB_ABUSE_DETECTED:',
    '    category: RATE_LIMIT',
    `    message_template: "Abuse detection triggered: '{reason}'"`,
    '    maps_from_http: [403]',
    `    condition: "response.body.message contains 'abuse'"`,
    '    details:',
    '      reason: string',
    '      retry_after_seconds: { type: integer, required: false }',
    '    description: Secondary rate limit hit',
    'error_mapping:',
    '  404:',
    '    code: NOT_FOUND_REPOSITORY',
    `    message_template: "Repository '{owner}/{repo}' not found"`,
    '  403:',
    `    - condition: "response.body.message contains 'rate limit'"`,
    '      code: RATE_LIMIT_EXCEEDED',
    '    - code: PERMISSION_DENIED',
  );
  assert.deepEqual(
    codesIn(newService(), copy).filter(c => /^(template|code|schema)\./.test(c)),
    ['code.category-prefix'],
  );
});

test('a mapping template sees the details of a custom code declared in another workspace file', () => {
  const index = createWorkspaceIndex();
  const other = 'file:///w/codes.adapter.yaml';
  const range = { start: { line: 1, character: 2 }, end: { line: 1, character: 16 } };
  index.update(
    other,
    [
      {
        uri: other,
        code: 'NOT_FOUND_REPO',
        range,
        category: 'NOT_FOUND',
        details: [
          { name: 'owner', type: 'string' },
          { name: 'repo', type: 'string' },
        ],
        mapsFromHttp: [],
      },
    ],
    [],
  );
  const f = fixture(
    yamlDoc('error_mapping:', '  404:', '    code: NOT_FOUND_REPO', `    message_template: "'{owner}/{repo}' [[{missing}]]"`),
  );
  const ds = newService(index)
    .validate(f.doc, {})
    .filter(d => /^template\./.test(String(d.code)));
  assert.deepEqual(
    ds.map(d => [d.code, d.range]),
    [['template.unknown-placeholder', f.spans[0]]],
  );
  assert.match(String(ds[0]!.message), /owner, repo/);
});

test('a mapping to an unknown code reports no placeholder (mapping.unknown-code covers it); registry templates are never checked', () => {
  const s = newService();
  const codes = codesIn(
    s,
    yamlDoc('error_mapping:', '  404:', '    code: NOT_FOUND_NOWHERE', `    message_template: "'{anything}' {else}"`),
  );
  assert.deepEqual(
    codes.filter(c => c.startsWith('template.')),
    [],
  );
  assert.deepEqual(codesIn(s, yamlDoc('error_mapping:', '  400:', '    code: VALIDATION_UNKNOWN_PARAM')), []);
});

test('template.unused-detail skips keys declared required: false (data-only extras), and entries without a template', () => {
  const s = newService();
  const f = fixture(
    yamlDoc(
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      '    message_template: "Bad"',
      '    details:',
      '      retry: { type: integer, required: false }',
      '      [[hint]]: { type: string, required: true }',
      '      [[other]]: string',
    ),
  );
  assert.deepEqual(
    check(f, 'template.unused-detail', s).ds.map(d => d.range),
    f.spans,
  );
  assert.deepEqual(codesIn(s, yamlDoc('error_codes:', '  VALIDATION_X:', '    category: VALIDATION', '    details: { a: string }')), []);
});

test('template.malformed-placeholder: {{x}} and a stray }, with messages that say which; a well-formed {x} inside still resolves', () => {
  const f = fixture(
    yamlDoc(
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      `    message_template: "a [[{ ]]{x}[[}]] b [[{1x}]] c [[}]]"`,
      '    details: { x: integer }',
    ),
  );
  const { ds } = check(f, 'template.malformed-placeholder');
  assert.deepEqual(
    ds.map(d => d.range),
    f.spans,
  );
  assert.match(String(ds[0]!.message), /before the next '\{'/);
  assert.match(String(ds[1]!.message), /no '\{' before it/);
  assert.match(String(ds[2]!.message), /not a placeholder name/);
  assert.deepEqual(
    codesIn(newService(), f.doc.getText()).filter(c => c !== 'template.malformed-placeholder'),
    [],
  );
});

test('an unquoted template starting with { and going on after it: template.flow-mapping alone (no key-less schema.unknown-key)', () => {
  const f = fixture(
    yamlDoc(
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      "    message_template: [[{reason} happened: '{x}']]",
      '    details:',
      '      reason: string',
    ),
  );
  const all = newService().validate(f.doc);
  assert.deepEqual(
    all.map(d => [d.code, f.doc.getText(d.range)]),
    [['template.flow-mapping', "{reason} happened: '{x}'"]],
  );
  assert.deepEqual(all[0]!.range, f.spans[0]);
});
