/**
 * One writer for every file a command writes (docs/robustness.md, "Nothing lost on the new surface"): never through a
 * symbolic link a checkout plants at the path or on the folders to it, written whole (a new file beside
 * it, renamed over it), only to a regular file, a character device or a new path; a FIFO, a folder or a
 * path on /proc is one clear error (exit 2), never a hang. A test per command that writes.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { ROOT, run, tempTree } from './helpers';
import { cliBundle } from './bundle';
import { CLI, FAKE, watch } from './watchRun';

const ADAPTER = readFileSync(join(ROOT, 'examples/shop.adapter.yaml'), 'utf8');

/** A checkout (`repo/`) with an adapter, and a file outside it that a planted link points at. */
function checkout(): { dir: string; repo: string; outside: string } {
  const dir = tempTree({
    'repo/shop.adapter.yaml': ADAPTER,
    'repo/shop.responses.jsonl': readFileSync(join(ROOT, 'examples/responses/shop.responses.jsonl'), 'utf8'),
    'outside/target.txt': 'precious\n',
  });
  return { dir, repo: join(dir, 'repo'), outside: join(dir, 'outside/target.txt') };
}

/** The link is still a link, its target unchanged, and no temporary file is left beside it. */
function untouched(linkPath: string, outside: string): void {
  assert.ok(lstatSync(linkPath).isSymbolicLink());
  assert.equal(readFileSync(outside, 'utf8'), 'precious\n');
  const folder = join(linkPath, '..');
  assert.deepEqual(
    readdirSync(folder).filter(n => n.endsWith('.mcp-aql-tmp') || n.endsWith('.tmp')),
    [],
  );
}

const WRITERS: Record<string, { argv: (out: string) => string[]; name: string; option: string }> = {
  'check -o': { argv: o => ['check', 'shop.adapter.yaml', '-f', 'json', '-o', o], name: 'r.json', option: '--output-file' },
  'verify -o': { argv: o => ['verify', 'shop.adapter.yaml', 'shop.responses.jsonl', '-o', o], name: 'v.txt', option: '--output-file' },
  'diff -o': { argv: o => ['diff', 'shop.adapter.yaml', 'shop.adapter.yaml', '-o', o], name: 'd.txt', option: '--output-file' },
  'types -o': { argv: o => ['types', 'shop.adapter.yaml', '-o', o], name: 't.ts', option: '--output-file' },
};

for (const [what, w] of Object.entries(WRITERS))
  test(`${what}: a symbolic link at the path is refused (exit 2), never written through, the link kept`, async () => {
    const { repo, outside } = checkout();
    symlinkSync(outside, join(repo, w.name));
    const r = await run(w.argv(w.name), repo);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, new RegExp(`cannot write ${w.option} '${w.name.replace('.', '\\.')}': a symbolic link, never written through`));
    untouched(join(repo, w.name), outside);
  });

test('docs -o: a link the repository commits in the output folder is never written through', async () => {
  const { repo, outside } = checkout();
  mkdirSync(join(repo, 'docs'));
  symlinkSync(outside, join(repo, 'docs/error-reference.md'));
  const r = await run(['docs', 'shop.adapter.yaml', '-o', 'docs'], repo);
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /cannot write -o 'docs\/error-reference\.md': a symbolic link, never written through/);
  untouched(join(repo, 'docs/error-reference.md'), outside);
  // The html page too; and a plain folder works as before.
  symlinkSync(outside, join(repo, 'docs/error-reference.html'));
  assert.equal((await run(['docs', 'shop.adapter.yaml', '-o', 'docs', '--format', 'html'], repo)).code, 2);
  untouched(join(repo, 'docs/error-reference.html'), outside);
  const ok = await run(['docs', 'shop.adapter.yaml', '-o', 'site'], repo);
  assert.equal(ok.code, 0, ok.err);
  assert.match(readFileSync(join(repo, 'site/error-reference.md'), 'utf8'), /NOT_FOUND_ORDER/);
});

test('a folder link inside the working directory leading out of it is refused; one leading outside the checkout named by the user is theirs', async () => {
  const { dir, repo } = checkout();
  symlinkSync(join(dir, 'outside'), join(repo, 'reports'));
  const r = await run(['check', 'shop.adapter.yaml', '-o', 'reports/deep/r.txt'], repo);
  assert.equal(r.code, 2);
  assert.match(
    r.err,
    /cannot write --output-file 'reports\/deep\/r\.txt': its folder is reached through a symbolic link leading outside the working directory/,
  );
  assert.ok(!existsSync(join(dir, 'outside/deep')));
  const theirs = await run(['check', 'shop.adapter.yaml', '-o', join(dir, 'outside', 'r.txt')], repo);
  assert.equal(theirs.code, 0, theirs.err);
  assert.match(readFileSync(join(dir, 'outside/r.txt'), 'utf8'), /problem/);
});

test('init: a dangling link named .mcp-aql.yaml is refused, its target never created', async () => {
  const { dir, repo } = checkout();
  symlinkSync(join(dir, 'outside/created-by-init.yaml'), join(repo, '.mcp-aql.yaml'));
  const r = await run(['init'], repo);
  assert.equal(r.code, 2);
  assert.match(r.err, /cannot write the config file '\.mcp-aql\.yaml': a symbolic link is already there; nothing written/);
  assert.ok(!existsSync(join(dir, 'outside/created-by-init.yaml')));
  const fresh = tempTree({});
  assert.equal((await run(['init'], fresh)).code, 0);
  assert.match(readFileSync(join(fresh, '.mcp-aql.yaml'), 'utf8'), /^# MCP-AQL error contracts/);
});

test('probe --record and -o: links at either path are refused (exit 2), never written through', async () => {
  const { repo, outside } = checkout();
  cpSync(join(ROOT, 'examples/server'), join(repo, 'server'), { recursive: true });
  symlinkSync(outside, join(repo, 'probe.jsonl'));
  symlinkSync(outside, join(repo, 'probe.txt'));
  const server = ['--contract', 'server', '--', process.execPath, join(ROOT, 'examples/server/server.mjs')];
  const rec = await run(['probe', '--record', 'probe.jsonl', ...server], repo);
  assert.equal(rec.code, 2, rec.err);
  assert.match(rec.err, /cannot write --record 'probe\.jsonl': a symbolic link, never written through/);
  untouched(join(repo, 'probe.jsonl'), outside);
  const out = await run(['probe', '-o', 'probe.txt', ...server], repo);
  assert.equal(out.code, 2, out.err);
  untouched(join(repo, 'probe.txt'), outside);
});

test("probe --infer and --config --all --record: links at the paths (the adapter, each server's transcript) are never written through", async () => {
  const { repo, outside } = checkout();
  const server = [process.execPath, join(ROOT, 'examples/server/server.mjs')];
  symlinkSync(outside, join(repo, 'inferred.adapter.yaml'));
  const inf = await run(['probe', '--infer', 'inferred.adapter.yaml', '--', ...server], repo);
  assert.equal(inf.code, 2, inf.err);
  // Not read through the link either: the refusal names the link, not what its target holds.
  assert.match(inf.err, /cannot write --infer 'inferred\.adapter\.yaml': a symbolic link, never written through/);
  untouched(join(repo, 'inferred.adapter.yaml'), outside);
  const [command, ...args] = server;
  writeFileSync(join(repo, 'mcp.json'), JSON.stringify({ servers: { a: { command, args }, b: { command, args } } }));
  symlinkSync(outside, join(repo, 'rec.b.responses.jsonl'));
  const all = await run(['probe', '--config', 'mcp.json', '--all', '--record', 'rec.responses.jsonl'], repo);
  assert.equal(all.code, 2, all.err);
  assert.match(all.err, /rec\.b\.responses\.jsonl'?: a symbolic link, never written through/);
  untouched(join(repo, 'rec.b.responses.jsonl'), outside);
});

const CALL = (id: number) => {
  const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'fine', arguments: {} } });
  return Buffer.from(`${body}\n`);
};

test('watch --record: a link planted at the path before the first response is never appended through; -o a link is refused', async () => {
  const { repo, outside } = checkout();
  symlinkSync(outside, join(repo, 'r.jsonl'));
  symlinkSync(outside, join(repo, 'w.txt'));
  const r = await watch(['--record', 'r.jsonl', '-o', 'w.txt', '--', process.execPath, FAKE, 'tools'], [CALL(1)], { cwd: repo });
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /cannot write --record 'r\.jsonl': a symbolic link, never written through \(remove it, or name its target\); recording stopped/,
  );
  assert.match(r.stderr, /cannot write the report: cannot write --output-file 'w\.txt': a symbolic link, never written through/);
  untouched(join(repo, 'r.jsonl'), outside);
  untouched(join(repo, 'w.txt'), outside);
  assert.ok(CLI);
});

test('watch --record on a FIFO: refused at once, the session goes on (nothing blocks)', async () => {
  const { repo } = checkout();
  execFileSync('mkfifo', [join(repo, 'r.jsonl')]);
  const r = await watch(['--record', 'r.jsonl', '--', process.execPath, FAKE, 'tools'], [CALL(1)], { cwd: repo });
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /cannot write --record 'r\.jsonl': a FIFO \(named pipe\); only a regular file, a character device or a new path is written; recording stopped/,
  );
  assert.ok(statSync(join(repo, 'r.jsonl')).isFIFO());
});

test('-o to a FIFO, a folder or a path on /proc is one clear error (exit 2), never a hang; a character device is written to', () => {
  const { repo } = checkout();
  execFileSync('mkfifo', [join(repo, 'fifo')]);
  mkdirSync(join(repo, 'folder'));
  const cases: [string, RegExp][] = [
    ['fifo', /cannot write --output-file 'fifo': a FIFO \(named pipe\); only a regular file, a character device or a new path is written/],
    ['folder', /cannot write --output-file 'folder': a directory; only a regular file, a character device or a new path is written/],
    [
      '/proc/self/nope/r.json',
      /cannot write --output-file '\/proc\/self\/nope\/r\.json': a path on the kernel's proc file system, not a regular file/,
    ],
    ['/proc/self/comm', /cannot write --output-file '\/proc\/self\/comm': a path on the kernel's proc file system, not a regular file/],
  ];
  for (const [out, err] of cases) {
    // The built CLI in a child with a bound: /proc made folder creation spin at 100 % CPU.
    const r = cliBundle(['check', 'shop.adapter.yaml', '-o', out], repo, 20_000);
    assert.equal(r.timedOut, false, out);
    assert.equal(r.code, 2, out + r.err);
    assert.match(r.err, err);
  }
  assert.ok(statSync(join(repo, 'fifo')).isFIFO());
  assert.ok(statSync(join(repo, 'folder')).isDirectory());
  // A report dropped on /dev/null: the device stays a device (as root a rename replaced it with a file).
  const dropped = cliBundle(['check', 'shop.adapter.yaml', '-f', 'json', '-o', '/dev/null'], repo);
  assert.equal(dropped.code, 0, dropped.err);
  assert.equal(dropped.out, '');
  assert.ok(statSync('/dev/null').isCharacterDevice());
});

test('a report over an existing file keeps its mode and leaves no temporary file', async () => {
  const { repo } = checkout();
  writeFileSync(join(repo, 'r.txt'), 'old\n');
  chmodSync(join(repo, 'r.txt'), 0o640);
  const r = await run(['check', 'shop.adapter.yaml', '-o', 'r.txt'], repo);
  assert.equal(r.code, 0, r.err);
  assert.equal(statSync(join(repo, 'r.txt')).mode & 0o777, 0o640);
  assert.match(readFileSync(join(repo, 'r.txt'), 'utf8'), /problem/);
  assert.deepEqual(
    readdirSync(repo).filter(n => n.startsWith('.')),
    [],
  );
});
