/**
 * Hostile checkouts: what a pull request can put in a repository must not hang, crash,
 * leak or forge the CLI's output. Each case is a real file tree under the OS temp folder.
 */
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { codeFrame } from '../../server/src/cli/format/text';
import { main } from '../../server/src/cli/main';
import { ROOT, run, tempTree, tempDir } from './helpers';

const BAD = 'error_mapping:\n  404:\n    code: NOT_FOUND_REPOSITRY\n';
const CLEAN = 'error_codes:\n  VALIDATION_X:\n    category: VALIDATION\n';
const dirs: string[] = [];
const tree = (files: Record<string, string>) => {
  const d = tempTree(files);
  dirs.push(d);
  return d;
};
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Characters no human-readable output may carry raw (LF is ours only). */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const canFifo = process.platform !== 'win32' && spawnSync('mkfifo', ['--version']).status === 0;

/** The CLI in a child process with a hard timeout, for cases that could block the process. */
function cliProcess(args: string[], cwd: string): { code: number | null; out: string; err: string; timedOut: boolean } {
  const loader = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
  const r = spawnSync(process.execPath, ['--import', loader, join(ROOT, 'server/src/cli/main.ts'), ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr, timedOut: (r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT' };
}

test('case 1: an invalid glob is a clear usage error, not a crash', async () => {
  const dir = tree({ 'a.adapter.yaml': BAD });
  for (const [glob, why] of [
    ['[z-a].adapter.yaml', "range 'z-a' at column 2 is out of order"],
    ['src/[ab', "'[' at column 5 is never closed"],
    ['{a,b.yaml', "'{' at column 1 is never closed"],
  ]) {
    const r = await run(['check', glob!], dir);
    assert.equal(r.code, 2, glob);
    assert.equal(r.err, `mcp-aql-errors: invalid glob '${glob}': ${why} (mcp-aql-errors check --help)\n`);
  }
});

test('case 2: an adversarial glob against long names answers right (linear matcher)', async () => {
  const name = 'a'.repeat(40) + '.adapter.yaml';
  const dir = tree({ [name]: BAD, ['sub/' + 'a'.repeat(45) + 'c.adapter.yaml']: BAD });
  const none = await run(['check', '*a*a*a*a*a*a*a*a*c'], dir);
  assert.equal(none.code, 2);
  assert.match(none.err, /no file matches '\*a\*a\*a\*a\*a\*a\*a\*a\*c'/);
  const hit = await run(['check', '**/*a*a*a*a*a*a*a*a*c.adapter.yaml', '--format', 'json'], dir);
  assert.deepEqual(
    JSON.parse(hit.out).map((f: { file: string }) => f.file),
    ['sub/' + 'a'.repeat(45) + 'c.adapter.yaml'],
  );
});

test('case 3: directory link loops are visited once', async () => {
  const dir = tree({ 'a.adapter.yaml': BAD, 'sub/b.adapter.yaml': BAD });
  symlinkSync('.', join(dir, 'self'));
  for (const n of ['up1', 'up2', 'up3']) symlinkSync('..', join(dir, 'sub', n));
  symlinkSync('../a.adapter.yaml', join(dir, 'sub', 'again.adapter.yaml'));
  symlinkSync('nowhere.adapter.yaml', join(dir, 'sub', 'broken.adapter.yaml'));
  for (const extra of [[], ['--follow-symlinks']]) {
    const r = await run(['check', '.', '--format', 'json', ...extra], dir);
    assert.equal(r.code, 1);
    assert.deepEqual(
      JSON.parse(r.out).map((f: { file: string }) => f.file),
      ['a.adapter.yaml', 'sub/b.adapter.yaml'],
      extra.join(''),
    );
    assert.equal(r.err, 'sub/broken.adapter.yaml: a broken symbolic link (ENOENT); skipped\n');
    const g = await run(['check', '**/*.adapter.yaml', '--format', 'json', ...extra], dir);
    assert.deepEqual(
      JSON.parse(g.out).map((f: { file: string }) => f.file),
      ['a.adapter.yaml', 'sub/b.adapter.yaml'],
    );
  }
  // Named twice, or through a link inside the checkout: still one check of the file.
  const twice = await run(['check', 'a.adapter.yaml', 'self/a.adapter.yaml', 'sub/again.adapter.yaml', '--format', 'json'], dir);
  assert.equal(JSON.parse(twice.out).length, 1);
});

test('case 4: links leading outside the checkout are not followed, and their lines never printed', async () => {
  const outside = tree({
    'secret.adapter.yaml': 'error_mapping:\n  404:\n    code: hunter2_TOKEN_LINE\n',
    'dir/x.adapter.yaml': 'error_mapping:\n  500:\n    code: hunter2_IN_DIR\n',
  });
  const dir = tree({ 'a.adapter.yaml': BAD });
  symlinkSync(join(outside, 'secret.adapter.yaml'), join(dir, 'leak.adapter.yaml'));
  symlinkSync(join(outside, 'dir'), join(dir, 'leakdir'));
  for (const args of [['.'], ['**/*.yaml'], ['leak.adapter.yaml', 'leakdir', 'a.adapter.yaml']]) {
    for (const format of ['text', 'json', 'sarif', 'github']) {
      const r = await run(['check', ...args, '--format', format], dir);
      assert.equal(r.code, 1, `${args} ${format}`);
      assert.ok(!r.out.includes('hunter2') && !r.err.includes('hunter2'), `${args} ${format} leaked:\n${r.out}`);
      assert.match(
        r.err,
        /^leak\.adapter\.yaml: a symbolic link to a path outside the checked folder; not followed \(--follow-symlinks to follow\)$/m,
      );
      assert.match(r.err, /^leakdir: a symbolic link to a path outside the checked folder; not followed/m);
    }
  }
  const alone = await run(['check', 'leak.adapter.yaml'], dir);
  assert.equal(alone.code, 2);
  assert.match(alone.err, /no adapter files found/);
  const preview = await run(['preview', 'leak.adapter.yaml'], dir);
  assert.equal(preview.code, 2);
  assert.ok(!preview.out.includes('hunter2'));
  assert.match(preview.err, /'leak\.adapter\.yaml': a symbolic link to a path outside the checked folder/);
  // Opting in follows them.
  const opted = await run(['check', '.', '--follow-symlinks', '--format', 'json'], dir);
  assert.deepEqual(
    JSON.parse(opted.out).map((f: { file: string }) => f.file),
    ['a.adapter.yaml', 'leak.adapter.yaml', 'leakdir/x.adapter.yaml'],
  );
  // A folder named outside the working directory is its own root: links inside it stay followable.
  const cwd = tree({});
  const named = await run(['check', dir, '--format', 'json'], cwd);
  assert.equal(JSON.parse(named.out).length, 1);
  assert.ok(!named.out.includes('hunter2'));
});

test(
  'case 5: a FIFO, a socket or a device is reported and skipped; the CLI cannot hang',
  { skip: !canFifo && 'mkfifo not available', timeout: 120_000 },
  async () => {
    const dir = tree({ 'a.adapter.yaml': BAD });
    assert.equal(spawnSync('mkfifo', [join(dir, 'pipe.adapter.yaml')]).status, 0);
    symlinkSync('/dev/zero', join(dir, 'zero.adapter.yaml'));
    const server = createServer();
    await new Promise<void>(r => server.listen(join(dir, 'sock.adapter.yaml'), r));
    after(() => server.close());
    const walked = cliProcess(['check', '.', '--follow-symlinks'], dir);
    assert.equal(walked.timedOut, false, 'hung');
    assert.equal(walked.code, 1);
    assert.match(walked.err, /^pipe\.adapter\.yaml: a FIFO \(named pipe\); skipped \(only regular files are read\)$/m);
    assert.match(walked.err, /^zero\.adapter\.yaml: a character device; skipped/m);
    assert.match(walked.err, /^sock\.adapter\.yaml: a socket; skipped/m);
    assert.match(walked.out, /in 1 adapter file\./);
    const named = cliProcess(['check', 'pipe.adapter.yaml'], dir);
    assert.equal(named.timedOut, false, 'hung');
    assert.equal(named.code, 2);
    assert.match(named.err, /^pipe\.adapter\.yaml: a FIFO \(named pipe\); skipped/m);
    const preview = cliProcess(['preview', 'pipe.adapter.yaml'], dir);
    assert.equal(preview.timedOut, false, 'hung');
    assert.equal(preview.code, 2);
    assert.match(preview.err, /cannot read 'pipe\.adapter\.yaml': a FIFO \(named pipe\), not a regular file/);
  },
);

test('case 6: control characters are escaped in text (and code frames), github and preview output', async () => {
  const yamlEsc = '"\\e]0;pwned\\a\\e[2J\\e[1A\\rNo problems in 1 adapter file.\\n::error::forged\\u202Egnp.exe\\x9b31m\\x7f"';
  const adapter = `error_codes:\n  VALIDATION_X:\n    category: VALIDATION\n    description: raw \u202e and \x9b here\nerror_mapping:\n  404:\n    code: ${yamlEsc}\n`;
  const dir = tree({
    'x.adapter.yaml': adapter,
    'p.adapter.yaml': `error_codes:\n  "VALIDATION_\\u202E":\n    category: VALIDATION\n    message_template: ${yamlEsc}\n`,
  });
  writeFileSync(join(dir, 'n\x1b[2Jame\u202e.adapter.yaml'), BAD);
  const text = await run(['check', '.'], dir);
  assert.ok(!RAW_CONTROL.test(text.out), JSON.stringify(text.out));
  assert.ok(!RAW_CONTROL.test(text.err), JSON.stringify(text.err));
  const lines = text.out.split('\n');
  assert.equal(lines.filter(l => /^No problems|^\d+ problems? \(/.test(l)).length, 1, 'only our summary line');
  assert.match(lines[lines.length - 2]!, /^\d+ problems \(/);
  assert.ok(text.out.includes('n\\x1b[2Jame\\u202e.adapter.yaml:3:11  error'), text.out);
  assert.ok(
    text.out.includes("'\\x1b]0;pwned\\x07\\x1b[2J\\x1b[1A\\rNo problems in 1 adapter file.\\n::error::forged\\u202egnp.exe\\x9b31m\\x7f'"),
    text.out,
  );
  const github = await run(['check', '.', '--format', 'github'], dir);
  assert.ok(!RAW_CONTROL.test(github.out), JSON.stringify(github.out));
  for (const l of github.out.trimEnd().split('\n')) assert.match(l, /^::(error|warning|notice) file=[^:]*::/);
  assert.ok(github.out.includes('file=n\\x1b[2Jame\\u202e.adapter.yaml,'), github.out);
  assert.ok(github.out.includes('%0DNo problems in 1 adapter file.%0A::error::forged\\u202egnp.exe\\x9b31m\\x7f'), github.out);
  const preview = await run(['preview', 'p.adapter.yaml'], dir);
  assert.ok(!RAW_CONTROL.test(preview.out), JSON.stringify(preview.out));
  assert.ok(preview.out.startsWith('VALIDATION_\\u202e — VALIDATION'), preview.out);
  assert.ok(
    preview.out.includes(
      'message: \\x1b]0;pwned\\x07\\x1b[2J\\x1b[1A\\rNo problems in 1 adapter file.\\n::error::forged\\u202egnp.exe\\x9b31m\\x7f',
    ),
    preview.out,
  );
});

test('case 6: a raw control character in the source is escaped in the code frame, carets aligned', () => {
  assert.equal(codeFrame('a: "\x1b[2J\u202eX"\n', 0, 9, 0, 10), '> 1 | a: "\\x1b[2J\\u202eX"\n    | ' + ' '.repeat(17) + '^');
  assert.equal(codeFrame('a\rb: \x9b\r\nc\n', 1, 3, 1, 4), '  1 | a\n> 2 | b: \\x9b\n    |    ^^^^\n  3 | c');
});

test('case 7: SARIF and JSON URIs are percent-encoded and round-trip to the file', async () => {
  const names = ['bad # 100%.adapter.yaml', 'q?x=1&y.adapter.yaml', 'c:drive.adapter.yaml', 'sub dir/é #2.adapter.yaml'];
  const dir = tree(Object.fromEntries(names.map(n => [n, BAD])));
  const sarif = JSON.parse((await run(['check', '.', '--format', 'sarif'], dir)).out);
  const base = sarif.runs[0].originalUriBaseIds['%SRCROOT%'].uri as string;
  const uris = sarif.runs[0].artifacts.map((a: { location: { uri: string } }) => a.location.uri) as string[];
  assert.ok(uris.includes('bad%20%23%20100%25.adapter.yaml'), uris.join(' '));
  assert.ok(uris.includes('c%3Adrive.adapter.yaml'));
  const back = uris.map(u => fileURLToPath(new URL(u, base))).sort();
  assert.deepEqual(back, names.map(n => join(dir, n)).sort());
  for (const r of sarif.runs[0].results) assert.ok(uris.includes(r.locations[0].physicalLocation.artifactLocation.uri));
  const json = JSON.parse((await run(['check', '.', '--format', 'json'], dir)).out) as { file: string; uri: string }[];
  for (const f of json) assert.equal(fileURLToPath(f.uri), join(dir, f.file));
  assert.ok(json.some(f => f.uri.endsWith('/bad%20%23%20100%25.adapter.yaml')));
});

test('case 9: a file deleted between listing and reading is one message; the run goes on', async () => {
  const outside = tempDir('mcp-aql-out-');
  dirs.push(outside);
  const dir = tree({ 'a.adapter.yaml': BAD, 'b.adapter.yaml': BAD, 'c.adapter.yaml': BAD });
  mkdirSync(join(outside, 'd'));
  // The note for this link is written while listing, after the three files were found: delete one then.
  symlinkSync(join(outside, 'd'), join(dir, 'z-link'));
  let out = '',
    err = '';
  const code = await main(['check', '.', '--format', 'json'], {
    cwd: dir,
    color: false,
    stdout: s => {
      out += s;
    },
    stderr: s => {
      err += s;
      if (s.startsWith('z-link:')) unlinkSync(join(dir, 'b.adapter.yaml'));
    },
  });
  assert.equal(code, 1);
  assert.match(err, /^b\.adapter\.yaml: cannot read: no such file \(deleted after it was listed\?\); skipped$/m);
  assert.deepEqual(
    JSON.parse(out).map((f: { file: string }) => f.file),
    ['a.adapter.yaml', 'c.adapter.yaml'],
  );
});

test('clean files stay clean under the new walk', async () => {
  const dir = tree({ 'x.adapter.yaml': CLEAN });
  const r = await run(['check', '.'], dir);
  assert.equal(r.code, 0);
  assert.equal(r.err, '');
});
