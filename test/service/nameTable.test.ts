/**
 * "did you mean" for an unknown code reads a name index built once, not every name of
 * the workspace. The sorted walk (util/nameTable.ts) gives `closest`'s answers; a validation asks the
 * index and never lists the workspace's names; the walk's steps do not grow with the number of files.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { codeOf, fileText, pathOf } from '../../bench/genWorkspace';
import { createWorkspaceIndex, type CodeScope, type WorkspaceCodes } from '../../server/src/service';
import { closest } from '../../server/src/service/util/closest';
import { gallop, NameTable, type WalkStats } from '../../server/src/service/util/nameTable';
import { loadDeps, newService } from './helpers';

const name = fc
  .tuple(fc.constantFrom('', 'VALIDATION_E00', 'NOT_FOUND_', 'not_found_', 'ab', 'İ'), fc.stringMatching(/^[abAB_İ0-9\uffff]{0,7}$/))
  .map(([a, b]) => a + b);

test('NameTable.nearest gives closest over the names it holds that accept takes, as names come and go', () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.boolean(), name), { maxLength: 80 }),
      name,
      fc.integer({ min: 0, max: 4 }),
      fc.integer({ min: 0, max: 3 }),
      (ops, word, limit, mod) => {
        const live = new Set<string>();
        const table = new NameTable(
          () => live,
          n => live.has(n),
        );
        ops.forEach(([add, n], i) => {
          if (add) live.add(n);
          else live.delete(n);
          table.touch(n);
          if (i % 11 === 5) table.touchAll();
          // Ask now and then, so both the repair and the rebuild paths are taken.
          if (i % 7 === 0) table.nearest(word, limit, () => true);
        });
        const accept = (n: string) => mod === 0 || n.length % (mod + 1) !== 0;
        const got = table.nearest(word, limit, accept).map(([c]) => c);
        assert.deepEqual(got, closest(word, [...live].filter(accept), limit));
        assert.equal(table.size, live.size);
      },
    ),
    { numRuns: 1500 },
  );
});

/** A workspace that counts the names read through its whole-workspace listings. */
function counting(ws: WorkspaceCodes): { ws: WorkspaceCodes; read: () => number } {
  let n = 0;
  const wrapped: WorkspaceCodes = {
    declarations: (c, e) => ws.declarations(c, e),
    *allDeclarations(e) {
      for (const d of ws.allDeclarations(e)) {
        n++;
        yield d;
      }
    },
    *names(e, p) {
      for (const x of ws.names!(e, p)) {
        n++;
        yield x;
      }
    },
    occurrences: (c, e) => ws.occurrences(c, e),
    outsideScope: ws.outsideScope,
    nearNames: ws.nearNames && ((w, l, e, a) => ws.nearNames!(w, l, e, a)),
  };
  return { ws: wrapped, read: () => n };
}

function generated(files: number) {
  const index = createWorkspaceIndex();
  const service = newService(index);
  for (let i = 0; i < files; i++) {
    const uri = `file:///ws/${pathOf(i)}`;
    const e = service.indexEntries(TextDocument.create(uri, 'yaml', 0, fileText(i, files)), {});
    index.update(uri, e.declarations, e.occurrences);
  }
  return index;
}

test('an unknown code is checked without listing the workspace: the suggestions are closest over every known name', () => {
  const index = generated(300);
  const { ws, read } = counting(index);
  const service = newService(ws);
  const i = 30;
  const uri = `file:///ws/${pathOf(i)}`;
  const text = fileText(i, 300).replace("code: 'VALIDATION_MISSING_PARAM'", 'code: VALIDATION_MISSING_PARAM');
  for (const word of ['NOT_FOUND_SVC12_E99', 'CONFLCT_SVC123_E1', 'NOT_FOUND_NOWHERE', 'PERMISION_DENIED', 'NOT_FOUND_SVC45_E0']) {
    const broken = text.replace('code: PERMISSION_DENIED', `code: ${word}`);
    assert.notEqual(broken, text);
    for (const codeScope of ['workspace', 'folder', 'file'] as CodeScope[]) {
      const doc = TextDocument.create(uri, 'yaml', 1, broken);
      const d = service
        .validate(doc, { codeScope })
        .find(x => x.code === 'mapping.unknown-code' && (x.data as { code: string }).code === word);
      service.forget(uri);
      const dir = uri.slice(0, uri.lastIndexOf('/') + 1);
      const others = [...index.allDeclarations(uri)].filter(
        x => codeScope === 'workspace' || (codeScope === 'folder' && x.uri.startsWith(dir) && !x.uri.slice(dir.length).includes('/')),
      );
      if (others.some(x => x.code === word)) {
        assert.equal(d, undefined, `${word} is known in the ${codeScope} scope`);
        continue;
      }
      assert.ok(d, `${word} ${codeScope}`);
      const own = [...broken.matchAll(/^ {2}([A-Z][A-Z0-9_]+):$/gm)].map(m => m[1]!);
      const registry = loadDeps()
        .registry.codes.filter(c => c.kind !== 'warning')
        .map(c => c.code);
      const expected = closest(word, [...registry, ...own, ...others.map(x => x.code)], 3);
      assert.deepEqual((d.data as { suggestions: string[] }).suggestions, expected, `${word} ${codeScope}`);
    }
  }
  assert.equal(read(), 0, 'no validation listed the names or declarations of the workspace');
});

test('the walk for an unknown code takes the same steps among the names of 2,000 files as among those of 20,000', () => {
  const steps = (files: number, word: string) => {
    const names = new Set<string>();
    for (let i = 0; i < files; i++) for (let j = 0; j < 12; j++) names.add(codeOf(i, j));
    const table = new NameTable(
      () => names,
      n => names.has(n),
    );
    for (const n of names) table.touch(n);
    const stats: WalkStats = { visited: 0 };
    const answer = table.nearest(word, 3, () => true, stats);
    assert.deepEqual(
      answer.map(([c]) => c),
      closest(word, names, 3),
    );
    return stats.visited;
  };
  for (const word of ['NOT_FOUND_NOWHERE', 'NOT_FOUND_SVC12_E9', 'PERMISION_DENIED']) {
    const small = steps(2000, word),
      large = steps(20_000, word);
    assert.ok(small < 2000, `${word}: ${small} steps among 24,000 names`);
    assert.ok(large <= small * 1.6, `${word}: ${small} steps at 2,000 files, ${large} at 20,000`);
  }
});

test('gallop finds the first name not below the key from any start, as a linear scan does', () => {
  fc.assert(
    fc.property(
      fc.array(fc.stringMatching(/^[ab]{0,4}$/), { maxLength: 60 }),
      fc.stringMatching(/^[ab]{0,4}\uffff?$/),
      fc.nat(),
      (raw, key, at) => {
        const lower = [...raw].sort();
        const from = at % (lower.length + 1);
        let want = from;
        while (want < lower.length && lower[want]! < key) want++;
        assert.equal(gallop(lower, key, from, lower.length), want);
      },
    ),
    { numRuns: 2000 },
  );
});
