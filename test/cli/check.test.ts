import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv04 from 'ajv-draft-04';
import { allCodes, docsAnchor } from '../../server/src/service';
import { codeFrame } from '../../server/src/cli/format/text';
import { ROOT, run, tempTree } from './helpers';
import { codeInfo } from '../../server/src/service';

const BAD = 'error_mapping:\n  404:\n    code: NOT_FOUND_REPOSITRY\n';

test('exit codes: 0 clean, 1 errors, 2 usage or unreadable input', async () => {
  assert.equal((await run(['check', 'examples/github-adapter.md'])).code, 0);
  assert.equal((await run(['check', 'examples/broken'])).code, 1);
  const missing = await run(['check', 'no/such/file.adapter.yaml']);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /cannot read 'no\/such\/file.adapter.yaml'/);
  assert.equal((await run(['check', '--format', 'xml'])).code, 2);
  assert.equal((await run(['check', '--bogus'])).code, 2);
  assert.equal((await run(['frobnicate'])).code, 2);
  assert.equal((await run(['check', '--rule', 'not.a-code=off'])).code, 2);
  const empty = tempTree({ 'notes.md': '# nothing here\n' });
  assert.match((await run(['check', '.'], empty)).err, /no adapter files found/);
});

test('checked as one folder, examples/ leaves its clean adapters clean (the broken ones declare no code of theirs)', async () => {
  const r = await run(['check', 'examples', '--format', 'json']);
  const files = JSON.parse(r.out) as { file: string; diagnostics: { code: string }[] }[];
  assert.ok(
    files.some(f => f.file.startsWith('examples/broken/')),
    'the broken examples are reported',
  );
  const outside = files.filter(f => !f.file.startsWith('examples/broken/') && f.diagnostics.length);
  assert.deepEqual(
    outside.map(f => `${f.file}: ${f.diagnostics.map(d => d.code).join(', ')}`),
    [],
  );
});

test('--max-warnings and --rule change the outcome', async () => {
  const dir = tempTree({ 'a.adapter.yaml': 'error_codes:\n  PERMISSION_DENIED:\n    category: PERMISSION\n' });
  assert.equal((await run(['check', '.'], dir)).code, 0);
  assert.equal((await run(['check', '.', '--max-warnings', '0'], dir)).code, 1);
  assert.equal((await run(['check', '.', '--rule', 'code.redefines-registry=error'], dir)).code, 1);
  assert.equal((await run(['check', '.', '--rule=code.redefines-registry=off', '--max-warnings=0'], dir)).code, 0);
});

test('text format: location, severity, message, code and an exact code frame', async () => {
  const dir = tempTree({ 'x.adapter.yaml': BAD });
  const { out, code } = await run(['check', 'x.adapter.yaml'], dir);
  assert.equal(code, 1);
  assert.ok(
    out.includes(
      "x.adapter.yaml:3:11  error  Did you mean NOT_FOUND_RESOURCE? 'NOT_FOUND_REPOSITRY' is neither a registry code nor declared in error_codes.",
    ),
  );
  assert.ok(
    out.includes(
      ['  1 | error_mapping:', '  2 |   404:', '> 3 |     code: NOT_FOUND_REPOSITRY', '    |           ^^^^^^^^^^^^^^^^^^^'].join('\n'),
    ),
    out,
  );
  assert.match(out, /1 problem \(1 error, 0 warnings, 0 info, 0 hints\) in 1 adapter file\./);
});

test('code frame expands tabs and clips long lines', () => {
  assert.equal(codeFrame('a\n\tbc: x\n', 1, 1, 1, 3), '  1 | a\n> 2 |   bc: x\n    |   ^^');
});

test('json format is stable and 1-based where it says line/column', async () => {
  const dir = tempTree({ 'x.adapter.yaml': BAD });
  const json = JSON.parse((await run(['check', '.', '--format', 'json'], dir)).out);
  assert.deepEqual(
    json.map((f: { file: string }) => f.file),
    ['x.adapter.yaml'],
  );
  const d = json[0].diagnostics[0];
  assert.deepEqual([d.code, d.severity, d.line, d.column, d.endColumn], ['mapping.unknown-code', 'error', 3, 11, 30]);
  assert.deepEqual(d.range.start, { line: 2, character: 10 });
});

test('sarif format validates against the official SARIF 2.1.0 schema', async () => {
  const schema = JSON.parse(
    readFileSync(join(ROOT, 'node_modules/@microsoft/sarif-matcher-utils/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8'),
  );
  const ajv = new Ajv04({ allErrors: true, strict: false, validateFormats: false, unicodeRegExp: false });
  const validate = ajv.compile(schema);
  const { out } = await run(['check', 'examples', '--format', 'sarif']);
  const log = JSON.parse(out) as {
    runs: {
      results: {
        ruleId: string;
        locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[];
      }[];
      tool: { driver: { rules: unknown[] } };
    }[];
  };
  assert.ok(validate(log), JSON.stringify(validate.errors?.slice(0, 5)));
  const results = log.runs[0]!.results;
  assert.ok(results.length > 20);
  assert.equal(log.runs[0]!.tool.driver.rules.length, allCodes.length);
  const r = results.find(x => x.ruleId === 'yaml.duplicate-key')!;
  assert.equal(r.locations[0]!.physicalLocation.artifactLocation.uri, 'examples/broken/broken-adapter.md');
  assert.equal(r.locations[0]!.physicalLocation.region.startLine, 83);
});

test('github format escapes properties and data', async () => {
  const dir = tempTree({ 'a,b:c.adapter.yaml': BAD });
  const { out } = await run(['check', '.', '--format', 'github'], dir);
  assert.match(
    out,
    /^::error file=a%2Cb%3Ac\.adapter\.yaml,line=3,col=11,endLine=3,endColumn=30,title=mapping\.unknown-code::Did you mean NOT_FOUND_RESOURCE\? 'NOT_FOUND_REPOSITRY'/,
  );
});

test('globs and directories: only adapter files are read', async () => {
  const dir = tempTree({
    'a/one.adapter.yaml': BAD,
    'a/b/two.adapter.yaml': BAD,
    'a/config.yaml': 'name: x\n',
    'node_modules/x.adapter.yaml': BAD,
  });
  const json = (args: string[]) =>
    run([...args, '--format', 'json'], dir).then(r => JSON.parse(r.out).map((f: { file: string }) => f.file));
  assert.deepEqual(await json(['check', '.']), ['a/b/two.adapter.yaml', 'a/one.adapter.yaml']);
  assert.deepEqual(await json(['check', 'a/*.adapter.yaml']), ['a/one.adapter.yaml']);
  assert.deepEqual(await json(['check', 'a/**/*.yaml']), ['a/b/two.adapter.yaml', 'a/one.adapter.yaml']);
  assert.equal((await run(['check', 'z/*.yaml'], dir)).code, 2);
});

test('a code declared in one file is known in another (workspace index)', async () => {
  const dir = tempTree({
    'a.adapter.yaml': 'error_codes:\n  NOT_FOUND_REPOSITRY:\n    category: NOT_FOUND\n',
    'b.adapter.yaml': BAD,
  });
  assert.equal((await run(['check', '.'], dir)).code, 0);
});

test('bytes that are not UTF-8 are a positioned diagnostic, not silently replaced', async () => {
  const dir = tempTree({
    'x.adapter.yaml': Buffer.concat([
      Buffer.from('error_codes:\n  VALIDATION_X:\n    category: VALIDATION\n    message_template: "caf'),
      Buffer.from([0xe9]),
      Buffer.from('"\n'),
    ]),
  });
  const json = JSON.parse((await run(['check', '.', '--format', 'json'], dir)).out);
  assert.deepEqual(
    json[0].diagnostics.map((d: { code: string; line: number; column: number }) => [d.code, d.line, d.column]),
    [['text.invalid-character', 4, 27]],
  );
});

test('the broken examples report every diagnostic code of the design, on the expected lines', async () => {
  const json = JSON.parse((await run(['check', 'examples/broken', '--format', 'json'])).out);
  const got = new Set<string>();
  for (const f of json) for (const d of f.diagnostics) got.add(`${f.file.replace('examples/broken/', '')}:${d.line}:${d.code}`);
  const want = [
    'broken-adapter.md:20:code.name-format',
    'broken-adapter.md:22:template.unknown-placeholder',
    'broken-adapter.md:23:code.category-prefix',
    'broken-adapter.md:28:template.unused-detail',
    'broken-adapter.md:30:code.unknown-category',
    'broken-adapter.md:31:template.unquoted-placeholder',
    'broken-adapter.md:33:code.redefines-registry',
    'broken-adapter.md:39:template.malformed-placeholder',
    'broken-adapter.md:43:template.flow-mapping',
    'broken-adapter.md:48:http.invalid-status',
    'broken-adapter.md:49:condition.syntax',
    'broken-adapter.md:53:http.category-mismatch',
    'broken-adapter.md:54:condition.unknown-root',
    'broken-adapter.md:55:schema.unknown-key',
    'broken-adapter.md:56:schema.required',
    'broken-adapter.md:62:schema.enum',
    'broken-adapter.md:66:schema.type',
    'broken-adapter.md:70:mapping.shadowed-status',
    'broken-adapter.md:72:mapping.precedence',
    'broken-adapter.md:73:mapping.unknown-code',
    'broken-adapter.md:76:mapping.warning-code',
    'broken-adapter.md:79:mapping.unreachable-entry',
    'broken-adapter.md:83:yaml.duplicate-key',
    'syntax-error.adapter.yaml:8:yaml.syntax',
    'invalid-characters.adapter.yaml:5:text.invalid-character',
    'alias-bomb.adapter.yaml:18:yaml.alias-limit',
    'json-syntax.adapter.json:8:json.syntax',
    'too-deep.adapter.json:6:file.too-deep',
    'broken-adapter.md:85:suppression.unused',
    'slips.adapter.yaml:7:yaml.duplicate-anchor',
    'invalid-characters.adapter.yaml:8:code.declared-elsewhere',
    'slips.adapter.yaml:16:template.comment-cut',
    'slips.adapter.yaml:19:template.invalid-detail-name',
  ];
  for (const w of want) assert.ok(got.has(w), `missing ${w}; got ${[...got].join(', ')}`);
  const codes = new Set([...got].map(g => g.split(':')[2]));
  // config.invalid belongs to a config file (test/cli/config.test.ts), which would stop this run with exit 2.
  const notInExamples = ['file.too-large', 'internal.rule-failure', 'config.invalid'];
  // verify.* codes are about recorded responses, not adapters: test/cli/verify.test.ts holds the same check for them.
  // runtime.* codes are about a running server: test/cli/probe.test.ts and watch.test.ts trigger each.
  for (const c of allCodes)
    if (!notInExamples.includes(c) && !c.startsWith('verify.') && !c.startsWith('runtime.'))
      assert.ok(codes.has(c), `no example triggers ${c}`);
});

test('docs/rules.md has a diagnostics row, with its anchor and default severity, for every code', () => {
  const readme = readFileSync(join(ROOT, 'docs/rules.md'), 'utf8');
  for (const c of allCodes) {
    const row = readme.split('\n').find(l => l.includes(`<a id="${docsAnchor(c)}"></a>`));
    assert.ok(row, `docs/rules.md row for ${c}`);
    assert.ok(row.includes(`\`${c}\``) && row.includes(`| ${codeInfo[c].level} |`), `docs/rules.md row for ${c}: ${row}`);
  }
});

test('registry command: table and JSON', async () => {
  const t = await run(['registry']);
  assert.equal(t.code, 0);
  assert.match(t.out, /^CODE +CATEGORY +KIND +HTTP +TEMPLATE/);
  assert.match(t.out, /37 codes/);
  const j = await run(['registry', '--json']);
  assert.equal(JSON.parse(j.out).codes.length, 37);
  assert.equal((await run(['--version'])).out.trim(), JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
});

test("--code-scope: workspace (default), folder and file decide which other files' codes count", async () => {
  const dir = tempTree({
    'lib/codes.adapter.yaml': 'error_codes:\n  NOT_FOUND_WIDGET:\n    category: NOT_FOUND\n',
    'app/uses.adapter.yaml': 'error_mapping:\n  404:\n    code: NOT_FOUND_WIDGET\n',
  });
  assert.equal((await run(['check', '.'], dir)).code, 0);
  assert.equal((await run(['check', '.', '--code-scope', 'workspace'], dir)).code, 0);
  const folder = await run(['check', '.', '--code-scope=folder', '--format', 'json'], dir);
  assert.equal(folder.code, 1);
  assert.match(folder.out, /declared in codes\.adapter\.yaml, outside this file's code scope/);
  assert.equal((await run(['check', '.', '--code-scope', 'file'], dir)).code, 1);
  const bad = await run(['check', '.', '--code-scope', 'repo'], dir);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--code-scope must be workspace, folder, file/);
});
