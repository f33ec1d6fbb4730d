import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_FILE_NAMES } from '../../server/src/service';
import { ROOT, run, tempTree } from './helpers';

const UNQUOTED = 'error_codes:\n  VALIDATION_X:\n    category: VALIDATION\n    message_template: Bad {f}\n    details:\n      f: string\n';
const codes = async (argv: string[], cwd: string) => {
  const r = await run([...argv, '--format', 'json'], cwd);
  return (JSON.parse(r.out) as { file: string; diagnostics: { code: string; severity: string }[] }[]).flatMap(f =>
    f.diagnostics.map(d => `${f.file} ${d.code} ${d.severity}`),
  );
};

test('the nearest config file above each checked file applies (no merging); --config and --no-config', async () => {
  const dir = tempTree({
    '.mcp-aql.yaml': 'rules:\n  template.unquoted-placeholder: error\n',
    'a/x.adapter.yaml': UNQUOTED,
    'b/.mcp-aql.json': '{ "rules": { "template.unquoted-placeholder": "off" } }',
    // Its own code: the same one in two files would add code.declared-elsewhere to both.
    'b/c/y.adapter.yaml': UNQUOTED.replace('VALIDATION_X', 'VALIDATION_Y'),
    'other.yaml': 'rules:\n  template.unquoted-placeholder: hint\n',
  });
  assert.deepEqual(await codes(['check', '.'], dir), ['a/x.adapter.yaml template.unquoted-placeholder error']);
  assert.deepEqual(await codes(['check', '.', '--no-config'], dir), [
    'a/x.adapter.yaml template.unquoted-placeholder info',
    'b/c/y.adapter.yaml template.unquoted-placeholder info',
  ]);
  const other = tempTree({
    'cfg/mcp.yaml': 'rules:\n  template.unquoted-placeholder: hint\n',
    'x.adapter.yaml': UNQUOTED,
    '.mcp-aql.yml': 'rules: {}\n',
  });
  assert.deepEqual(await codes(['check', '.', '--config', 'cfg/mcp.yaml'], other), ['x.adapter.yaml template.unquoted-placeholder hint']);
  assert.deepEqual(await codes(['check', '.'], other), ['x.adapter.yaml template.unquoted-placeholder info']);
  const missing = await run(['check', '.', '-c', 'nope.yaml'], other);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /cannot read config file 'nope\.yaml': no such file/);
  // --rule overrides the file, code by code.
  assert.deepEqual(await codes(['check', 'a', '--rule', 'template.unquoted-placeholder=warning'], dir), [
    'a/x.adapter.yaml template.unquoted-placeholder warning',
  ]);
});

test('ignore globs are relative to the config folder; a named ignored file is reported on stderr', async () => {
  const dir = tempTree({
    '.mcp-aql.yaml': 'ignore:\n  - vendor/**\n  - "*.draft.adapter.yaml"\n',
    'vendor/v.adapter.yaml': UNQUOTED,
    'deep/w.draft.adapter.yaml': UNQUOTED,
    'ok.adapter.yaml': UNQUOTED,
  });
  assert.deepEqual(await codes(['check', '.'], dir), ['ok.adapter.yaml template.unquoted-placeholder info']);
  const named = await run(['check', 'vendor/v.adapter.yaml', 'ok.adapter.yaml'], dir);
  assert.match(named.err, /^vendor\/v\.adapter\.yaml: ignored by \.mcp-aql\.yaml; skipped$/m);
  const only = await run(['check', 'vendor'], dir);
  assert.equal(only.code, 2);
  assert.match(only.err, /no adapter files found in vendor/);
});

test('an invalid config file stops the run with exit 2 and positioned reasons, without the usage text', async () => {
  const dir = tempTree({ '.mcp-aql.yaml': 'rules:\n  template.unquoted: off\ncodeScope: everywhere\n', 'x.adapter.yaml': UNQUOTED });
  const r = await run(['check', '.'], dir);
  assert.equal(r.code, 2);
  assert.equal(r.out, '');
  assert.equal(
    r.err,
    [
      "mcp-aql-errors: invalid config file '.mcp-aql.yaml':",
      "  .mcp-aql.yaml:2:3  'template.unquoted' is not an mcp-aql diagnostic code. Did you mean 'template.unquoted-placeholder'?  config.invalid",
      "  .mcp-aql.yaml:3:12  'codeScope' must be one of workspace, folder, file.  config.invalid",
      '',
    ].join('\n'),
  );
});

test('--print-config prints the options that apply to a file', async () => {
  const dir = tempTree({
    'proj/.mcp-aql.json': JSON.stringify({
      rules: { 'http.category-mismatch': 'off' },
      files: ['specs/*.yaml'],
      ignore: ['tmp/**'],
      codeScope: 'folder',
      maxFileSize: 4096,
    }),
    'proj/api/x.adapter.yaml': UNQUOTED,
  });
  const r = await run(['check', '--print-config', 'proj/tmp/y.adapter.yaml', '--rule', 'yaml.syntax=warning'], dir);
  assert.equal(r.code, 0);
  assert.deepEqual(JSON.parse(r.out), {
    file: 'proj/tmp/y.adapter.yaml',
    configFile: 'proj/.mcp-aql.json',
    ignored: true,
    rules: { 'http.category-mismatch': 'off', 'yaml.syntax': 'warning' },
    files: ['specs/*.yaml'],
    ignore: ['tmp/**'],
    codeScope: 'folder',
    maxFileSize: 4096,
  });
  const none = JSON.parse((await run(['check', '--print-config', 'x.adapter.yaml'], dir)).out);
  assert.deepEqual(none, {
    file: 'x.adapter.yaml',
    configFile: null,
    ignored: false,
    rules: {},
    files: [],
    ignore: [],
    codeScope: 'workspace',
    maxFileSize: 4718592,
  });
});

test('--help documents every option and the exit codes', async () => {
  const { out, code } = await run(['--help']);
  assert.equal(code, 0);
  for (const o of [
    '--format',
    'junit',
    'checkstyle',
    'codeclimate',
    '--output-file',
    '--quiet',
    '--max-warnings',
    '--rule',
    '--fix',
    '--fix-dry-run',
    '--stdin',
    '--stdin-filename',
    '--config',
    '--no-config',
    '--print-config',
    'Exit status: 0',
  ]) {
    assert.ok(out.includes(o), o);
  }
});

test('the manifest registers schemas/config.schema.json for every config file name (JSON and Red Hat YAML)', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const names = (list: { fileMatch: string | string[]; url: string }[]) =>
    list.filter(v => v.url === './schemas/config.schema.json').flatMap(v => [v.fileMatch].flat());
  assert.deepEqual(
    [...names(pkg.contributes.jsonValidation), ...names(pkg.contributes.yamlValidation)].sort(),
    [...CONFIG_FILE_NAMES].sort(),
  );
  assert.deepEqual(names(pkg.contributes.jsonValidation), ['.mcp-aql.json']);
});

test('naming only ignored files (as a pre-commit hook does) is not an error', async () => {
  const dir = tempTree({ '.mcp-aql.yaml': 'ignore: [vendor/**]\n', 'vendor/v.adapter.yaml': UNQUOTED });
  const r = await run(['check', 'vendor/v.adapter.yaml'], dir);
  assert.deepEqual([r.code, r.out], [0, 'No problems in 0 adapter files.\n']);
  assert.match(r.err, /ignored by \.mcp-aql\.yaml/);
});
