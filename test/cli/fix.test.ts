import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unifiedDiff } from '../../server/src/cli/fix/unifiedDiff';
import { run, tempTree } from './helpers';

// Two safe fixes (a category typo, an unquoted placeholder) and one that Fix all never applies (which code a mapping means).
const FIXABLE =
  'error_codes:\n  VALIDATION_BAD_INPUT:\n    category: VALIDATON\n    message_template: Bad {field}\n    details:\n      field: string\nerror_mapping:\n  404:\n    code: NOT_FOUND_REPOSITRY\n';
const FIXED = FIXABLE.replace('VALIDATON', 'VALIDATION').replace('Bad {field}', "Bad '{field}'");
const CLEAN = 'error_mapping:\n  404:\n    code: NOT_FOUND_RESOURCE\n';

const withStdin = (argv: string[], cwd: string, input: string | Buffer) => run(argv, cwd, input);

test('--fix writes the safe fixes atomically, only to checked files that changed, and reports what remains', async () => {
  const dir = tempTree({
    'a.adapter.yaml': FIXABLE,
    'clean.adapter.yaml': CLEAN,
    'other.yaml': 'name: {x}\n',
    'notes.md': 'Bad {field}\n',
  });
  chmodSync(join(dir, 'a.adapter.yaml'), 0o640);
  const before = statSync(join(dir, 'clean.adapter.yaml'));
  const r = await run(['check', '.', '--fix', '--format', 'json'], dir);
  assert.equal(r.code, 1, 'the unsafe problem remains: ' + r.out + r.err);
  assert.equal(readFileSync(join(dir, 'a.adapter.yaml'), 'utf8'), FIXED);
  assert.equal(statSync(join(dir, 'a.adapter.yaml')).mode & 0o777, 0o640);
  const after = statSync(join(dir, 'clean.adapter.yaml'));
  assert.deepEqual([after.ino, after.mtimeMs], [before.ino, before.mtimeMs], 'an unchanged file is not rewritten');
  assert.equal(readFileSync(join(dir, 'other.yaml'), 'utf8'), 'name: {x}\n');
  assert.deepEqual(readdirSync(dir).sort(), ['a.adapter.yaml', 'clean.adapter.yaml', 'notes.md', 'other.yaml'], 'no temporary file left');
  assert.deepEqual(
    JSON.parse(r.out).map((f: { diagnostics: { code: string; line: number }[] }) => f.diagnostics.map(d => `${d.code}:${d.line}`)),
    [['mapping.unknown-code:9'], []],
  );
});

test('--fix keeps a byte-order mark and CRLF line ends, and never rewrites a file that is not UTF-8', async () => {
  const crlf = '\ufeff' + FIXABLE.replace(/\n/g, '\r\n');
  const latin1 = Buffer.concat([Buffer.from(FIXABLE.replace('Bad', 'Mauvais')), Buffer.from('# caf'), Buffer.from([0xe9, 0x0a])]);
  const dir = tempTree({ 'bom.adapter.yaml': Buffer.from(crlf, 'utf8'), 'latin1.adapter.yaml': latin1 });
  const r = await run(['check', '.', '--fix'], dir);
  assert.equal(readFileSync(join(dir, 'bom.adapter.yaml'), 'utf8'), '\ufeff' + FIXED.replace(/\n/g, '\r\n'));
  assert.deepEqual(readFileSync(join(dir, 'latin1.adapter.yaml')), latin1);
  assert.match(r.err, /latin1\.adapter\.yaml: not valid UTF-8; not fixed/);
  assert.equal(r.code, 1, 'errors remain');
});

test('--fix-dry-run prints a unified diff that git apply accepts, and writes nothing', async () => {
  const dir = tempTree({ 'a.adapter.yaml': FIXABLE, 'clean.adapter.yaml': CLEAN });
  const r = await run(['check', '.', '--fix-dry-run'], dir);
  assert.equal(
    r.out,
    [
      '--- a/a.adapter.yaml',
      '+++ b/a.adapter.yaml',
      '@@ -1,7 +1,7 @@',
      ' error_codes:',
      '   VALIDATION_BAD_INPUT:',
      '-    category: VALIDATON',
      '-    message_template: Bad {field}',
      '+    category: VALIDATION',
      "+    message_template: Bad '{field}'",
      '     details:',
      '       field: string',
      ' error_mapping:',
      '',
    ].join('\n'),
  );
  assert.equal(r.code, 1, 'mapping.unknown-code remains after the fixes');
  assert.equal(readFileSync(join(dir, 'a.adapter.yaml'), 'utf8'), FIXABLE);
  writeFileSync(join(dir, 'fix.patch'), r.out);
  const git = spawnSync('git', ['apply', '--check', '--unsafe-paths', 'fix.patch'], { cwd: dir, encoding: 'utf8' });
  if (git.error) return; // no git on this machine: the exact text above is the check
  assert.equal(git.status, 0, git.stderr);
});

test('unified diff: separate hunks, context, a missing final newline', () => {
  const a = Array.from({ length: 20 }, (_, i) => `l${i + 1}\n`).join('');
  const b = a.replace('l2\n', 'L2\n').replace('l18\n', '').replace('l20\n', 'l20');
  assert.equal(
    unifiedDiff(a, b, 'f'),
    [
      '--- a/f',
      '+++ b/f',
      '@@ -1,5 +1,5 @@',
      ' l1',
      '-l2',
      '+L2',
      ' l3',
      ' l4',
      ' l5',
      '@@ -15,6 +15,5 @@',
      ' l15',
      ' l16',
      ' l17',
      '-l18',
      ' l19',
      '-l20',
      '+l20',
      '\\ No newline at end of file',
      '',
    ].join('\n'),
  );
  assert.equal(unifiedDiff('x\n', 'x\n', 'f'), '');
  assert.equal(unifiedDiff('', 'new\n', 'f'), '--- a/f\n+++ b/f\n@@ -0,0 +1,1 @@\n+new\n');
});

test('--stdin checks standard input under --stdin-filename; with --fix it prints the fixed text', async () => {
  const dir = tempTree({});
  const r = await withStdin(['check', '--stdin', '--stdin-filename', 'api/x.adapter.yaml', '--format', 'json'], dir, FIXABLE);
  assert.equal(r.code, 1);
  const json = JSON.parse(r.out);
  assert.equal(json[0].file, 'api/x.adapter.yaml');
  assert.deepEqual(
    json[0].diagnostics.map((d: { code: string }) => d.code),
    ['code.unknown-category', 'template.unquoted-placeholder', 'mapping.unknown-code'],
  );
  const fixed = await withStdin(
    ['check', '--stdin', '--fix', '--stdin-filename', 'x.adapter.yaml', '-o', 'report.json', '--format', 'json'],
    dir,
    FIXABLE,
  );
  assert.deepEqual([fixed.code, fixed.out], [1, FIXED]);
  assert.deepEqual(
    JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'))[0].diagnostics.map((d: { code: string }) => d.code),
    ['mapping.unknown-code'],
  );
  rmSync(join(dir, 'report.json'));
  assert.deepEqual(readdirSync(dir), [], 'stdin mode writes no file');
  const plain = await withStdin(['check', '--stdin'], dir, CLEAN);
  assert.match(plain.out, /No problems in 1 adapter file/);
  // Ignored by the config: --stdin --fix gives the text back unchanged (an editor piping through it keeps its buffer).
  const ignoring = tempTree({ '.mcp-aql.yaml': 'ignore: [vendor/**]\n' });
  const ignored = await withStdin(['check', '--stdin', '--fix', '--stdin-filename', 'vendor/x.adapter.yaml'], ignoring, FIXABLE);
  assert.deepEqual([ignored.code, ignored.out], [0, FIXABLE]);
  const notAdapter = await withStdin(['check', '--stdin', '--stdin-filename', 'notes.md'], dir, '# hi\n');
  assert.equal(notAdapter.code, 2);
  assert.match(notAdapter.err, /notes\.md: not an adapter file/);
});

test('usage errors: exit 2 with a reason', async () => {
  const dir = tempTree({ 'a.adapter.yaml': CLEAN });
  for (const [argv, why] of [
    [['check', '--fix', '--fix-dry-run'], /exclude each other/],
    [['check', '--stdin-filename', 'x.yaml'], /needs --stdin/],
    [['check', '--stdin', 'a.adapter.yaml'], /name no paths/],
    [['check', '--output-file'], /--output-file needs a value/],
    [['check', '--quiet=yes'], /--quiet takes no value/],
    [['check', '--format', 'xml'], /unknown format 'xml' \(text, compact, json, sarif, github, junit, checkstyle, codeclimate\)/],
  ] as const) {
    const r = await run([...argv], dir);
    assert.equal(r.code, 2, argv.join(' '));
    assert.match(r.err, why);
  }
});
