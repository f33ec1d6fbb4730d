/** `check --cache`: which code names changed since the last run (cli/cacheKeys.ts `changedSince`), rebuilt from the entries or refused. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { changedSince, contentHash } from '../../server/src/cli/cache/keys';
import type { Entry } from '../../server/src/cli/cache/shape';

const decls = (...names: string[]) => JSON.stringify(names.map(n => [n, 'NOT_FOUND', 0]));
/** The last run: each file with its names, in run order; the fingerprint made as the cache makes it. */
function lastRun(files: [string, string[]][]): { last: string; entries: Map<string, Entry> } {
  const fps = files.map(([, names]) => contentHash(names.join()));
  const last = contentHash(files.map(([u], i) => `${u}\0${fps[i]}\n`).join(''));
  const entries = new Map<string, Entry>(
    files.map(([u, names], i) => [
      u,
      {
        hash: '',
        opts: '',
        stat: null,
        adapter: true,
        decls: decls(...names),
        refs: '[]',
        declFp: fps[i]!,
        diagnostics: [],
        deps: '',
        wsfp: last,
      },
    ]),
  );
  return { last, entries };
}
const A = 'file:///a.yaml',
  B = 'file:///b.yaml',
  C = 'file:///c.yaml',
  D = 'file:///d.yaml';

test('the names of files changed, gone and new since the last run; none when only other files changed', () => {
  const { last, entries } = lastRun([
    [A, ['X', 'Y']],
    [B, ['Z']],
    [C, ['W']],
  ]);
  const now: Record<string, string[]> = { [A]: ['X', 'Y2'], [B]: ['Z'], [D]: ['V'] };
  const unchanged = (u: string) => u === B;
  const got = changedSince(last, entries, [A, B, D], unchanged, u => now[u]);
  assert.deepEqual([...got!].sort(), ['V', 'W', 'X', 'Y', 'Y2']);
  assert.deepEqual(
    [
      ...changedSince(
        last,
        entries,
        [A, B, C],
        () => true,
        u => now[u],
      )!,
    ],
    [],
  );
});

test('refused when the last run cannot be rebuilt exactly, or the files are in another order', () => {
  const { last, entries } = lastRun([
    [A, ['X']],
    [B, ['Z']],
  ]);
  const names = () => ['X'];
  assert.equal(
    changedSince(last, entries, [B, A], () => true, names),
    undefined,
    'another order',
  );
  const pruned = new Map(entries);
  pruned.delete(B);
  assert.equal(
    changedSince(last, pruned, [A, B], () => true, names),
    undefined,
    'an entry of the last run missing',
  );
  const edited = new Map(entries);
  edited.set(B, { ...entries.get(B)!, declFp: contentHash('other') });
  assert.equal(
    changedSince(last, edited, [A, B], () => true, names),
    undefined,
    'an entry that does not match the fingerprint',
  );
  const broken = new Map(entries);
  broken.set(A, { ...entries.get(A)!, decls: 'not json' });
  assert.equal(
    changedSince(last, broken, [A, B], u => u !== A, names),
    undefined,
    'declarations of the wrong shape',
  );
  assert.equal(
    changedSince(
      last,
      entries,
      [A, B],
      u => u !== A,
      () => undefined,
    ),
    undefined,
    'names that cannot be read now',
  );
});

test('content hashes are SHA-256 (a SHA-1 chosen-prefix collision must not reuse a clean result)', () => {
  assert.equal(contentHash('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});
