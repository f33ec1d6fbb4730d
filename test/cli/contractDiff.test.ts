/**
 * At the CLI: `diff` on two folders (the committed v1/v2 pair, golden text and
 * markdown), on two files, on git revisions (renames followed, no checkout), the formats and exit
 * codes, and a stranger's repository (revisions that look like options or shell, fsmonitor).
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Ajv04 from 'ajv-draft-04';
import { CHANGE_RULES } from '../../server/src/service';
import { ROOT, run, tempTree } from './helpers';

const FIX = join(ROOT, 'test/fixtures/evolution');

/** What a user sees of a run (the raw stdout bytes aside). */
const textOf = ({ code, out, err }: { code: number; out: string; err: string }) => ({ code, out, err });

test('two folders: the committed v1 → v2 pair gives the golden report (text and markdown), exit 1 on breaking', async () => {
  const text = await run(['diff', 'v1', 'v2'], FIX);
  assert.equal(text.out, readFileSync(join(FIX, 'expected.txt'), 'utf8'));
  assert.equal(text.err, '');
  assert.equal(text.code, 1);
  const md = await run(['diff', 'v1', 'v2', '--format', 'markdown'], FIX);
  assert.equal(md.out, readFileSync(join(FIX, 'expected.md'), 'utf8'));
  // The code moved from shop.adapter.yaml to checkout.adapter.yaml is not reported.
  assert.ok(!text.out.includes('RATE_LIMIT_CHECKOUT'));
  assert.equal((await run(['diff', 'v1', 'v2', '--fail-on', 'none'], FIX)).code, 0);
});

test('--fail-on: dangerous fails on a dangerous change, breaking does not', async () => {
  const dir = tempTree({
    'a/x.adapter.yaml': 'name: x\nerror_mapping:\n  400:\n    code: VALIDATION_INVALID_TYPE\n',
    'b/x.adapter.yaml': 'name: x\nerror_mapping:\n  400:\n    code: VALIDATION_INVALID_TYPE\n  401:\n    code: PERMISSION_DENIED\n',
  });
  try {
    const r = await run(['diff', 'a/x.adapter.yaml', 'b/x.adapter.yaml'], dir);
    assert.equal(
      r.out,
      'DANGEROUS mapping.status-added  x: error_mapping now maps HTTP 401 to PERMISSION_DENIED\n          at b/x.adapter.yaml:6:11\na/x.adapter.yaml → b/x.adapter.yaml: 0 breaking, 1 dangerous, 0 safe\n',
    );
    assert.equal(r.code, 0);
    assert.equal((await run(['diff', 'a/x.adapter.yaml', 'b/x.adapter.yaml', '--fail-on', 'dangerous'], dir)).code, 1);
    // Two files whose adapters have no name: the report names the adapter by the new file.
    writeFileSync(join(dir, 'a/y.adapter.yaml'), 'error_mapping:\n  404:\n    code: NOT_FOUND_RESOURCE\n');
    writeFileSync(join(dir, 'b/z.adapter.yaml'), 'error_mapping:\n  404:\n    code: INTERNAL_ERROR\n');
    const unnamed = await run(['diff', 'a/y.adapter.yaml', 'b/z.adapter.yaml', '--format', 'json'], dir);
    assert.deepEqual(
      JSON.parse(unnamed.out).changes.map((c: { rule: string; adapter: string }) => [c.rule, c.adapter]),
      [['mapping.status-retargeted', 'b/z.adapter.yaml']],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the examples against themselves: no change, exit 0, in every format', async () => {
  assert.deepEqual(textOf(await run(['diff', 'examples', 'examples'])), {
    code: 0,
    out: 'examples → examples: no change to the error contract\n',
    err: '',
  });
  const json = JSON.parse((await run(['diff', 'examples/shop.adapter.yaml', 'examples/shop.adapter.yaml', '--format', 'json'])).out);
  assert.deepEqual(json, {
    compared: 'examples/shop.adapter.yaml → examples/shop.adapter.yaml',
    summary: { breaking: 0, dangerous: 0, safe: 0 },
    changes: [],
  });
  assert.equal((await run(['diff', 'examples', 'examples', '--format', 'github'])).out, '');
});

test('json, sarif (valid against SARIF 2.1.0) and github formats of the v1 → v2 report', async () => {
  const json = JSON.parse((await run(['diff', 'v1', 'v2', '--format', 'json'], FIX)).out);
  assert.deepEqual(json.summary, { breaking: 5, dangerous: 2, safe: 3 });
  const first = json.changes[0];
  assert.deepEqual(
    [first.rule, first.severity, first.code, first.key, first.before, first.after, first.atFile, first.at.range.start],
    [
      'details.type-widened',
      'breaking',
      'CONFLICT_OUT_OF_STOCK',
      'available',
      'integer',
      'number',
      'v2/shop.adapter.yaml',
      { line: 37, character: 6 },
    ],
  );
  const schema = JSON.parse(
    readFileSync(join(ROOT, 'node_modules/@microsoft/sarif-matcher-utils/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8'),
  );
  const validate = new Ajv04({ allErrors: true, strict: false, validateFormats: false, unicodeRegExp: false }).compile(schema);
  const sarifText = (await run(['diff', 'v1', 'v2', '--format', 'sarif'], FIX)).out;
  assert.ok(validate(JSON.parse(sarifText)), JSON.stringify(validate.errors?.slice(0, 3)));
  const sarif = JSON.parse(sarifText);
  const run0 = sarif.runs[0];
  assert.equal(run0.tool.driver.rules.length, CHANGE_RULES.length);
  assert.deepEqual(
    run0.results.map((r: { level: string }) => r.level),
    ['error', 'error', 'note', 'error', 'note', 'error', 'note', 'error', 'warning', 'warning'],
  );
  assert.equal(run0.results[0].locations[0].physicalLocation.artifactLocation.uri, 'v2/shop.adapter.yaml');
  // A removal has no place in the new files: no location (the old file is not in the checkout).
  assert.equal(run0.results[7].ruleId, 'mapping.status-removed');
  assert.equal(run0.results[7].locations, undefined);
  const gh = (await run(['diff', 'v1', 'v2', '--format', 'github'], FIX)).out.split('\n').filter(Boolean);
  assert.equal(gh.length, 10);
  assert.equal(
    gh[0],
    '::error file=v2/shop.adapter.yaml,line=38,col=7,title=breaking%3A details.type-widened::CONFLICT_OUT_OF_STOCK details.available: type integer → number',
  );
  assert.equal(
    gh[7],
    '::error title=breaking%3A mapping.status-removed::github-api: error_mapping no longer maps HTTP 401 (was PERMISSION_DENIED)',
  );
});

test('usage: one path, a file against a folder, unknown options and formats are exit 2', async () => {
  for (const argv of [
    ['diff', 'v1'],
    ['diff', 'v1', 'v2/shop.adapter.yaml'],
    ['diff', 'v1', 'v2', '--format', 'junit'],
    ['diff', 'v1', 'v2', '--fail-on', 'x'],
    ['diff', 'v1', 'nope'],
  ]) {
    const r = await run(argv, FIX);
    assert.equal(r.code, 2, argv.join(' '));
    assert.match(r.err, /^mcp-aql-errors: /);
    assert.equal(r.out, '');
  }
});

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
function repo(): string {
  const dir = tempTree({});
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.email', 't@example.com');
  git(dir, 'config', 'user.name', 't');
  git(dir, 'config', 'commit.gpgsign', 'false');
  cpSync(join(FIX, 'v1'), join(dir, 'adapters'), { recursive: true });
  writeFileSync(join(dir, 'adapters/plain.adapter.yaml'), 'error_mapping:\n  404:\n    code: NOT_FOUND_RESOURCE\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'v1');
  return dir;
}

test('--base REV: the old versions from git against the working tree; renames followed; nothing checked out or written', async () => {
  const dir = repo();
  try {
    rmSync(join(dir, 'adapters'), { recursive: true });
    cpSync(join(FIX, 'v2'), join(dir, 'adapters'), { recursive: true });
    // An adapter without a name is known by its path: renamed (git mv), it is the same adapter.
    writeFileSync(join(dir, 'adapters/renamed.adapter.yaml'), 'error_mapping:\n  404:\n    code: NOT_FOUND_RESOURCE\n');
    git(dir, 'add', '-A');
    const status = git(dir, 'status', '--porcelain');
    const head = git(dir, 'rev-parse', 'HEAD');
    const r = await run(['diff', '--base', 'main', '--format', 'json'], dir);
    const folders = JSON.parse((await run(['diff', 'v1', 'v2', '--format', 'json'], FIX)).out);
    const got = JSON.parse(r.out);
    const strip = (cs: { rule: string; message: string }[]) => cs.map(c => [c.rule, c.message]);
    assert.deepEqual(strip(got.changes), strip(folders.changes), r.err);
    assert.equal(got.compared, 'main → working tree');
    const removed = got.changes.find((c: { rule: string }) => c.rule === 'mapping.status-removed');
    assert.equal(removed.wasFile, 'main:adapters/github-adapter.md');
    assert.equal(r.code, 1);
    // From a subfolder, paths are relative to it; the renamed file is still followed.
    const sub = await run(['diff', '--base', 'main', '.', '--format', 'json'], join(dir, 'adapters'));
    assert.deepEqual(strip(JSON.parse(sub.out).changes), strip(folders.changes), sub.err);
    assert.equal(git(dir, 'status', '--porcelain'), status);
    assert.equal(git(dir, 'rev-parse', 'HEAD'), head);
    // Without the rename, the unnamed adapter would be removed and another added.
    rmSync(join(dir, 'adapters/renamed.adapter.yaml'));
    writeFileSync(
      join(dir, 'adapters/renamed.adapter.yaml'),
      'error_mapping:\n  404:\n    code: NOT_FOUND_RESOURCE\n  500:\n    code: INTERNAL_ERROR\n',
    );
    git(dir, 'add', '-A');
    const moved = JSON.parse((await run(['diff', '--base', 'main', '--format', 'json', '--fail-on', 'none'], dir)).out);
    const adapterChanges = moved.changes.filter((c: { rule: string }) => c.rule.startsWith('adapter.') || c.rule.startsWith('mapping.'));
    assert.deepEqual(
      adapterChanges
        .filter((c: { adapter: string }) => c.adapter.endsWith('.yaml'))
        .map((c: { rule: string; adapter: string }) => [c.rule, c.adapter]),
      [['mapping.status-added', 'adapters/renamed.adapter.yaml']],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a stranger's repository: option-like and shell-like revisions are refused, fsmonitor and hooks never run", async () => {
  const dir = repo();
  try {
    const marker = join(dir, 'pwned');
    writeFileSync(join(dir, 'evil.sh'), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    git(dir, 'config', 'core.fsmonitor', join(dir, 'evil.sh'));
    git(dir, 'config', 'core.hooksPath', dir);
    git(dir, 'config', 'diff.external', join(dir, 'evil.sh'));
    for (const rev of ['--output=/tmp/x', '-p', `HEAD;touch ${marker}`, '$(touch pwned)', 'no-such-branch', '']) {
      // `--base=REV` hands any value to git's side (`--base -p` is already a usage error: a value is missing).
      const r = await run(['diff', `--base=${rev}`], dir);
      assert.equal(r.code, 2, rev);
      assert.equal(r.out, '');
      assert.match(r.err, /^mcp-aql-errors: --base: ('.*' is not a (revision|commit)|git rev-parse failed: .*)\n$/, rev);
    }
    const glob = await run(['diff', '--base', 'HEAD', 'adapters/*.md'], dir);
    assert.equal(glob.code, 2);
    assert.match(glob.err, /^mcp-aql-errors: diff --base takes files or folders, not globs \(mcp-aql-errors diff --help\)\n/);
    const ok = await run(['diff', '--base', 'HEAD'], dir);
    assert.equal(ok.code, 0, ok.err);
    assert.equal(ok.out, 'HEAD → working tree: no change to the error contract\n');
    assert.equal(existsSync(marker), false, 'no program of the repository ran');
    // A pathspec is literal: `:(glob)*` or a leading dash name no other file.
    const odd = await run(['diff', '--base', 'HEAD', '--', '-x'], dir);
    assert.equal(odd.code, 2);
    assert.match(odd.err, /cannot read '-x'/);
    renameSync(join(dir, 'adapters'), join(dir, 'moved'));
    assert.equal(existsSync(marker), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('markdown escapes what a contract says: no HTML, link, mention, code-span break or table cell from adapter text', async () => {
  const dir = tempTree({
    'a/x.adapter.yaml':
      'name: "x"\nerror_codes:\n  "NOT_FOUND_`|<script>alert(1)</script>":\n    category: NOT_FOUND\n    description: a\n',
    'b/x.adapter.yaml':
      'name: "x"\nerror_codes:\n  "NOT_FOUND_`|<script>alert(1)</script>":\n    category: NOT_FOUND\n    description: "@octocat [click](https://evil.example) <img src=x onerror=alert(1)>\\u001b[31m"\n',
  });
  try {
    const r = await run(['diff', 'a', 'b', '--format', 'markdown'], dir);
    const row = r.out.split('\n').find(l => l.includes('code.description-changed'))!;
    assert.equal(
      row,
      '| `code.description-changed` | NOT\\_FOUND\\_\\`\\|\\<script\\>alert\\(1\\)\\</script\\>: description changed | `b/x.adapter.yaml:3:3` |',
    );
    assert.ok(!/<script|<img|\]\(|\x1b/.test(r.out.replace(/\\</g, '')), r.out);
    const text = await run(['diff', 'a', 'b'], dir);
    assert.ok(!text.out.includes('\x1b'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the config file applies as in check: ignored files are not compared; an adapter over maxFileSize is an error, not a removal', async () => {
  const code = 'error_codes:\n  NOT_FOUND_X:\n    category: NOT_FOUND\n';
  const dir = tempTree({
    'a/.mcp-aql.yaml': 'ignore: ["drafts/**"]\n',
    'a/x.adapter.yaml': code,
    'a/drafts/d.adapter.yaml': 'error_codes:\n  NOT_FOUND_D:\n    category: NOT_FOUND\n',
    'b/.mcp-aql.yaml': 'ignore: ["drafts/**"]\nmaxFileSize: 1024\n',
    'b/x.adapter.yaml': code + `  NOT_FOUND_Y:\n    description: "${'y'.repeat(1100)}"\n`,
  });
  try {
    const r = await run(['diff', 'a', 'b'], dir);
    assert.equal(r.code, 2);
    assert.equal(r.err, 'mcp-aql-errors: b/x.adapter.yaml: larger than maxFileSize (1024); cannot compare\n');
    writeFileSync(join(dir, 'b/x.adapter.yaml'), code);
    assert.deepEqual(textOf(await run(['diff', 'a', 'b'], dir)), { code: 0, out: 'a → b: no change to the error contract\n', err: '' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a named file that is not read as an adapter is an error naming it, on either side and with --base: never a silent pass', async () => {
  const v1 = readFileSync(join(FIX, 'v1/shop.adapter.yaml'), 'utf8');
  const dir = repo();
  try {
    // `git show HEAD~1:a.adapter.yaml > old`: the name says nothing, so the file is not an adapter (README "Which files").
    writeFileSync(join(dir, 'old'), v1);
    writeFileSync(join(dir, 'new.txt'), v1);
    cpSync(join(FIX, 'v2/shop.adapter.yaml'), join(dir, 'shop.adapter.yaml'));
    writeFileSync(join(dir, '.mcp-aql.yaml'), 'ignore: ["skipped.adapter.yaml"]\n');
    writeFileSync(join(dir, 'skipped.adapter.yaml'), v1);
    const not = (name: string) =>
      `mcp-aql-errors: diff: '${name}' is not read as an adapter file (README "Which files"): nothing to compare\n`;
    for (const [argv, err] of [
      [['old', 'shop.adapter.yaml'], not('old')],
      [['shop.adapter.yaml', 'new.txt'], not('new.txt')],
      [
        ['skipped.adapter.yaml', 'shop.adapter.yaml'],
        `mcp-aql-errors: diff: 'skipped.adapter.yaml' is ignored by the config file: nothing to compare\n`,
      ],
    ] as const) {
      const r = await run(['diff', ...argv], dir);
      assert.deepEqual(textOf(r), { code: 2, out: '', err }, argv.join(' '));
    }
    // --base: the working-tree file, and the file at the revision.
    writeFileSync(join(dir, 'later.yaml'), 'a: 1\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'later');
    // new.txt was committed too: the revision's copy is named first.
    assert.deepEqual(textOf(await run(['diff', '--base', 'main', 'new.txt'], dir)), { code: 2, out: '', err: not('main:new.txt') });
    writeFileSync(join(dir, 'untracked.txt'), v1);
    assert.deepEqual(textOf(await run(['diff', '--base', 'main', 'untracked.txt'], dir)), { code: 2, out: '', err: not('untracked.txt') });
    writeFileSync(join(dir, 'later.yaml'), v1);
    assert.deepEqual(textOf(await run(['diff', '--base', 'main', 'later.yaml'], dir)), { code: 2, out: '', err: not('main:later.yaml') });
    // A named file that did not exist at the revision is all added, as before.
    writeFileSync(join(dir, 'fresh.adapter.yaml'), v1);
    const fresh = await run(['diff', '--base', 'main', 'fresh.adapter.yaml'], dir);
    assert.equal(fresh.code, 0, fresh.err);
    assert.match(fresh.out, /safe/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
