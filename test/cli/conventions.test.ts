/**
 * The command-line conventions users bring from ESLint and Spectral, and the README's
 * option tables kept equal to what the parser takes (cli/options.ts).
 */
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseProjectConfig } from '../../server/src/service';
import { INIT_CONFIG } from '../../server/src/cli/authoring/init';
import { main } from '../../server/src/cli/main';
import { COMMANDS } from '../../server/src/cli/options';
import { ROOT, run, tempTree } from './helpers';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tree = (files: Record<string, string>) => {
  const d = tempTree(files);
  dirs.push(d);
  return d;
};
/** An error (unknown code), a warning (category prefix) and information (unquoted placeholder). */
const MIXED =
  'error_codes:\n  X_ONE:\n    category: NOT_FOUND\n    message_template: "a {id}"\n    details:\n      id: string\nerror_mapping:\n  404:\n    code: NOPE_NOT_A_CODE\n';
const INFO_ONLY = 'error_codes:\n  NOT_FOUND_X:\n    category: NOT_FOUND\n    message_template: "a {id}"\n    details:\n      id: string\n';

test('-f is --format; several reports in one run: each -o goes with the -f before it, one may go to standard output', async () => {
  const dir = tree({ 'a.adapter.yaml': MIXED });
  const r = await run(['check', '-f', 'sarif', '-o', 'out/x.sarif', '-f', 'github', '-f', 'json', '-o', 'x.json'], dir);
  assert.equal(r.code, 1);
  assert.match(r.out, /^::error file=a\.adapter\.yaml,line=9,/m);
  assert.equal(JSON.parse(readFileSync(join(dir, 'out/x.sarif'), 'utf8')).version, '2.1.0');
  assert.equal(JSON.parse(readFileSync(join(dir, 'x.json'), 'utf8'))[0].file, 'a.adapter.yaml');
  // -o before -f (the only pair) still pairs, as before.
  await run(['check', '-o', 'y.json', '--format', 'json'], dir);
  assert.equal(JSON.parse(readFileSync(join(dir, 'y.json'), 'utf8'))[0].file, 'a.adapter.yaml');
  const two = await run(['check', '-f', 'json', '-f', 'github'], dir);
  assert.equal(two.code, 2);
  assert.equal(
    two.err,
    'mcp-aql-errors: two reports for standard output: give every -f but one an -o after it (mcp-aql-errors check --help)\n',
  );
  assert.equal((await run(['check', '-f', 'json', '-o', 'z', '-f', 'sarif', '-o', 'z'], dir)).code, 2);
});

test('rule levels warn, info and 0/1/2; --fail-severity sets the level that fails', async () => {
  const dir = tree({ 'a.adapter.yaml': INFO_ONLY });
  assert.equal((await run(['check'], dir)).code, 0);
  const levels = async (level: string) =>
    JSON.parse((await run(['check', '-f', 'json', '--rule', `template.unquoted-placeholder=${level}`], dir)).out)[0].diagnostics.map(
      (d: { severity: string }) => d.severity,
    );
  assert.deepEqual(await levels('warn'), ['warning']);
  assert.deepEqual(await levels('info'), ['info']);
  assert.deepEqual(await levels('2'), ['error']);
  assert.deepEqual(await levels('1'), ['warning']);
  assert.deepEqual(await levels('0'), []);
  assert.equal((await run(['check', '--rule', 'template.unquoted-placeholder=3'], dir)).code, 2);
  assert.equal((await run(['check', '--fail-severity', 'info'], dir)).code, 1);
  assert.equal((await run(['check', '-F', 'hint'], dir)).code, 1);
  assert.equal((await run(['check', '--fail-severity', 'warn'], dir)).code, 0);
  assert.equal((await run(['check', '--fail-severity', 'fatal'], dir)).code, 2);
});

test('--color / --no-color, FORCE_COLOR and NO_COLOR', async () => {
  const dir = tree({ 'a.adapter.yaml': MIXED });
  const call = async (argv: string[], env: Record<string, string>, color: boolean) => {
    let out = '';
    await main(argv, { cwd: dir, color, env, stdout: s => void (out += s), stderr: () => {} });
    return out.includes('\x1b[');
  };
  assert.equal(await call(['check'], {}, false), false);
  assert.equal(await call(['check'], {}, true), true);
  assert.equal(await call(['check', '--color'], {}, false), true);
  assert.equal(await call(['check', '--no-color'], { FORCE_COLOR: '1' }, true), false);
  assert.equal(await call(['check'], { FORCE_COLOR: '1' }, false), true);
  assert.equal(await call(['check'], { FORCE_COLOR: '0' }, true), false);
  assert.equal(await call(['check'], { NO_COLOR: '1' }, true), false);
  assert.equal(await call(['check', '-o', 'r.txt', '--color'], {}, true), false);
  assert.ok(!readFileSync(join(dir, 'r.txt'), 'utf8').includes('\x1b['), 'a report file is never coloured');
});

test('--ignore-pattern skips files (names at any depth without /); a named one is said to be skipped', async () => {
  const dir = tree({ 'a.adapter.yaml': MIXED, 'vendor/b.adapter.yaml': MIXED, 'deep/c.draft.adapter.yaml': MIXED });
  const files = async (...extra: string[]) =>
    JSON.parse((await run(['check', '-f', 'json', ...extra], dir)).out).map((f: { file: string }) => f.file);
  assert.deepEqual(await files('--ignore-pattern', 'vendor/**', '--ignore-pattern', '*.draft.adapter.yaml'), ['a.adapter.yaml']);
  const named = await run(['check', 'vendor/b.adapter.yaml', 'a.adapter.yaml', '--ignore-pattern', 'vendor/**'], dir);
  assert.match(named.err, /^vendor\/b\.adapter\.yaml: ignored by --ignore-pattern; skipped$/m);
  assert.equal((await run(['check', '--ignore-pattern', '[z-a]'], dir)).code, 2);
});

test('--no-error-on-unmatched-pattern: no adapter, or a glob matching nothing, exits 0', async () => {
  const dir = tree({ 'notes.md': '# nothing\n' });
  assert.equal((await run(['check'], dir)).code, 2);
  const none = await run(['check', '--no-error-on-unmatched-pattern'], dir);
  assert.equal(none.code, 0, none.err);
  assert.equal(none.out, 'No problems in 0 adapter files.\n');
  const glob = await run(['check', 'src/**/*.adapter.yaml', '--no-error-on-unmatched-pattern', '-f', 'json'], dir);
  assert.equal(glob.code, 0);
  assert.equal(glob.out, '[]\n');
  assert.match(glob.err, /no file matches this glob/);
});

test('the compact format: one line per problem, then the count', async () => {
  const dir = tree({ 'a.adapter.yaml': MIXED });
  const r = await run(['check', '-f', 'compact'], dir);
  assert.equal(r.code, 1);
  const lines = r.out.trimEnd().split('\n');
  assert.equal(lines.at(-1), '3 problems');
  assert.match(lines[0]!, /^a\.adapter\.yaml: line 2, col 3, Warning - .* \(code\.category-prefix\)$/);
  assert.ok(lines.some(l => /^a\.adapter\.yaml: line 9, col 11, Error - 'NOPE_NOT_A_CODE' .* \(mapping\.unknown-code\)$/.test(l)));
});

test('<command> --help and help <command>: that command options; usage errors in one line', async () => {
  for (const cmd of Object.keys(COMMANDS)) {
    const r = await run([cmd, '--help']);
    assert.equal(r.code, 0, cmd);
    assert.ok(r.out.startsWith(`Usage: mcp-aql-errors ${COMMANDS[cmd]!.synopsis}\n`), r.out);
    for (const o of COMMANDS[cmd]!.options) assert.ok(r.out.includes(o.names[0]!), `${cmd} ${o.names[0]}`);
    assert.equal((await run(['help', cmd])).out, r.out);
  }
  for (const argv of [['check', '--bogus'], ['verify', '--fix'], ['preview', 'a', 'b'], ['types'], ['registry', 'x'], ['frobnicate']]) {
    const r = await run(argv);
    assert.equal(r.code, 2, argv.join(' '));
    assert.equal(r.err.split('\n').length, 2, r.err);
  }
  assert.equal((await run(['check', '--bogus'])).err, "mcp-aql-errors: check: unknown option '--bogus' (mcp-aql-errors check --help)\n");
  // diff, docs, watch and probe too: their options in cli/options.ts, the same one line.
  for (const cmd of ['diff', 'docs', 'watch', 'probe']) {
    assert.ok(Object.hasOwn(COMMANDS, cmd), cmd);
    const r = await run([cmd, '--bogus', '--', 'node']);
    assert.deepEqual([r.code, r.err], [2, `mcp-aql-errors: ${cmd}: unknown option '--bogus' (mcp-aql-errors ${cmd} --help)\n`]);
  }
  assert.equal(
    (await run(['docs', '--format', 'pdf', 'a.md'])).err,
    "mcp-aql-errors: docs: --format takes 'markdown' or 'html' (mcp-aql-errors docs --help)\n",
  );
  assert.equal(
    (await run(['probe', '--list'])).err,
    "mcp-aql-errors: probe needs a server: --config <file> [--server <name> | --all], --url <U>, or its command after '--': probe [options] -- node server.js (mcp-aql-errors probe --help)\n",
  );
  assert.equal(
    (await run(['watch', '--timeout', '5', '--', 'node'])).err,
    "mcp-aql-errors: watch: unknown option '--timeout' (mcp-aql-errors watch --help)\n",
  );
  // After `--` an argument is the server's (or, for diff, a path): `--help` there is not ours.
  const path = await run(['diff', '--', '--help', 'b']);
  assert.deepEqual([path.code, path.out], [2, '']);
  assert.equal(path.err, "mcp-aql-errors: cannot read '--help': no such file or directory (mcp-aql-errors diff --help)\n");
});

test('JUnit counts errors and warnings as failures, not information or hints', async () => {
  const dir = tree({ 'a.adapter.yaml': MIXED });
  const xml = (await run(['check', '-f', 'junit'], dir)).out;
  assert.match(xml, /<testsuites name="mcp-aql-errors" tests="3" failures="2" /);
  assert.match(xml, /<testsuite name="a\.adapter\.yaml" tests="3" failures="2" /);
  assert.match(xml, /<system-out>a\.adapter\.yaml:4:26 info .*\[template\.unquoted-placeholder\]<\/system-out>/);
});

test('init writes a commented .mcp-aql.yaml that is valid and changes nothing, and never overwrites', async () => {
  const dir = tree({ 'a.adapter.yaml': MIXED });
  const before = (await run(['check', '-f', 'json'], dir)).out;
  const r = await run(['init'], dir);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.err, 'wrote .mcp-aql.yaml\n');
  const text = readFileSync(join(dir, '.mcp-aql.yaml'), 'utf8');
  assert.equal(text, INIT_CONFIG);
  assert.ok(text.split('\n').filter(l => l.startsWith('#')).length >= 10, 'commented');
  assert.deepEqual(parseProjectConfig(text).problems, []);
  // The commented examples are valid once uncommented.
  const uncommented = text
    .replace(
      'rules: {}\n# rules:\n#   template.unquoted-placeholder: "off"\n#   http.category-mismatch: error\n',
      'rules:\n  template.unquoted-placeholder: "off"\n  http.category-mismatch: error\n',
    )
    .replace(
      'ignore: []\n# ignore:\n#   - vendor/**\n#   - "*.draft.adapter.yaml"\n',
      'ignore:\n  - vendor/**\n  - "*.draft.adapter.yaml"\n',
    );
  const parsed = parseProjectConfig(uncommented);
  assert.deepEqual(parsed.problems, []);
  assert.deepEqual(parsed.config.ignore, ['vendor/**', '*.draft.adapter.yaml']);
  assert.equal(parsed.config.rules?.['http.category-mismatch'], 'error');
  assert.equal((await run(['check', '-f', 'json'], dir)).out, before);
  const again = await run(['init'], dir);
  assert.equal(again.code, 2);
  assert.equal(again.err, 'mcp-aql-errors: init: .mcp-aql.yaml already exists; nothing written (mcp-aql-errors init --help)\n');
  const json = tree({ '.mcp-aql.json': '{}' });
  assert.equal((await run(['init'], json)).code, 2);
  assert.ok(!existsSync(join(json, '.mcp-aql.yaml')));
});

test("the option tables of docs/cli.md (the README's command-line page) list every option of every command exactly as implemented", () => {
  const readme = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8');
  for (const [cmd, spec] of Object.entries(COMMANDS)) {
    const head = readme.indexOf(`| \`${cmd}\` option | what it does |`);
    assert.ok(head >= 0, `docs/cli.md has a table of ${cmd} options`);
    const rows = readme.slice(head).split('\n').slice(2);
    const table = rows.slice(
      0,
      rows.findIndex(l => !l.startsWith('|')),
    );
    const documented = new Set(table.flatMap(l => [...l.split('|')[1]!.matchAll(/`(-{1,2}[a-zA-Z][\w-]*)/g)].map(m => m[1]!)));
    const implemented = new Set(spec.options.flatMap(o => o.names));
    assert.deepEqual([...documented].sort(), [...implemented].sort(), cmd);
  }
});
