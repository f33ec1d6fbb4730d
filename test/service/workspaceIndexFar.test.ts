/**
 * The workspace index (the CLI's `--jobs 1` and the server's) remembers a word with no declared
 * name near it, as a check worker's name index does: "did you mean" walks nothing for the next file that
 * misspells the same code. A name born later may be near it, so a new name forgets what was remembered.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { Range } from 'vscode-languageserver-types';
import { createWorkspaceIndex } from '../../server/src/service/workspace/workspaceIndex';
import type { WalkStats } from '../../server/src/service/util/nameTable';

const decl = (uri: string, code: string) => ({ uri, code, range: Range.create(0, 0, 0, 1), details: [], mapsFromHttp: [] });

test('a word far from every name is walked once, until a name is born; the answers are those of a fresh walk', () => {
  const stats: WalkStats = { visited: 0 };
  const index = createWorkspaceIndex(stats);
  const uris = Array.from({ length: 1000 }, (_, i) => `file:///w/f${i}.adapter.yaml`);
  uris.forEach((uri, i) => {
    const n = String(i).padStart(4, '0');
    index.update(uri, [decl(uri, `NOT_FOUND_SVC${n}_E0`), decl(uri, `CONFLICT_SVC${n}_E1`)], []);
  });
  const all = () => true;
  assert.deepEqual(index.nearNames!('NOT_FOUND_NOWHERE', 3, uris[0], all), []);
  const first = stats.visited;
  assert.ok(first > 200, `the first walk visited ${first}`);
  for (let i = 1; i < 300; i++) assert.deepEqual(index.nearNames!('NOT_FOUND_NOWHERE', 3, uris[i], all), []);
  assert.equal(stats.visited, first, 'remembered as far');
  // A word with names near it is walked every time.
  assert.equal(index.nearNames!('NOT_FOUND_SVC0007_E1', 3, undefined, all)[0]![0], 'NOT_FOUND_SVC0007_E0');
  const afterNear = stats.visited;
  assert.ok(afterNear > first);
  // A name removed brings no other nearer: still remembered.
  index.remove(uris[5]!);
  assert.deepEqual(index.nearNames!('NOT_FOUND_NOWHERE', 3, uris[1], all), []);
  assert.equal(stats.visited, afterNear);
  // A name born near it: found, from another file, and not from its own.
  index.update('file:///w/new.adapter.yaml', [decl('file:///w/new.adapter.yaml', 'NOT_FOUND_NOWHERX')], []);
  assert.deepEqual(
    index.nearNames!('NOT_FOUND_NOWHERE', 3, uris[1], all).map(([n]) => n),
    ['NOT_FOUND_NOWHERX'],
  );
  assert.deepEqual(index.nearNames!('NOT_FOUND_NOWHERE', 3, 'file:///w/new.adapter.yaml', all), []);
  assert.ok(stats.visited > afterNear);
});
