import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { allCodes, effectiveOptions, isConfigFileName, parseProjectConfig } from '../../server/src/service';
import { fixture, ROOT } from './helpers';

const schema = JSON.parse(readFileSync(join(ROOT, 'schemas/config.schema.json'), 'utf8'));

test('a full config file parses to its values, YAML and JSON alike', () => {
  const yaml =
    'rules:\n  template.unquoted-placeholder: off\n  http.category-mismatch: error\nfiles: ["api/*.yaml"]\nignore:\n  - vendor/**\ncodeScope: folder\nmaxFileSize: 2048\n';
  const want = {
    rules: { 'template.unquoted-placeholder': 'off', 'http.category-mismatch': 'error' },
    files: ['api/*.yaml'],
    ignore: ['vendor/**'],
    codeScope: 'folder',
    maxFileSize: 2048,
  };
  assert.deepEqual(parseProjectConfig(yaml), { config: want, problems: [] });
  assert.deepEqual(parseProjectConfig(JSON.stringify({ $schema: './x.json', ...want })), { config: want, problems: [] });
  assert.deepEqual(parseProjectConfig(''), { config: {}, problems: [] });
  assert.deepEqual(parseProjectConfig('# only a comment\n'), { config: {}, problems: [] });
});

test('every bad value is a positioned config.invalid problem; the valid parts still apply', () => {
  const { doc, spans } = fixture(
    [
      'rules:',
      '  [[template.unquotd-placeholder]]: off',
      '  mapping.unknown-code: [[loud]]',
      '  yaml.syntax: warning',
      'files: [[x.yaml]]',
      'ignore: [vendor/**, [[3]]]',
      'codeScope: [[everywhere]]',
      'maxFileSize: [[12]]',
      '[[rulez]]: {}',
    ].join('\n') + '\n',
  );
  const { config, problems } = parseProjectConfig(doc.getText());
  assert.deepEqual(config, { rules: { 'yaml.syntax': 'warning' }, ignore: ['vendor/**'] });
  assert.deepEqual(
    problems.map(p => p.range),
    spans,
  );
  assert.ok(problems.every(p => p.code === 'config.invalid' && p.severity === 1 && p.source === 'mcp-aql'));
  assert.deepEqual(
    problems.map(p => p.message),
    [
      "'template.unquotd-placeholder' is not an mcp-aql diagnostic code. Did you mean 'template.unquoted-placeholder'?",
      "The level of 'mapping.unknown-code' must be off, hint, information (info), warning (warn), error, or 0, 1, 2.",
      "'files' must be a list of glob patterns.",
      "Each entry of 'ignore' must be a non-empty glob pattern (a string).",
      "'codeScope' must be one of workspace, folder, file.",
      "'maxFileSize' must be a whole number of characters, at least 1024 and at most 16777216 (16 MiB).",
      "Unknown config key 'rulez'. Did you mean 'rules'? Keys: rules, files, ignore, codeScope, maxFileSize.",
    ],
  );
});

test("rule levels take --rule's spellings: warn, info, and 0, 1, 2 (numbers or digits)", () => {
  const { config, problems } = parseProjectConfig(
    [
      'rules:',
      '  yaml.syntax: warn',
      '  json.syntax: info',
      '  schema.type: 0',
      '  schema.required: 1',
      '  code.name-format: 2',
      '  mapping.unknown-code: "2"',
      '  template.unknown-placeholder: 3',
      '  template.unused-detail: WARN',
    ].join('\n') + '\n',
  );
  assert.deepEqual(config.rules, {
    'yaml.syntax': 'warning',
    'json.syntax': 'information',
    'schema.type': 'off',
    'schema.required': 'warning',
    'code.name-format': 'error',
    'mapping.unknown-code': 'error',
  });
  assert.deepEqual(
    problems.map(p => [p.range.start.line, p.message]),
    [
      [7, "The level of 'template.unknown-placeholder' must be off, hint, information (info), warning (warn), error, or 0, 1, 2."],
      [8, "The level of 'template.unused-detail' must be off, hint, information (info), warning (warn), error, or 0, 1, 2."],
    ],
  );
});

test('syntax errors, duplicate keys and a non-mapping root are positioned, never thrown', () => {
  const dup = parseProjectConfig('codeScope: file\ncodeScope: folder\n');
  assert.equal(dup.problems.length, 1);
  assert.deepEqual(dup.problems[0]!.range.start, { line: 1, character: 0 });
  assert.match(String(dup.problems[0]!.message), /^Config file: .*unique/i);
  const bad = parseProjectConfig('{ "rules": ');
  assert.equal(bad.problems[0]!.code, 'config.invalid');
  assert.deepEqual(bad.config, {});
  const list = parseProjectConfig('- a\n- b\n');
  assert.deepEqual(
    list.problems.map(p => [p.range.start, p.message]),
    [[{ line: 0, character: 0 }, 'The config file must be a mapping (rules, files, ignore, codeScope, maxFileSize).']],
  );
  const empty = parseProjectConfig('rules:\n');
  assert.match(String(empty.problems[0]!.message), /'rules' must map diagnostic codes/);
});

test('the JSON Schema for editors lists every code and agrees with the parser', () => {
  assert.deepEqual(Object.keys(schema.properties.rules.properties), [...allCodes]);
  const validate = new Ajv({ strict: false }).compile(schema);
  const samples: unknown[] = [
    {},
    { rules: { 'yaml.syntax': 'off' } },
    { rules: { 'yaml.nope': 'off' } },
    { rules: { 'yaml.syntax': 'loud' } },
    { rules: { 'yaml.syntax': 'warn', 'json.syntax': 'info', 'schema.type': 0, 'schema.required': 2, 'code.name-format': '1' } },
    { rules: { 'yaml.syntax': 3 } },
    { rules: { 'yaml.syntax': 1.5 } },
    { rules: { 'yaml.syntax': 'Warn' } },
    { rules: { 'yaml.syntax': true } },
    { files: ['a/*.yaml'] },
    { files: 'a' },
    { files: [''] },
    { ignore: ['x', 3] },
    { codeScope: 'folder' },
    { codeScope: 'all' },
    { maxFileSize: 1024 },
    { maxFileSize: 1023 },
    { maxFileSize: 2048.5 },
    { other: 1 },
    { $schema: 'x' },
    { $schema: 1 },
  ];
  for (const s of samples) {
    assert.equal(parseProjectConfig(JSON.stringify(s)).problems.length === 0, validate(s), JSON.stringify(s));
  }
});

test('effective options: overrides win per rule, files add up, ignore is relative to the config folder', () => {
  const config = {
    rules: { 'yaml.syntax': 'warning', 'http.category-mismatch': 'off' },
    files: ['a/*.yaml'],
    ignore: ['vendor/**', '*.draft.yaml'],
    codeScope: 'folder',
    maxFileSize: 2048,
  } as const;
  assert.deepEqual(
    effectiveOptions(config, 'src/x.adapter.yaml', { rules: { 'yaml.syntax': 'error' }, files: ['b/*.yaml'], maxFileSize: 4096 }),
    {
      rules: { 'yaml.syntax': 'error', 'http.category-mismatch': 'off' },
      files: ['a/*.yaml', 'b/*.yaml'],
      maxFileSize: 4096,
      codeScope: 'folder',
      ignored: false,
    },
  );
  assert.equal(effectiveOptions(config, 'vendor/y.adapter.yaml').ignored, true);
  assert.equal(effectiveOptions(config, 'deep/er/z.draft.yaml').ignored, true);
  assert.equal(effectiveOptions(config, 'vendorx/y.adapter.yaml').ignored, false);
  assert.deepEqual(effectiveOptions(undefined, 'x.yaml', {}), { rules: {}, files: [], ignored: false });
});

test('config file names', () => {
  assert.ok(isConfigFileName('file:///w/.mcp-aql.yaml') && isConfigFileName('/w/.mcp-aql.json') && isConfigFileName('.mcp-aql.yml'));
  assert.ok(!isConfigFileName('/w/mcp-aql.yaml') && !isConfigFileName('/w/.mcp-aql.yaml.bak'));
});

test('a config key that is a mapping or a list is named as such, not as an empty code', () => {
  const { problems } = parseProjectConfig('rules:\n  ? [x]\n  : off\n  yaml.syntax: warn\n? { a: 1 }\n: 2\n');
  assert.deepEqual(
    problems.map(p => [p.range.start.line, p.range.start.character, p.message]),
    [
      [1, 4, "A rule's key is a diagnostic code (such as template.unknown-placeholder); this key is a list."],
      [4, 2, 'A config key is a word (rules, files, ignore, codeScope, maxFileSize); this key is a mapping.'],
    ],
  );
});
