/**
 * `check --cache` against a checkout written by a stranger: the cache is never read
 * or written through a link, lives outside the checked tree by default, is written atomically, is
 * authenticated with a per-user secret (a forged or edited cache is ignored), validated entry by entry
 * and pruned; it only ever saves time. Each case is a real tree under the OS temp folder; the user's
 * cache folder is a temporary XDG_CACHE_HOME.
 */
import test, { after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CheckCache, contentHash } from '../../server/src/cli/cache/checkCache';
import { defaultCacheFile } from '../../server/src/cli/cache/store';
import { ConfigLookup } from '../../server/src/cli/config';
import { ROOT, run, tempTree } from './helpers';

const BAD = 'error_mapping:\n  404:\n    code: NOT_FOUND_REPOSITRY\n';
const CLEAN = 'error_codes:\n  VALIDATION_X:\n    category: VALIDATION\n';
const VICTIM = '# ~/.bashrc\nexport PS1="$ "\n';
const dirs: string[] = [];
const track = (d: string) => (dirs.push(d), d);
const tree = (files: Record<string, string>) => track(tempTree(files));
const temp = (prefix: string) => track(mkdtempSync(join(tmpdir(), prefix)));
const savedHome = process.env.XDG_CACHE_HOME;
after(() => {
  if (savedHome === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = savedHome;
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
let home = '';
beforeEach(() => {
  home = temp('mcp-aql-cache-home-');
  process.env.XDG_CACHE_HOME = home;
});
const cacheDir = () => join(home, 'mcp-aql-errors');
const canFifo = process.platform !== 'win32' && spawnSync('mkfifo', ['--version']).status === 0;

/** A victim file outside the checkout (the user's shell start-up file, say). */
function victim(): string {
  const p = join(temp('mcp-aql-victim-'), 'bashrc');
  writeFileSync(p, VICTIM);
  return p;
}

/** The cache file's body and its MAC line, for the tests that play the attacker or the user. */
function splitCache(file: string): { head: string; body: string } {
  const text = readFileSync(file, 'utf8');
  const nl = text.indexOf('\n');
  return { head: text.slice(0, nl), body: text.slice(nl + 1) };
}
/** Re-sign a body with the secret of a cache home (what a user, not a pull request, can do). */
function sign(file: string, body: string, secretHome: string): void {
  const secret = readFileSync(join(secretHome, 'mcp-aql-errors', 'secret'), 'utf8').trim();
  writeFileSync(file, `mcp-aql-errors-cache 2 ${createHmac('sha256', secret).update(body).digest('hex')}\n${body}`);
}
const clearDiagnostics = (body: string) => {
  const data = JSON.parse(body) as { files: Record<string, unknown[]> };
  for (const e of Object.values(data.files)) if (e[7]) e[7] = [];
  return JSON.stringify(data);
};

test('a committed .mcp-aql-cache.json that is a symbolic link is never written through (the default cache is outside the tree)', async () => {
  const bashrc = victim();
  const dir = tree({ 'a.adapter.yaml': BAD });
  symlinkSync(bashrc, join(dir, '.mcp-aql-cache.json'));
  const r = await run(['check', '--cache', '--format', 'json'], dir);
  assert.equal(r.code, 1, r.err);
  assert.equal(readFileSync(bashrc, 'utf8'), VICTIM);
  assert.deepEqual(readdirSync(dir).sort(), ['.mcp-aql-cache.json', 'a.adapter.yaml'], 'nothing written in the checked tree');
  const made = readdirSync(cacheDir()).sort();
  assert.equal(made.length, 2, made.join());
  assert.match(made[0]!, /^check-[0-9a-f]{16}\.json$/);
  assert.equal(made[1], 'secret');
  if (process.platform !== 'win32') {
    assert.equal(statSync(cacheDir()).mode & 0o777, 0o700);
    assert.equal(statSync(join(cacheDir(), 'secret')).mode & 0o777, 0o600);
    assert.equal(statSync(join(cacheDir(), made[0]!)).mode & 0o777, 0o600);
  }
});

test('--cache-location naming a link, a directory, a path through a linked folder or a file that is not a cache: one line, no cache, the same result', async () => {
  const bashrc = victim();
  const outside = temp('mcp-aql-outside-');
  const dir = tree({ 'a.adapter.yaml': BAD, 'notes.txt': VICTIM });
  symlinkSync(bashrc, join(dir, 'link.json'));
  mkdirSync(join(dir, 'folder.json'));
  symlinkSync(outside, join(dir, 'out'));
  const plain = await run(['check', 'a.adapter.yaml', '--format', 'json'], dir);
  for (const [loc, why] of [
    ['link.json', 'a symbolic link'],
    ['folder.json', 'a directory'],
    ['out/c.json', 'reached through a symbolic link leading outside the checked folder'],
    ['notes.txt', 'not a cache file (it is kept as it is)'],
  ] as const) {
    const r = await run(['check', 'a.adapter.yaml', '--cache-location', loc, '--format', 'json'], dir);
    assert.equal(r.code, 1, loc);
    assert.equal(r.out, plain.out, loc);
    assert.equal(r.err, `${loc}: cache not used: ${why}\n`, loc);
    assert.equal(readFileSync(bashrc, 'utf8'), VICTIM, loc);
    assert.deepEqual(readdirSync(outside), [], loc);
  }
  assert.deepEqual(readdirSync(join(dir, 'folder.json')), []);
  assert.equal(readFileSync(join(dir, 'notes.txt'), 'utf8'), VICTIM, 'a file that is not a cache is never overwritten');
});

test('--cache-location naming a FIFO neither hangs nor changes the result', { skip: !canFifo }, () => {
  const dir = tree({ 'a.adapter.yaml': BAD });
  spawnSync('mkfifo', [join(dir, 'fifo.json')]);
  const loader = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
  const r = spawnSync(
    process.execPath,
    ['--import', loader, join(ROOT, 'server/src/cli/main.ts'), 'check', 'a.adapter.yaml', '--cache-location', 'fifo.json'],
    {
      cwd: dir,
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, XDG_CACHE_HOME: home },
    },
  );
  assert.equal(r.error, undefined, 'no hang');
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /^fifo\.json: cache not used: a FIFO \(named pipe\)\n/);
});

test('a forged cache cannot turn exit 1 into exit 0: cleared entries re-signed by someone else, or edited without signing', async () => {
  const dir = tree({ 'a.adapter.yaml': BAD });
  const forged = join(dir, 'forged.json');
  // The attacker, on their own machine: a real cache of the broken file, then its diagnostics cleared.
  const attackerHome = home;
  assert.equal((await run(['check', '--cache-location', 'forged.json'], dir)).code, 1);
  sign(forged, clearDiagnostics(splitCache(forged).body), attackerHome);
  // The old format, committed at the old default place, with the same lie.
  writeFileSync(join(dir, '.mcp-aql-cache.json'), clearDiagnostics(splitCache(forged).body));
  // The victim runs the check in CI or at home.
  process.env.XDG_CACHE_HOME = temp('mcp-aql-cache-victim-');
  const a = await run(['check', '--cache-location', 'forged.json', '--format', 'json'], dir);
  assert.equal(a.code, 1, 'a cache signed with another secret is ignored');
  assert.match(a.out, /mapping\.unknown-code/);
  assert.equal(a.err, 'forged.json: cache not used: not written by this user (its signature does not match); starting afresh\n');
  const b = await run(['check', '--cache'], dir);
  assert.equal(b.code, 1, 'the committed .mcp-aql-cache.json is not read');
  // The user's own, authentic cache with its body edited (by a checkout that wrote into it) is refused too.
  const own = join(dir, 'own.json');
  assert.equal((await run(['check', '--cache-location', 'own.json'], dir)).code, 1);
  const { head, body } = splitCache(own);
  writeFileSync(own, `${head}\n${clearDiagnostics(body)}`);
  assert.equal((await run(['check', '--cache-location', 'own.json'], dir)).code, 1);
});

test('entries of a wrong shape are a miss, never a crash, and the result equals a full check', async () => {
  const dir = tree({ 'a.adapter.yaml': BAD, 'b.adapter.yaml': CLEAN });
  const full = await run(['check', '--format', 'json'], dir);
  const file = join(dir, 'c.json');
  assert.equal((await run(['check', '--cache-location', 'c.json'], dir)).code, 1);
  const data = JSON.parse(splitCache(file).body) as { tool: string; files: Record<string, unknown[]> };
  const [a, b] = Object.keys(data.files).sort();
  const entryA = data.files[a!]!;
  // An entry of file a with some fields replaced (no workspace fingerprint, so its declarations are decoded).
  const withA = (i: number, v: unknown) =>
    JSON.stringify({ ...data, files: { ...data.files, [a!]: entryA.map((x, j) => (j === i ? v : j === 9 ? null : x)) } });
  const bodies = [
    'null',
    '[]',
    JSON.stringify({ ...data, files: [] }),
    JSON.stringify({ ...data, files: { [a!]: { hash: 5, decls: 'x', diagnostics: [{}] }, [b!]: null } }),
    JSON.stringify({ ...data, files: { [a!]: [5, 'x'], [b!]: [] } }),
    withA(7, [{ range: 1, message: 2 }]),
    withA(7, [{ range: { start: { line: -1, character: 0 }, end: { line: 0, character: 0 } }, message: 'x' }]),
    withA(5, '[1]'),
    withA(5, 'not json'),
    withA(4, '[[3]]'),
    withA(4, JSON.stringify([['X', null, 99]])),
    withA(4, JSON.stringify([['X', null, -1]])),
    JSON.stringify({ ...data, details: [[['id', 5, null]]], files: { ...data.files, [a!]: entryA.map((x, j) => (j === 9 ? null : x)) } }),
    JSON.stringify({ ...data, details: 'x' }),
    withA(4, 5),
    withA(6, null),
    withA(2, [1, 2]),
    withA(9, null),
    JSON.stringify({ ...data, version: 3 }),
    `{"version":4,"tool":${JSON.stringify(data.tool)},"files":{"__proto__":["x"]}}`,
  ];
  for (const body of bodies) {
    sign(file, body, home);
    const r = await run(['check', '--cache-location', 'c.json', '--format', 'json'], dir);
    assert.deepEqual([r.code, r.out, r.err], [1, full.out, ''], body);
  }
});

test('the cache is written atomically (replaced, never a temporary file left) and entries of deleted files are pruned', async () => {
  const dir = tree({ 'a.adapter.yaml': BAD, 'b.adapter.yaml': CLEAN, 'sub/c.adapter.yaml': CLEAN });
  const file = join(dir, 'c.json');
  await run(['check', '--cache-location', 'c.json'], dir);
  const ino = statSync(file).ino;
  assert.equal(Object.keys((JSON.parse(splitCache(file).body) as { files: object }).files).length, 3);
  rmSync(join(dir, 'sub'), { recursive: true });
  await run(['check', '--cache-location', 'c.json'], dir);
  assert.notEqual(statSync(file).ino, ino, 'replaced by a rename');
  const keys = Object.keys((JSON.parse(splitCache(file).body) as { files: object }).files);
  assert.deepEqual(keys.map(k => k.replace(/^.*\//, '')).sort(), ['a.adapter.yaml', 'b.adapter.yaml']);
  assert.deepEqual(readdirSync(dir).sort(), ['a.adapter.yaml', 'b.adapter.yaml', 'c.json']);
  assert.deepEqual(
    readdirSync(cacheDir()).filter(n => n !== 'secret' && !n.startsWith('check-')),
    [],
  );
});

test('a cached file is re-checked when a code it uses is removed elsewhere, even when size and mtime are restored', async () => {
  const uses = 'error_mapping:\n  404:\n    code: NOT_FOUND_WIDGET\n';
  const decl = 'error_codes:\n  NOT_FOUND_WIDGET:\n    category: NOT_FOUND\n';
  const dir = tree({ 'a.adapter.yaml': uses, 'b.adapter.yaml': decl });
  age(dir, ['a.adapter.yaml', 'b.adapter.yaml']);
  assert.equal((await run(['check', '--cache'], dir)).code, 0);
  assert.equal((await run(['check', '--cache'], dir)).code, 0);
  const b = join(dir, 'b.adapter.yaml');
  const st = statSync(b);
  assert.equal(probeReads(dir, ['a.adapter.yaml', 'b.adapter.yaml']), 0, 'trusted by size, times and inode');
  // Same size, same mtime: only the content (and the change time) differ.
  writeFileSync(b, decl.replace('NOT_FOUND_WIDGET', 'NOT_FOUND_GADGET'));
  utimesSync(b, st.atime, st.mtime);
  assert.equal(statSync(b).size, st.size);
  const r = await run(['check', '--cache', '--format', 'json'], dir);
  assert.equal(r.code, 1);
  assert.match(r.out, /mapping\.unknown-code/);
  // A hard link swapped in (another inode, same size and mtime) is noticed too.
  rmSync(b);
  const elsewhere = join(temp('mcp-aql-hard-'), 'b');
  writeFileSync(elsewhere, decl);
  utimesSync(elsewhere, st.atime, st.mtime);
  linkSync(elsewhere, b);
  assert.equal((await run(['check', '--cache'], dir)).code, 0);
  assert.ok(existsSync(cacheDir()));
});

/** Set files' times an hour back (a checkout made a while ago: their times are trusted, not racy). */
function age(dir: string, names: string[]): void {
  const then = new Date(Date.now() - 3_600_000);
  for (const n of names) utimesSync(join(dir, n), then, then);
}

/** How many of the files the cache reads to know they are unchanged (the default cache of `dir`). */
function probeReads(dir: string, names: string[]): number {
  const cache = CheckCache.open(defaultCacheFile(dir), dir, m => assert.fail(m))!;
  let reads = 0;
  for (const n of names) {
    const p = join(dir, n);
    const hit = cache.probe(pathToFileURL(p).href, p, OPTS_KEY, () => (reads++, readFileSync(p, 'utf8')));
    assert.equal(hit.hit, true, n);
  }
  return reads;
}
// As check asks the service: every problem (the per-file cap is the CLI's, after --quiet).
const OPTS_KEY = contentHash(
  JSON.stringify({ ...new ConfigLookup(tmpdir(), { rules: {} }).optionsFor(join(tmpdir(), 'x.adapter.yaml')), maxProblems: Infinity }),
);

test('nothing changed: no file is read, no entry decoded, the cache not rewritten', async () => {
  const names = ['a.adapter.yaml', 'b.adapter.yaml', 'c.adapter.yaml'];
  const dir = tree({ [names[0]!]: BAD, [names[1]!]: CLEAN, [names[2]!]: 'error_mapping:\n  404:\n    code: VALIDATION_X\n' });
  age(dir, names);
  const first = await run(['check', '--cache', '--format', 'json'], dir);
  const file = defaultCacheFile(dir);
  const written = statSync(file);
  const again = await run(['check', '--cache', '--format', 'json'], dir);
  assert.deepEqual([again.code, again.out, again.err], [first.code, first.out, first.err]);
  assert.deepEqual([statSync(file).ino, statSync(file).mtimeMs], [written.ino, written.mtimeMs], 'not rewritten');
  assert.equal(probeReads(dir, names), 0);
  const cache = CheckCache.open(file, dir, m => assert.fail(m))!;
  for (const n of names) cache.probe(pathToFileURL(join(dir, n)).href, join(dir, n), OPTS_KEY, () => assert.fail('read'));
  const uris = names.map(n => pathToFileURL(join(dir, n)).href);
  cache.setWorkspace(uris, () => assert.fail('no declarations decoded'));
  assert.equal(cache.stale(uris), false, 'every result current under the same declarations: no dependency compared');
});

test('a file changed while it was checked (a worker read another text than the one hashed) leaves no entry: its result is never taken for the hashed text', async () => {
  const dir = tree({ 'a.adapter.yaml': BAD });
  const a = join(dir, 'a.adapter.yaml');
  age(dir, ['a.adapter.yaml']);
  assert.equal((await run(['check', '--cache'], dir)).code, 1);
  writeFileSync(a, BAD + '# 1\n');
  age(dir, ['a.adapter.yaml']);
  // As a run would: probed (read, hashed), then — the file swapped for a clean text — checked from the swapped text.
  const file = defaultCacheFile(dir);
  const cache = CheckCache.open(file, dir, m => assert.fail(m))!;
  const uri = pathToFileURL(a).href;
  const { hash } = cache.probe(uri, a, OPTS_KEY, () => readFileSync(a, 'utf8'));
  writeFileSync(a, CLEAN);
  cache.setWorkspace([uri], () => []);
  cache.store(uri, hash!, OPTS_KEY, { uri, adapter: true, decls: [], refs: [] }, []);
  cache.save(m => assert.fail(m));
  // The broken text back (new times, the hash it had): checked, not the clean text's result.
  writeFileSync(a, BAD + '# 1\n');
  age(dir, ['a.adapter.yaml']);
  const r = await run(['check', '--cache', '--format', 'json'], dir);
  assert.equal(r.code, 1);
  assert.equal(r.out, (await run(['check', '--format', 'json'], dir)).out);
});
