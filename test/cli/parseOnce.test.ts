/**
 * In one `check` run each file is parsed once. A file the fast index scan cannot read
 * (an anchor, a block scalar) is indexed through its model, which the validation then reuses; and a run
 * in this process validates against the index its index pass built, not one rebuilt from it. Counted,
 * not timed: the `yaml` parser's calls per text, the index's updates.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Parser } from 'yaml';
import { inProcess } from '../../server/src/cli/check/inProcess';
import { main } from '../../server/src/cli/main';
import { createWorkspaceIndex, type WorkspaceIndex } from '../../server/src/service';
import { tempTree } from './helpers';

const plain = (i: number) =>
  `error_codes:\n  NOT_FOUND_P${i}:\n    category: NOT_FOUND\n    details: { id: string }\nerror_mapping:\n  404:\n    code: NOT_FOUND_P${(i + 1) % 4}\n`;
const FILES: Record<string, string> = {
  'a/p0.adapter.yaml': plain(0),
  'a/p1.adapter.yaml': plain(1),
  'b/p2.adapter.yaml': plain(2),
  'b/p3.adapter.yaml': plain(3),
  // The scan falls back to the model: an anchor and an alias; a block scalar. An unknown code.
  'a/anchors.adapter.yaml':
    'error_codes:\n  VALIDATION_A: &a\n    category: VALIDATION\n  VALIDATION_B: *a\nerror_mapping:\n  400:\n    code: NOT_FOUND_P9\n',
  'b/block.adapter.yaml':
    'error_codes:\n  CONFLICT_C:\n    category: CONFLICT\n    description: |\n      two\n      lines\nerror_mapping:\n  422:\n    code: VALIDATION_B\n',
};
/** Per file, a text that only its parse reads (the parser runs per entry: one chunk holds it). */
const MARK: Record<string, string> = {
  'a/p0.adapter.yaml': 'NOT_FOUND_P0:',
  'a/p1.adapter.yaml': 'NOT_FOUND_P1:',
  'b/p2.adapter.yaml': 'NOT_FOUND_P2:',
  'b/p3.adapter.yaml': 'NOT_FOUND_P3:',
  'a/anchors.adapter.yaml': 'VALIDATION_A: &a',
  'b/block.adapter.yaml': 'description: |',
};

/** Counts the `yaml` parser's runs on texts holding a mark while `f` runs. */
async function parses<T>(f: () => Promise<T>): Promise<{ result: T; count: (mark: string) => number }> {
  const sources: string[] = [];
  const original = Parser.prototype.parse;
  Parser.prototype.parse = function (this: Parser, source: string, incomplete?: boolean) {
    sources.push(source);
    return original.call(this, source, incomplete);
  };
  try {
    return { result: await f(), count: mark => sources.filter(s => s.includes(mark)).length };
  } finally {
    Parser.prototype.parse = original;
  }
}

test('--jobs 1: a file the index scan cannot read is parsed once, by the index pass, and validated from that model', async () => {
  const dir = tempTree(FILES);
  try {
    const io = { cwd: dir, color: false, stdout: (_: string) => {}, stderr: (_: string) => {} };
    let out = '';
    io.stdout = s => void (out += s);
    const { result: code, count } = await parses(() => main(['check', '.', '--jobs', '1', '--format', 'json'], io));
    assert.equal(code, 1);
    for (const f of Object.keys(FILES)) assert.equal(count(MARK[f]!), 1, f);
    const report = JSON.parse(out) as { file: string; diagnostics: { code: string }[] }[];
    assert.deepEqual(
      report.filter(r => r.diagnostics.length).map(r => [r.file, r.diagnostics.map(d => d.code)]),
      [['a/anchors.adapter.yaml', ['mapping.unknown-code']]],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A workspace index that counts the files filed into it (`updates`). */
function countingIndex(): { index: WorkspaceIndex; readonly updates: number } {
  const real = createWorkspaceIndex();
  const index: WorkspaceIndex = Object.create(real) as WorkspaceIndex;
  const c = { index, updates: 0 };
  index.update = (uri, ds, os) => {
    c.updates++;
    real.update(uri, ds, os);
  };
  return c;
}

test('in this process, the validation reads the index the index pass built: each file filed once', async () => {
  const dir = tempTree(FILES);
  try {
    const counting = countingIndex();
    const backend = inProcess(
      () => ({}),
      f => assert.fail(f.message),
      {},
      counting.index,
    );
    const uris = Object.keys(FILES)
      .sort()
      .map(p => pathToFileURL(join(dir, p)).href);
    const files = await backend.index(uris);
    assert.equal(counting.updates, uris.length);
    const got = async (asIndexed: boolean) => {
      const results: unknown[] = [];
      await backend.validate(
        uris,
        files.map(f => [f.uri, f.decls]),
        () => [],
        (uri, r) => results.push([uri, r]),
        asIndexed,
      );
      return results;
    };
    const once = await got(true);
    assert.equal(counting.updates, uris.length, 'not filed again');
    // Declarations that are not the index pass's (the cache's): read as a worker reads them, not filed again; the same results.
    assert.deepEqual(await got(false), once);
    assert.equal(counting.updates, uris.length);
    assert.ok(JSON.stringify(once).includes('NOT_FOUND_P9'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('one file, no cache: not indexed, read once, the same results as through the index (an over-limit file too)', async () => {
  const over = 'error_codes:\n  NOT_FOUND_BIG:\n    category: NOT_FOUND\n' + '# padding\n'.repeat(200);
  const dir = tempTree({ ...FILES, 'c/over.adapter.yaml': over, 'c/plain.yaml': 'a: 1\n' });
  try {
    const opts = (uri: string) => (uri.includes('/c/over') ? { maxFileSize: 1000 } : {});
    for (const p of [...Object.keys(FILES), 'c/over.adapter.yaml', 'c/plain.yaml', 'c/gone.adapter.yaml']) {
      const uri = pathToFileURL(join(dir, p)).href;
      const run = async (alone: boolean) => {
        const counting = countingIndex();
        const failed: string[] = [];
        const backend = inProcess(opts, f => failed.push(f.reason), { alone }, counting.index);
        const files = await backend.index([uri]);
        const results: unknown[] = [];
        if (files[0]!.adapter)
          await backend.validate(
            [uri],
            files.map(f => [f.uri, f.decls]),
            () => [],
            (u, r) => results.push([u, r]),
            true,
          );
        return { adapter: files[0]!.adapter, results, updates: counting.updates, failed };
      };
      const { result: alone, count } = await parses(() => run(true));
      const indexed = await run(false);
      assert.equal(alone.updates, 0, p);
      assert.deepEqual([alone.adapter, alone.results, alone.failed], [indexed.adapter, indexed.results, indexed.failed], p);
      if (MARK[p]) assert.equal(count(MARK[p]), 1, `${p}: parsed once`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
