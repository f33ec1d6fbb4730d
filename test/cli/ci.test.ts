/**
 * CI integration as far as this machine allows: the GitHub Action's step (action.yml) is run with bash
 * the way the runner runs a composite step (inputs substituted into its env, `-eo pipefail`), and the
 * pre-commit hooks (.pre-commit-hooks.yaml) are run the way pre-commit runs a `script` hook (entry,
 * then the staged file names, from the repository root). Both use this checkout's dist/cli.js.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { ROOT, tempTree } from './helpers';

const BAD = 'error_mapping:\n  404:\n    code: NOT_FOUND_REPOSITRY\n';
const CLEAN = 'error_mapping:\n  404:\n    code: NOT_FOUND_RESOURCE\n';
const FIXABLE = 'error_codes:\n  VALIDATION_X:\n    category: VALIDATION\n    message_template: Bad {f}\n    details:\n      f: string\n';

interface Step {
  if?: string;
  shell: string;
  run: string;
  env: Record<string, string>;
  'working-directory'?: string;
}
const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { default: string }>;
  runs: { using: string; steps: Step[] };
};

/** What the runner does: `${{ inputs.x }}` and `${{ github.action_path }}` substituted, `bash -e -o pipefail`. */
function runAction(cwd: string, inputs: Record<string, string>) {
  const all = { ...Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default])), ...inputs };
  const expr = (s: string) =>
    s.replace(/\$\{\{\s*(inputs\.([\w-]+)|github\.action_path)\s*\}\}/g, (_, _w, name?: string) => (name ? (all[name] ?? '') : ROOT));
  const [step] = action.runs.steps;
  const env = Object.fromEntries(Object.entries(step!.env).map(([k, v]) => [k, expr(v)]));
  const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step!.run], {
    cwd: resolve(cwd, expr(step!['working-directory'] ?? '.')),
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('action.yml: one composite bash step; inputs reach it only through env', () => {
  assert.equal(action.runs.using, 'composite');
  assert.equal(action.runs.steps.filter(s => s.if !== "inputs.mode == 'diff'").length, 1);
  const step = action.runs.steps[0]!;
  assert.equal(step.shell, 'bash');
  assert.ok(!step.run.includes('${{'), 'no expression is pasted into the script (script injection)');
  assert.deepEqual(Object.keys(action.inputs).sort(), [
    'args',
    'comment-author',
    'mode',
    'paths',
    'sarif-file',
    'version',
    'working-directory',
  ]);
});

test("action.yml: an unknown mode fails the step in one line (exit 2), its value shown harmlessly; check and '' run the checker", () => {
  const dir = tempTree({ 'ok.adapter.yaml': CLEAN, 'bad.adapter.yaml': BAD });
  const typo = runAction(dir, { mode: 'dif' });
  assert.deepEqual(
    [typo.code, typo.out, typo.err],
    [2, '', "mcp-aql-errors: unknown mode 'dif': the Action's mode is check (the default) or diff\n"],
  );
  const hostile = runAction(dir, { mode: "x'\n::error::pwned $(touch pwned)" });
  assert.deepEqual(
    [hostile.code, hostile.out, hostile.err],
    [2, '', "mcp-aql-errors: unknown mode 'x????error??pwned???touch?pwned?': the Action's mode is check (the default) or diff\n"],
  );
  assert.ok(!existsSync(join(dir, 'pwned')));
  for (const mode of ['check', '']) {
    const r = runAction(dir, { mode });
    assert.equal(r.code, 1, `${JSON.stringify(mode)}: ${r.err}`);
    assert.match(r.out, /^::error file=bad\.adapter\.yaml,/);
  }
});

test('action.yml: annotations for every problem, SARIF to a file, exit 1 on errors; globs unexpanded', () => {
  const dir = tempTree({ 'adapters/a/x.adapter.yaml': BAD, 'adapters/ok.adapter.yaml': CLEAN, 'x.adapter.yaml': BAD });
  const r = runAction(dir, { paths: 'adapters/**/*.yaml', 'sarif-file': 'reports/mcp-aql.sarif' });
  assert.equal(r.code, 1, r.err);
  assert.equal(
    r.out,
    "::error file=adapters/a/x.adapter.yaml,line=3,col=11,endLine=3,endColumn=30,title=mapping.unknown-code::Did you mean NOT_FOUND_RESOURCE? 'NOT_FOUND_REPOSITRY' is neither a registry code nor declared in error_codes.\n",
  );
  const sarif = JSON.parse(readFileSync(join(dir, 'reports/mcp-aql.sarif'), 'utf8'));
  assert.equal(sarif.version, '2.1.0');
  assert.deepEqual(
    sarif.runs[0].results.map((x: { ruleId: string }) => x.ruleId),
    ['mapping.unknown-code'],
  );
  // --max-warnings and friends through `args`; a clean tree passes with no output.
  const clean = tempTree({ 'ok.adapter.yaml': CLEAN, 'w.adapter.yaml': 'error_codes:\n  PERMISSION_DENIED:\n    category: PERMISSION\n' });
  assert.equal(runAction(clean, {}).code, 0);
  const strict = runAction(clean, { args: '--max-warnings 0' });
  assert.equal(strict.code, 1);
  assert.match(strict.out, /^::warning file=w\.adapter\.yaml,line=2/);
  // Bad usage fails the step with exit 2 even when SARIF is asked for.
  const bad = runAction(clean, { args: '--bogus', 'sarif-file': 'x.sarif' });
  assert.equal(bad.code, 2);
  assert.match(bad.err, /unknown option '--bogus'/);
  // working-directory: paths are reported relative to it.
  const nested = runAction(dir, { 'working-directory': 'adapters', paths: 'a' });
  assert.match(nested.out, /^::error file=a\/x\.adapter\.yaml,/);
});

test('action.yml: `paths` and `args` split like shell words (quotes, spaces), nothing expanded or run', () => {
  const dir = tempTree({ 'my dir/f.adapter.yaml': FIXABLE, 'other.adapter.yaml': CLEAN });
  // A quoted rule, a single-quoted path with a space: what a user writes in the workflow's `with:`.
  const quoted = runAction(dir, { paths: "'my dir'", args: '--rule "template.unquoted-placeholder=error" --max-warnings 0' });
  assert.equal(quoted.code, 1, quoted.err);
  assert.match(quoted.out, /^::error file=my dir\/f\.adapter\.yaml,line=4,.*title=template\.unquoted-placeholder::/);
  const escaped = runAction(dir, { paths: 'my\\ dir', args: "--rule 'template.unquoted-placeholder=off'" });
  assert.deepEqual([escaped.code, escaped.out], [0, '']);
  // Shell metacharacters are text: each reaches the checker as (part of) one argument and runs nothing.
  for (const args of [
    '--rule "$(touch pwned)=error"',
    '--rule `touch pwned`=error',
    '--rule x=error; touch pwned',
    "--rule 'a|touch pwned'",
    '--rule $HOME=error',
  ]) {
    const r = runAction(dir, { args });
    assert.equal(r.code, 2, args);
    assert.match(r.err, /--rule: unknown diagnostic code '(\$\(touch|`touch|x|a\|touch|\$HOME)/, args);
    assert.ok(!existsSync(join(dir, 'pwned')), args);
  }
  const unclosed = runAction(dir, { args: '--rule "x=error' });
  assert.equal(unclosed.code, 2);
  assert.equal(unclosed.err, 'mcp-aql-errors action: unclosed " in: --rule "x=error\n');
  rmSync(dir, { recursive: true, force: true });
});

test('split-args: the shell word rules it implements', async () => {
  const { splitArgs } = (await import(join(ROOT, 'scripts/split-args.mjs'))) as { splitArgs: (s: string) => string[] };
  assert.deepEqual(splitArgs('  a   b\tc\n'), ['a', 'b', 'c']);
  assert.deepEqual(splitArgs(`--rule "x=error" 'y z' a\\ b "q\\"" '' ""`), ['--rule', 'x=error', 'y z', 'a b', 'q"', '', '']);
  assert.deepEqual(splitArgs(`"a\\$b" 'c\\d' e"f"'g'`), ['a$b', 'c\\d', 'efg']);
  assert.deepEqual(splitArgs('$(x) `y` ; | & * ?'), ['$(x)', '`y`', ';', '|', '&', '*', '?']);
  assert.throws(() => splitArgs("'open"), /unclosed '/);
});

const hooks = parse(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as {
  id: string;
  entry: string;
  language: string;
  files: string;
  require_serial?: boolean;
}[];

/** What pre-commit does for a `script` hook: entry[0] resolved in the hook repository, then the file names, cwd = the user's repository. */
function runHook(id: string, cwd: string, files: string[]) {
  const hook = hooks.find(h => h.id === id)!;
  const [script, ...args] = hook.entry.split(/\s+/);
  const rx = new RegExp(hook.files);
  const r = spawnSync(join(ROOT, script!), [...args, ...files.filter(f => rx.test(f))], { cwd, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('.pre-commit-hooks.yaml: script hooks on adapter files only, serial, entry executable', () => {
  assert.deepEqual(
    hooks.map(h => h.id),
    ['mcp-aql-errors', 'mcp-aql-errors-fix'],
  );
  for (const h of hooks) {
    assert.equal(h.language, 'script');
    assert.equal(h.require_serial, true, 'all files in one run: codes declared in one are known in the others');
    const script = join(ROOT, h.entry.split(/\s+/)[0]!);
    accessSync(script, constants.X_OK);
    const rx = new RegExp(h.files);
    for (const f of ['github-adapter.md', 'a/b/shop.adapter.yaml', 'x-adapter.yml', 'w.adapter.json']) assert.ok(rx.test(f), f);
    for (const f of ['README.md', 'adapter.yaml', 'a/config.yaml', 'x.adapter.yaml.bak', 'notadapter.md']) assert.ok(!rx.test(f), f);
  }
  const mode = spawnSync('git', ['ls-files', '-s', 'scripts/run-cli.sh'], { cwd: ROOT, encoding: 'utf8' }).stdout;
  if (mode) assert.match(mode, /^100755 /, 'the hook script is executable in git');
});

test('.pre-commit-hooks.yaml: the check hook fails on errors, the fix hook fixes what is safe', () => {
  assert.ok(existsSync(join(ROOT, 'dist/cli.js')), 'npm run build first');
  const dir = tempTree({ 'x.adapter.yaml': BAD, 'ok.adapter.yaml': CLEAN, 'f.adapter.yaml': FIXABLE, 'README.md': '# hi\n' });
  const staged = ['x.adapter.yaml', 'ok.adapter.yaml', 'README.md'];
  const check = runHook('mcp-aql-errors', dir, staged);
  assert.equal(check.code, 1);
  assert.match(check.out, /x\.adapter\.yaml:3:11  error/);
  assert.deepEqual(runHook('mcp-aql-errors', dir, ['ok.adapter.yaml']).code, 0);
  const fix = runHook('mcp-aql-errors-fix', dir, ['f.adapter.yaml']);
  assert.equal(fix.code, 0, fix.out + fix.err);
  assert.equal(readFileSync(join(dir, 'f.adapter.yaml'), 'utf8'), FIXABLE.replace('Bad {f}', "Bad '{f}'"));
});
