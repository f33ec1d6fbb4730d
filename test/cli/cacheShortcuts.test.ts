/**
 * `check --cache`'s shortcuts: what a run with the cache does not read or redo, and
 * that each shortcut still re-checks what it must — a changed file, a changed dependency, a changed
 * config, a changed registry — with results equal to a full check. The user's cache folder is a
 * temporary XDG_CACHE_HOME; files are aged an hour (a checkout made a while ago: their times are trusted).
 */
import test, { after, beforeEach, mock } from 'node:test';
import assert from 'node:assert/strict';
import fs, { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DetailsTable } from '../../server/src/cli/cache/shape';
import { deps } from '../../server/src/cli/deps';
import { run, tempTree } from './helpers';

const BAD = 'error_mapping:\n  404:\n    code: NOT_FOUND_REPOSITRY\n';
const CLEAN = 'error_codes:\n  VALIDATION_X:\n    category: VALIDATION\n';
const dirs: string[] = [];
const track = (d: string) => (dirs.push(d), d);
const savedHome = process.env.XDG_CACHE_HOME;
after(() => {
  if (savedHome === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = savedHome;
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
beforeEach(() => {
  process.env.XDG_CACHE_HOME = track(mkdtempSync(join(tmpdir(), 'mcp-aql-cache-home-')));
});

function tree(files: Record<string, string>): string {
  const dir = track(tempTree(files));
  age(dir, Object.keys(files));
  return dir;
}
function age(dir: string, names: string[]): void {
  const then = new Date(Date.now() - 3_600_000);
  for (const n of names) utimesSync(join(dir, n), then, then);
}

/** A run, with the files of `dir` it opened (each once; its cache folder apart) and how often it opened each. */
async function opening(argv: string[], dir: string): Promise<{ out: string; code: number; opened: string[]; opens: string[] }> {
  const opened: string[] = [];
  const open = fs.openSync;
  const spy = mock.method(fs, 'openSync', (p: fs.PathLike, ...rest: unknown[]) => {
    if (String(p).startsWith(dir)) opened.push(String(p).slice(dir.length + 1));
    return (open as (...a: unknown[]) => number)(p, ...rest);
  });
  try {
    const r = await run(argv, dir);
    return { out: r.out, code: r.code, opened: [...new Set(opened)].sort(), opens: opened.sort() };
  } finally {
    spy.mock.restore();
  }
}

test('nothing changed: a cached file with problems is read again only by a report that shows its lines (text, codeclimate)', async () => {
  const dir = tree({ 'a.adapter.yaml': BAD, 'b.adapter.yaml': CLEAN });
  for (const format of ['json', 'sarif', 'github', 'checkstyle', 'junit', 'compact', 'text', 'codeclimate']) {
    const full = await run(['check', '--format', format], dir);
    const first = await opening(['check', '--cache', '--format', format], dir);
    assert.deepEqual([first.code, first.out], [full.code, full.out], format);
    const again = await opening(['check', '--cache', '--format', format], dir);
    assert.deepEqual([again.code, again.out], [full.code, full.out], format);
    assert.deepEqual(again.opened, format === 'text' || format === 'codeclimate' ? ['a.adapter.yaml'] : [], format);
  }
  // Two reports, one of which shows lines: read once.
  const out = track(mkdtempSync(join(tmpdir(), 'mcp-aql-out-')));
  const both = await opening(['check', '--cache', '--format', 'json', '--format', 'text', '-o', join(out, 'x.txt')], dir);
  assert.deepEqual(both.opened, ['a.adapter.yaml']);
});

test("nothing changed: each file's size, times and inode are the listing's, not asked again", async () => {
  const dir = tree({ 'a.adapter.yaml': BAD, 'b.adapter.yaml': CLEAN });
  const first = await run(['check', '--cache', '--format', 'json'], dir);
  const stat = fs.statSync;
  const asked: string[] = [];
  const spy = mock.method(fs, 'statSync', (p: fs.PathLike, ...rest: unknown[]) => {
    if (String(p).startsWith(dir + '/')) asked.push(String(p).slice(dir.length + 1));
    return (stat as (...a: unknown[]) => unknown)(p, ...rest);
  });
  try {
    const again = await run(['check', '--cache', '--format', 'json'], dir);
    assert.deepEqual([again.code, again.out], [first.code, first.out]);
  } finally {
    spy.mock.restore();
  }
  assert.deepEqual(
    asked.filter(p => p.endsWith('.adapter.yaml')),
    [],
  );
});

test('a file changed within a run of cached ones is re-checked, and its new problem reported', async () => {
  const dir = tree({ 'a.adapter.yaml': CLEAN, 'b.adapter.yaml': CLEAN.replace('_X', '_Y') });
  assert.equal((await run(['check', '--cache', '--format', 'json'], dir)).code, 0);
  writeFileSync(join(dir, 'b.adapter.yaml'), BAD);
  age(dir, ['b.adapter.yaml']);
  const r = await opening(['check', '--cache', '--format', 'json'], dir);
  assert.equal(r.code, 1);
  assert.deepEqual(r.opened, ['b.adapter.yaml']);
  assert.equal(r.out, (await run(['check', '--format', 'json'], dir)).out);
});

test('a changed file is read once: the text its hash was made of is the text indexed and validated', async () => {
  const dir = tree({ 'a.adapter.yaml': CLEAN, 'b.adapter.yaml': CLEAN.replace('_X', '_Y'), 'c.adapter.yaml': BAD });
  assert.equal((await run(['check', '--cache', '--format', 'json'], dir)).code, 1);
  writeFileSync(join(dir, 'b.adapter.yaml'), BAD);
  writeFileSync(join(dir, 'c.adapter.yaml'), BAD + '# edited\n');
  age(dir, ['b.adapter.yaml', 'c.adapter.yaml']);
  const r = await opening(['check', '--cache', '--format', 'json'], dir);
  assert.deepEqual(r.opens, ['b.adapter.yaml', 'c.adapter.yaml']);
  assert.equal(r.out, (await run(['check', '--format', 'json'], dir)).out);
  // b swapped for a clean text right after it was read and hashed: the result reported and cached is the hashed
  // text's, so when the broken text comes back (new times, the hash it had) its problem is not hidden.
  writeFileSync(join(dir, 'b.adapter.yaml'), BAD + '# 2\n');
  age(dir, ['b.adapter.yaml']);
  const readFile = fs.readFileSync;
  let swapped = false;
  const spy = mock.method(fs, 'readFileSync', (p: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
    const out = (readFile as (...a: unknown[]) => Buffer)(p, ...rest);
    if (!swapped && typeof p === 'number' && String(out).endsWith('# 2\n')) {
      swapped = true;
      writeFileSync(join(dir, 'b.adapter.yaml'), CLEAN);
    }
    return out;
  });
  let during;
  try {
    during = await run(['check', '--cache', '--format', 'json'], dir);
  } finally {
    spy.mock.restore();
  }
  assert.equal(swapped, true);
  assert.match(during.out, /b\.adapter\.yaml/, 'b reported as the text that was hashed');
  writeFileSync(join(dir, 'b.adapter.yaml'), BAD + '# 2\n');
  age(dir, ['b.adapter.yaml']);
  const back = await run(['check', '--cache', '--format', 'json'], dir);
  assert.match(back.out, /b\.adapter\.yaml/, 'the broken text back: its problem reported');
  assert.equal(back.out, (await run(['check', '--format', 'json'], dir)).out);
});

test('a changed dependency is re-checked: a declaration elsewhere (its category), and the names a suggestion reads', async () => {
  const uses = 'error_mapping:\n  404:\n    code: NOT_FOUND_WIDGET\n';
  const decl = (category: string) => `error_codes:\n  NOT_FOUND_WIDGET:\n    category: ${category}\n`;
  const dir = tree({
    'a.adapter.yaml': uses,
    'b.adapter.yaml': decl('NOT_FOUND'),
    'c.adapter.yaml': BAD,
    'd.adapter.yaml': CLEAN,
  });
  const same = async (what: string) => {
    const cached = await run(['check', '--cache', '--format', 'json'], dir);
    const full = await run(['check', '--format', 'json'], dir);
    assert.deepEqual([cached.code, cached.out], [full.code, full.out], what);
    return cached.out;
  };
  const first = await same('first run');
  assert.equal(await same('nothing changed'), first);
  // b's category changes: a (which maps b's code from 404) gets its result again.
  writeFileSync(join(dir, 'b.adapter.yaml'), decl('VALIDATION'));
  age(dir, ['b.adapter.yaml']);
  assert.match(await same('a declaration a file maps changed'), /http\.category-mismatch/);
  // A name close to c's unknown code appears in d: c's suggestions change, and c is edited in the same run.
  writeFileSync(join(dir, 'd.adapter.yaml'), CLEAN + '  NOT_FOUND_REPOSITORY:\n    category: NOT_FOUND\n');
  writeFileSync(join(dir, 'c.adapter.yaml'), BAD + '# edited\n');
  age(dir, ['c.adapter.yaml', 'd.adapter.yaml']);
  assert.match(await same('the names changed'), /NOT_FOUND_REPOSITORY/);
  // Only the names change (c untouched): its cached suggestions are not taken.
  writeFileSync(join(dir, 'd.adapter.yaml'), CLEAN);
  age(dir, ['d.adapter.yaml']);
  assert.doesNotMatch(await same('a name gone'), /NOT_FOUND_REPOSITORY/);
  // c edited (a comment) under the same declarations: validated with every name, the names' fingerprint reused.
  writeFileSync(join(dir, 'c.adapter.yaml'), BAD + '# edited again\n');
  age(dir, ['c.adapter.yaml']);
  const edited = await same('a file that reads every name edited, the names unchanged');
  assert.equal(await same('then nothing changed'), edited);
  // c, which read every name, fixed: its new result reads none.
  writeFileSync(join(dir, 'c.adapter.yaml'), CLEAN.replace('_X', '_C'));
  age(dir, ['c.adapter.yaml']);
  await same('a file that read every name fixed');
});

test('a changed config re-checks the files it applies to', async () => {
  const dir = tree({ 'a.adapter.yaml': BAD, 'b.adapter.yaml': CLEAN });
  const first = await run(['check', '--cache', '--format', 'json'], dir);
  assert.equal(first.code, 1);
  writeFileSync(join(dir, '.mcp-aql.yaml'), 'rules:\n  mapping.unknown-code: off\n');
  const cached = await run(['check', '--cache', '--format', 'json'], dir);
  const full = await run(['check', '--format', 'json'], dir);
  assert.deepEqual([cached.code, cached.out], [full.code, full.out]);
  assert.equal(cached.code, 0);
});

test('a changed registry (another build under the same version) re-checks every file', async () => {
  const registry = deps.registry as unknown as { codes: { code: string }[] };
  const code = registry.codes[0]!.code;
  const dir = tree({ 'a.adapter.yaml': `error_mapping:\n  404:\n    code: ${code}\n` });
  const first = await run(['check', '--cache', '--format', 'json'], dir);
  assert.equal(first.code, 0, first.out);
  const saved = registry.codes;
  registry.codes = saved.filter(c => c.code !== code);
  try {
    const cached = await run(['check', '--cache', '--format', 'json'], dir);
    const full = await run(['check', '--format', 'json'], dir);
    assert.deepEqual([cached.code, cached.out], [full.code, full.out]);
    assert.equal(cached.code, 1);
  } finally {
    registry.codes = saved;
  }
});

test('runs over a part of the workspace, then all of it, with declarations changing in between: each equals a full check of what it names', async () => {
  const uses = (code: string) => `error_mapping:\n  404:\n    code: ${code}\n`;
  const decl = (code: string, category = 'NOT_FOUND') => `error_codes:\n  ${code}:\n    category: ${category}\n`;
  const dir = tree({
    'p/a.adapter.yaml': uses('NOT_FOUND_WIDGET'),
    'p/b.adapter.yaml': decl('NOT_FOUND_WIDGET'),
    'q/c.adapter.yaml': uses('NOT_FOUND_GADGET'),
    'q/d.adapter.yaml': decl('NOT_FOUND_GADGET'),
  });
  const same = async (paths: string[], what: string) => {
    const cached = await run(['check', ...paths, '--cache', '--format', 'json'], dir);
    const full = await run(['check', ...paths, '--format', 'json'], dir);
    assert.deepEqual([cached.code, cached.out], [full.code, full.out], what);
  };
  const write = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    age(dir, [name]);
  };
  await same(['.'], 'all');
  await same(['p'], 'a part');
  write('q/d.adapter.yaml', decl('NOT_FOUND_GADGET', 'VALIDATION'));
  await same(['.'], 'all, after a declaration outside the part changed');
  await same(['q', 'p'], 'both parts, named in another order');
  write('p/b.adapter.yaml', decl('NOT_FOUND_THING'));
  await same(['p'], 'a part, after a code it maps was renamed');
  rmSync(join(dir, 'q/d.adapter.yaml'));
  await same(['.'], 'all, after a declaring file was deleted');
});

test('a file that read every name, edited: validated with the names of unchanged entries (none decoded), and still re-checked on a changed file, dependency, config or registry', async () => {
  const uses = 'error_mapping:\n  404:\n    code: NOT_FOUND_WIDGET\n';
  const decl = (code: string, category = 'NOT_FOUND') => `error_codes:\n  ${code}:\n    category: ${category}\n`;
  const dir = tree({
    'a.adapter.yaml': BAD,
    'b.adapter.yaml': decl('NOT_FOUND_WIDGET'),
    'c.adapter.yaml': uses,
    'd.adapter.yaml': decl('NOT_FOUND_REPOSITORY'),
  });
  const edit = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    age(dir, [name]);
  };
  /** A cached run equal to a full one, with the declarations of unchanged entries it decoded. */
  const same = async (what: string) => {
    const get = mock.method(DetailsTable.prototype, 'get');
    try {
      const cached = await run(['check', '--cache', '--format', 'json'], dir);
      const full = await run(['check', '--format', 'json'], dir);
      assert.deepEqual([cached.code, cached.out], [full.code, full.out], what);
      return { out: cached.out, decoded: get.mock.callCount() };
    } finally {
      get.mock.restore();
    }
  };
  await same('cold');
  // a (whose unknown code's suggestions read every name) and c (which maps b's code) edited: one pass, with
  // every name; of the unchanged files only b, which declares a code c maps, is decoded (one declaration).
  edit('a.adapter.yaml', BAD + '# 1\n');
  edit('c.adapter.yaml', uses + '# 1\n');
  const r = await same('two files edited, one reading every name');
  assert.match(r.out, /NOT_FOUND_REPOSITORY/);
  assert.equal(r.decoded, 1);
  // A changed dependency: b's category (c maps it) and d's name (a's suggestion), with a edited again.
  edit('b.adapter.yaml', decl('NOT_FOUND_WIDGET', 'VALIDATION'));
  edit('d.adapter.yaml', decl('NOT_FOUND_REPOSITORIES'));
  edit('a.adapter.yaml', BAD + '# 2\n');
  const dep = await same('declarations changed');
  assert.match(dep.out, /http\.category-mismatch/);
  assert.match(dep.out, /NOT_FOUND_REPOSITORIES/);
  assert.doesNotMatch(dep.out, /NOT_FOUND_REPOSITORY\b/);
  // A changed config, with a edited again.
  writeFileSync(join(dir, '.mcp-aql.yaml'), 'rules:\n  http.category-mismatch: off\n');
  edit('a.adapter.yaml', BAD + '# 3\n');
  assert.doesNotMatch((await same('config changed')).out, /http\.category-mismatch/);
  // A changed registry (another build under the same version) that now holds a's unknown code: the cache starts afresh.
  const registry = deps.registry as unknown as { codes: object[] };
  const saved = registry.codes;
  registry.codes = [...saved, { ...saved.find(c => (c as { category: string }).category === 'NOT_FOUND'), code: 'NOT_FOUND_REPOSITRY' }];
  try {
    edit('a.adapter.yaml', BAD + '# 4\n');
    assert.doesNotMatch((await same('registry changed')).out, /mapping\.unknown-code/);
  } finally {
    registry.codes = saved;
  }
});

test("files under one config share one options key (the options written out once per config), and each config's files keep their own", async () => {
  const dir = tree({
    'p/a.adapter.yaml': BAD,
    'p/b.adapter.yaml': CLEAN,
    'q/c.adapter.yaml': BAD,
    'q/d.adapter.yaml': CLEAN.replace('_X', '_Y'),
    'q/.mcp-aql.yaml': 'rules:\n  mapping.unknown-code: off\n',
  });
  const cold = await run(['check', '--cache', '--format', 'json'], dir);
  // Nothing changed (no file indexed): each file's options looked up, written out once per config.
  const stringify = JSON.stringify;
  let optionTexts = 0;
  const spy = mock.method(JSON, 'stringify', (...a: Parameters<typeof JSON.stringify>) => {
    if ((a[0] as { maxProblems?: number } | null)?.maxProblems === Infinity) optionTexts++;
    return stringify(...a);
  });
  let cached;
  try {
    cached = await run(['check', '--cache', '--format', 'json'], dir);
  } finally {
    spy.mock.restore();
  }
  assert.equal(optionTexts, 2, 'one per config');
  assert.equal(cached.out, cold.out);
  const full = await run(['check', '--format', 'json'], dir);
  assert.deepEqual([cached.code, cached.out], [full.code, full.out]);
  assert.match(cached.out, /p\/a\.adapter\.yaml[\s\S]*mapping\.unknown-code/);
  assert.doesNotMatch(cached.out, /q\/c\.adapter\.yaml[^\]]*mapping\.unknown-code/);
  // q's config changed: q's files are checked under it, p's keep theirs.
  writeFileSync(join(dir, 'q/.mcp-aql.yaml'), 'rules: {}\n');
  const again = await run(['check', '--cache', '--format', 'json'], dir);
  assert.deepEqual([again.code, again.out], [1, (await run(['check', '--format', 'json'], dir)).out]);
  assert.match(again.out, /q\/c\.adapter\.yaml[\s\S]*mapping\.unknown-code/);
});
