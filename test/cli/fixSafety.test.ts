/**
 * `--fix` on a checkout written by a stranger, and on a disk that fails: no
 * concurrent edit lost, links and owners kept, read-only files refused, write errors one line each with
 * the report still printed, and `--stdin --fix` giving back bytes it cannot fix exactly as it got them.
 */
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import {
  chmodSync,
  chownSync,
  closeSync,
  linkSync,
  mkdirSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFixed, type WriteFs } from '../../server/src/cli/safeWrite';
import { main } from '../../server/src/cli/main';
import { run, tempTree } from './helpers';

const FIXABLE =
  'error_codes:\n  VALIDATION_BAD_INPUT:\n    category: VALIDATON\n    message_template: Bad {field}\n    details:\n      field: string\n';
const FIXED = FIXABLE.replace('VALIDATON', 'VALIDATION').replace('Bad {field}', "Bad '{field}'");
const dirs: string[] = [];
const tree = (files: Record<string, string | Buffer>) => {
  const d = tempTree(files);
  dirs.push(d);
  return d;
};
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'mcp-aql-fix-'));
  dirs.push(d);
  return d;
};
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

test('a concurrent edit is never lost: the file is compared again just before it is replaced', () => {
  const dir = tree({ 'a.adapter.yaml': FIXABLE });
  const p = join(dir, 'a.adapter.yaml');
  // The user saves from the editor between the check's read and the write.
  writeFileSync(p, FIXABLE + '# my edit\n');
  assert.deepEqual(writeFixed(p, FIXABLE, FIXED, dir), { written: false, failed: false, note: 'changed since it was read; not fixed' });
  assert.equal(readFileSync(p, 'utf8'), FIXABLE + '# my edit\n');
  // …or in the window after the temporary file is written.
  writeFileSync(p, FIXABLE);
  const racing: Partial<WriteFs> = {
    renameSync: () => assert.fail('must not rename over a changed file'),
    closeSync: fd => {
      closeSync(fd);
      writeFileSync(p, FIXABLE + '# late edit\n');
    },
  };
  assert.equal(writeFixed(p, FIXABLE, FIXED, dir, racing).note, 'changed since it was read; not fixed');
  assert.equal(readFileSync(p, 'utf8'), FIXABLE + '# late edit\n');
  assert.deepEqual(readdirSync(dir), ['a.adapter.yaml'], 'the temporary file is removed');
});

test('--fix keeps symbolic links (fixing the target inside the checked folder) and skips a target outside it', async () => {
  const outside = temp();
  writeFileSync(join(outside, 'theirs.adapter.yaml'), FIXABLE);
  const dir = tree({ 'real/t.adapter.yaml': FIXABLE });
  symlinkSync(join('real', 't.adapter.yaml'), join(dir, 'l.adapter.yaml'));
  symlinkSync(join(outside, 'theirs.adapter.yaml'), join(dir, 'out.adapter.yaml'));
  const r = await run(['check', 'l.adapter.yaml', 'out.adapter.yaml', '--fix', '--follow-symlinks', '--format', 'json'], dir);
  assert.ok(lstatSync(join(dir, 'l.adapter.yaml')).isSymbolicLink(), 'the link stays a link');
  assert.equal(readFileSync(join(dir, 'real/t.adapter.yaml'), 'utf8'), FIXED);
  assert.ok(lstatSync(join(dir, 'out.adapter.yaml')).isSymbolicLink());
  assert.equal(readFileSync(join(outside, 'theirs.adapter.yaml'), 'utf8'), FIXABLE, 'nothing written outside the checked folder');
  assert.equal(r.err, 'out.adapter.yaml: a symbolic link to a file outside the checked folder; not fixed\n');
  assert.equal(r.code, 1, 'the unfixed file still has its problems: ' + r.out);
});

test('--fix keeps hard links, owner, group and mode', { skip: !isRoot && 'chown needs root' }, async () => {
  const dir = tree({ 'a.adapter.yaml': FIXABLE, 'b.adapter.yaml': FIXABLE });
  const a = join(dir, 'a.adapter.yaml'),
    b = join(dir, 'b.adapter.yaml');
  const elsewhere = join(temp(), 'a-hardlink.yaml');
  linkSync(a, elsewhere);
  chownSync(b, 1234, 5678);
  chmodSync(b, 0o640);
  const r = await run(['check', '--fix'], dir);
  assert.equal(r.code, 0, r.out + r.err);
  assert.equal(statSync(a).ino, statSync(elsewhere).ino, 'still one file under two names');
  assert.equal(readFileSync(elsewhere, 'utf8'), FIXED);
  const st = statSync(b);
  assert.deepEqual([st.uid, st.gid, st.mode & 0o777], [1234, 5678, 0o640]);
  assert.equal(readFileSync(b, 'utf8'), FIXED);
});

test('--fix refuses a read-only file, as ESLint and Prettier do: one line, the report still printed, exit 2', async () => {
  // Two codes of their own (one code declared in two files is code.declared-elsewhere).
  const other = (s: string) => s.replace('VALIDATION_BAD_INPUT', 'VALIDATION_OTHER_INPUT');
  const dir = tree({ 'a.adapter.yaml': FIXABLE, 'ok.adapter.yaml': other(FIXABLE) });
  chmodSync(join(dir, 'a.adapter.yaml'), 0o444);
  const r = await run(['check', '--fix', '--format', 'json'], dir);
  assert.equal(readFileSync(join(dir, 'a.adapter.yaml'), 'utf8'), FIXABLE);
  assert.equal(readFileSync(join(dir, 'ok.adapter.yaml'), 'utf8'), other(FIXED));
  assert.equal(r.err, 'a.adapter.yaml: read-only; not fixed\n1 file could not be written\n');
  const report = JSON.parse(r.out) as { file: string; diagnostics: { code: string }[] }[];
  assert.deepEqual(
    report.map(f => [f.file, f.diagnostics.map(d => d.code).sort()]),
    [
      ['a.adapter.yaml', ['code.unknown-category', 'template.unquoted-placeholder']],
      ['ok.adapter.yaml', []],
    ],
  );
  assert.equal(r.code, 2);
});

test('EACCES, ENOSPC and friends are one clear line per file; the report is printed; no temporary file is left', async () => {
  for (const [code, words] of [
    ['ENOSPC', 'no space left on device'],
    ['EACCES', 'permission denied'],
    ['EROFS', 'read-only file system'],
    ['EDQUOT', 'disk quota exceeded'],
  ] as const) {
    const dir = tree({ 'a.adapter.yaml': FIXABLE, 'b.adapter.yaml': FIXABLE });
    let out = '',
      err = '';
    const fail = () => {
      throw Object.assign(new Error(`${code}: boom, write`), { code });
    };
    const status = await main(['check', '--fix', '--format', 'json'], {
      cwd: dir,
      color: false,
      stdout: s => void (out += s),
      stderr: s => void (err += s),
      writeFs: code === 'EACCES' ? { openSync: fail } : { writeSync: fail },
    });
    assert.equal(
      err,
      `a.adapter.yaml: cannot write: ${words} (${code}); not fixed\nb.adapter.yaml: cannot write: ${words} (${code}); not fixed\n2 files could not be written\n`,
    );
    assert.equal((JSON.parse(out) as unknown[]).length, 2, 'the report is printed');
    assert.equal(status, 2);
    assert.deepEqual(readdirSync(dir).sort(), ['a.adapter.yaml', 'b.adapter.yaml']);
    assert.equal(readFileSync(join(dir, 'a.adapter.yaml'), 'utf8'), FIXABLE);
  }
});

test('a directory put in place of the file before the write: skipped with a note, nothing replaced', () => {
  const dir = tree({ 'a.adapter.yaml': FIXABLE });
  const p = join(dir, 'a.adapter.yaml');
  rmSync(p);
  mkdirSync(p);
  assert.deepEqual(writeFixed(p, FIXABLE, FIXED, dir), {
    written: false,
    failed: false,
    note: 'changed since it was read (now a directory); not fixed',
  });
  assert.ok(statSync(p).isDirectory());
});

test('--stdin --fix gives back input that is not UTF-8 byte for byte (and a BOM when nothing changed)', async () => {
  const dir = tree({});
  const latin1 = Buffer.concat([Buffer.from(FIXABLE), Buffer.from('# caf'), Buffer.from([0xe9, 0xff, 0x0a])]);
  const r = await run(['check', '--stdin', '--fix', '--stdin-filename', 'x.adapter.yaml'], dir, latin1);
  assert.deepEqual(r.outBytes, latin1);
  assert.equal(r.err, 'x.adapter.yaml: not valid UTF-8; not fixed\n');
  const bom = Buffer.from('\ufeff' + 'error_mapping:\n  404:\n    code: NOT_FOUND_RESOURCE\n', 'utf8');
  const same = await run(['check', '--stdin', '--fix', '--stdin-filename', 'x.adapter.yaml'], dir, bom);
  assert.deepEqual(same.outBytes, bom);
  const fixedBom = await run(['check', '--stdin', '--fix', '--stdin-filename', 'x.adapter.yaml'], dir, Buffer.from('\ufeff' + FIXABLE));
  assert.deepEqual(fixedBom.outBytes, Buffer.from('\ufeff' + FIXED));
  // Ignored by the config: the bytes come back untouched as well.
  writeFileSync(join(dir, '.mcp-aql.yaml'), 'ignore: ["vendor/**"]\n');
  const ignored = await run(['check', '--stdin', '--fix', '--stdin-filename', 'vendor/x.adapter.yaml'], dir, latin1);
  assert.deepEqual(ignored.outBytes, latin1);
});
