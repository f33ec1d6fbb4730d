/**
 * A CLI worker's name index (workspace/nameIndex.ts) answers what "did you mean" and the code
 * scope read — nearest names, names by prefix, which files declare a name — as the workspace index
 * holding the same files does (fuzzed over names shared between files, a file excluded, case).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createNameIndex, createWorkspaceIndex, packNames, PackedNameList, type CodeDeclaration } from '../../server/src/service';
import type { WalkStats } from '../../server/src/service/util/nameTable';

const R = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
const name = fc
  .tuple(
    fc.constantFrom('', 'NOT_FOUND_', 'not_found_', 'VALIDATION_E'),
    fc.stringMatching(/^[abAB_0-9]{0,5}$/),
    // Outside ASCII: a lower case of another length (İ), one that is ASCII (the Kelvin sign), others.
    fc.constantFrom('', '', '', 'İ', '\u212a', 'k', 'é', 'É', 'ß', '\u{1f600}', '\uffff'),
  )
  .map(([a, b, c]) => a + b + c)
  .filter(n => n.length > 0);

test('the name index answers nearNames, names and the declaring files as the workspace index does', () => {
  fc.assert(
    fc.property(
      fc.array(fc.array(name, { maxLength: 6 }), { minLength: 1, maxLength: 6 }),
      fc.array(name, { minLength: 1, maxLength: 4 }),
      fc.constantFrom(undefined, 0, 1),
      (files, words, except) => {
        const uris = files.map((_, i) => `file:///w/d${i % 2}/f${i}.adapter.yaml`);
        const full = createWorkspaceIndex();
        files.forEach((names, i) =>
          full.update(
            uris[i]!,
            names.map((code): CodeDeclaration => ({ uri: uris[i]!, code, range: R, details: [], mapsFromHttp: [] })),
            [],
          ),
        );
        const names = createNameIndex(files.map((ns, i) => [uris[i]!, ns]));
        const ex = except === undefined ? undefined : uris[except];
        const odd = (n: string) => n.length % 2 === 1;
        // Twice, with other filters the second time: a word found far from every name is remembered as such.
        for (const w of [...words, ...words]) {
          assert.deepEqual(names.nearNames!(w, 3, ex, odd), full.nearNames!(w, 3, ex, odd));
          assert.deepEqual(
            names.nearNames!(w, 2, undefined, () => true),
            full.nearNames!(w, 2, undefined, () => true),
          );
          assert.deepEqual([...names.names!(ex, w.slice(0, 3))].sort(), [...full.names!(ex, w.slice(0, 3))].sort());
          assert.deepEqual([...new Set(names.declarations(w, ex).map(d => d.uri))], [...new Set(full.declarations(w, ex).map(d => d.uri))]);
        }
        for (const n of files.flat())
          assert.deepEqual([...new Set(names.declarations(n, ex).map(d => d.uri))], [...new Set(full.declarations(n, ex).map(d => d.uri))]);
        assert.deepEqual([...names.names!(ex)].sort(), [...full.names!(ex)].sort());
      },
    ),
    { numRuns: 300 },
  );
});

test('a word with no name near it is walked once, not once per file that misspells it', () => {
  // 2,000 files of names sharing a long prefix, as generated services do: proving a word far from all of
  // them follows every prefix within the bound.
  const files = Array.from({ length: 2000 }, (_, i): [string, string[]] => [
    `file:///w/f${i}.adapter.yaml`,
    [`NOT_FOUND_SVC${String(i).padStart(4, '0')}_E0`, `CONFLICT_SVC${String(i).padStart(4, '0')}_E1`],
  ]);
  const stats: WalkStats = { visited: 0 };
  const names = createNameIndex(files, stats);
  const all = () => true;
  assert.deepEqual(names.nearNames!('NOT_FOUND_NOWHERE', 3, files[0]![0], all), []);
  const first = stats.visited;
  assert.ok(first > 200, `the first walk visited ${first}`);
  for (let i = 1; i < 500; i++) assert.deepEqual(names.nearNames!('NOT_FOUND_NOWHERE', 3, files[i]![0], all), []);
  assert.equal(stats.visited, first);
  // A word with names near it is answered by a walk each time (the filter decides which).
  const near = names.nearNames!('NOT_FOUND_SVC0007_E1', 3, undefined, all);
  assert.equal(near[0]![0], 'NOT_FOUND_SVC0007_E0');
  const four = names.nearNames!('NOT_FOUND_SVC0007_E1', 4, undefined, all).map(([n]) => n);
  const filtered = names.nearNames!('NOT_FOUND_SVC0007_E1', 3, undefined, n => n !== 'NOT_FOUND_SVC0007_E0');
  assert.deepEqual(
    filtered.map(([n]) => n),
    four.slice(1),
  );
  assert.ok(stats.visited > first);
});

test('the memo of far words is bounded: a long word is walked each time', () => {
  const files: [string, string[]][] = [['file:///w/a.adapter.yaml', ['NOT_FOUND_SVC1_E0', 'CONFLICT_SVC1_E1']]];
  const stats: WalkStats = { visited: 0 };
  const names = createNameIndex(files, stats);
  const long = 'Z'.repeat(300);
  assert.deepEqual(
    names.nearNames!(long, 3, undefined, () => true),
    [],
  );
  const once = stats.visited;
  assert.ok(once > 0);
  assert.deepEqual(
    names.nearNames!(long, 3, undefined, () => true),
    [],
  );
  assert.equal(stats.visited, 2 * once);
  // A short far word is remembered.
  names.nearNames!('QQQQQQQQ', 3, undefined, () => true);
  const after = stats.visited;
  names.nearNames!('QQQQQQQQ', 3, undefined, () => true);
  assert.equal(stats.visited, after);
});

test('packed names: sorted as the editor table sorts, and each found by position (outside ASCII too)', () => {
  fc.assert(
    fc.property(
      fc.array(fc.array(name, { maxLength: 6 }), { minLength: 1, maxLength: 6 }),
      fc.array(name, { maxLength: 8 }),
      (files, words) => {
        const uris = files.map((_, i) => `file:///w/f${i}.adapter.yaml`);
        const list = new PackedNameList(packNames(files.map((ns, i) => [uris[i]!, ns])));
        const all = [...new Set(files.flat())];
        const sorted = Array.from({ length: list.size }, (_, i) => list.name(i));
        const lower = (n: string) => n.toLowerCase();
        assert.deepEqual(
          sorted,
          [...all].sort((a, b) => (lower(a) < lower(b) ? -1 : lower(a) > lower(b) ? 1 : a < b ? -1 : a > b ? 1 : 0)),
        );
        for (const w of [...all, ...words]) {
          const i = list.indexOf(w);
          assert.equal(i, sorted.indexOf(w), w);
          if (i >= 0)
            assert.deepEqual(
              [...list.holders(i)],
              files.flatMap((ns, f) => (ns.includes(w) ? [f] : [])),
            );
        }
      },
    ),
    { numRuns: 500 },
  );
});

test('a thread given packed names sorts nothing: the main thread sorted them once', () => {
  const files = Array.from({ length: 500 }, (_, i): [string, string[]] => [
    `file:///w/f${i}.adapter.yaml`,
    [`NOT_FOUND_SVC${i}_E0`, `b_${i}`],
  ]);
  const packed = packNames(files);
  const sort = Array.prototype.sort;
  let sorts = 0;
  // Sorts of all the names (a walk's results are sorted too: fewer, not counted).
  Array.prototype.sort = function (this: unknown[], ...args: Parameters<typeof sort>) {
    if (this.length >= files.length * 2) sorts++;
    return sort.apply(this, args);
  } as typeof sort;
  try {
    const names = createNameIndex(packed);
    assert.deepEqual(
      names.nearNames!('NOT_FOUND_SVC17_E1', 2, undefined, () => true),
      [
        ['NOT_FOUND_SVC17_E0', 1],
        ['NOT_FOUND_SVC1_E0', 2],
      ],
    );
    assert.deepEqual(
      names.declarations('b_42', undefined).map(d => d.uri),
      ['file:///w/f42.adapter.yaml'],
    );
    assert.deepEqual(
      names.nearNames!('ZZZZZZZZ', 2, undefined, () => true),
      [],
    );
  } finally {
    Array.prototype.sort = sort;
  }
  assert.equal(sorts, 0);
});
