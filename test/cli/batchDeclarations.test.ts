/**
 * A check worker holds the run's declared names and, per batch, only the
 * declarations its files reference or declare (cli/batchWorkspace.ts), not every declaration of the
 * workspace; its diagnostics equal those against the whole index, "did you mean" and the code scopes
 * included.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { workspaceFiles } from '../../bench/genWorkspace';
import { BatchWorkspace, DeclarationsByCode } from '../../server/src/cli/check/batchWorkspace';
import { slim } from '../../server/src/cli/check/declarationsPack';
import { WorkerPool } from '../../server/src/cli/check/pool';
import type { ValidatedFile } from '../../server/src/cli/check/messages';
import { inProcess } from '../../server/src/cli/check/inProcess';
import { createAdapterService, createWorkspaceIndex, type CodeDeclaration, type CodeScope } from '../../server/src/service';
import { loadDeps } from '../service/helpers';
import { ROOT, tempTree } from './helpers';

const N = 60;
function generated(): Record<string, string> {
  const files = workspaceFiles(N);
  // Typos near other files' names (suggestions from the names alone), in and out of the folder;
  // a code declared in two files (code.declared-elsewhere, the first by URI wins).
  files['pkg0000/typo.adapter.yaml'] = [
    'error_codes:',
    '  NOT_FOUND_SVC3_E0:',
    '    category: CONFLICT',
    '    details: { other: string }',
    'error_mapping:',
    '  404:',
    '    code: NOT_FOUND_SVC4_E3Z',
    '  409:',
    '    code: CONFLICT_SVC50_E1X',
    '  422:',
    '    code: VALIDATION_SVC5_E2',
    "    message_template: \"'{resource_id}' '{nope}'\"",
    '',
  ].join('\n');
  files['pkg0002/typo.adapter.yaml'] = 'error_mapping:\n  404:\n    code: NOT_FOUND_SVC4_E3Z\n  409:\n    code: CONFLICT_SVC5_E1Z\n';
  return files;
}

function loaded(dir: string, files: Record<string, string>) {
  return Object.keys(files)
    .map(p => join(dir, p))
    .sort()
    .map(p => TextDocument.create(pathToFileURL(p).href, 'yaml', 0, readFileSync(p, 'utf8')));
}

test('a worker validating against the names and its batch declarations says exactly what the whole index says', () => {
  const files = generated();
  const dir = '/w';
  const docs = Object.keys(files)
    .sort()
    .map(p => TextDocument.create(pathToFileURL(join(dir, p)).href, 'yaml', 0, files[p]!));
  const deps = loadDeps();
  const index = createWorkspaceIndex();
  const indexer = createAdapterService({ ...deps, workspace: createWorkspaceIndex() });
  const adapters = docs.filter(d => indexer.isAdapter(d));
  for (const d of adapters) index.update(d.uri, indexer.declaredCodes(d), indexer.codeOccurrences(d));
  // What the workers held before: every declaration (slim).
  const whole = createWorkspaceIndex();
  const declarations = adapters.map(d => [d.uri, index.declaredIn(d.uri).map(slim)] as [string, CodeDeclaration[]]);
  for (const [uri, ds] of declarations) whole.update(uri, ds, []);
  const byCode = new DeclarationsByCode(declarations);
  const total = declarations.reduce((n, [, ds]) => n + ds.length, 0);
  const batch = new BatchWorkspace();
  batch.useNames(byCode.names);
  const full = createAdapterService({ ...deps, workspace: whole });
  const part = createAdapterService({ ...deps, workspace: batch });
  let suggestions = 0,
    own = 0;
  for (const codeScope of ['workspace', 'folder', 'file'] as CodeScope[])
    for (const d of adapters) {
      // Not the codes only this file declares (`needs`): the file has them, the names say no other file does.
      const needs = byCode.needs(d.uri, index.dependsOn(d.uri));
      own += index.dependsOn(d.uri).length - needs.length;
      batch.setBatch(byCode.packFor(needs));
      assert.ok(batch.received < total / 10, `${d.uri}: ${batch.received} of ${total} declarations`);
      const want = full.validate(d, { codeScope });
      full.forget(d.uri);
      const got = part.validate(d, { codeScope });
      part.forget(d.uri);
      assert.deepEqual(got, want, `${d.uri} (${codeScope})`);
      suggestions += want.filter(x =>
        /^Did you mean (NOT_FOUND_SVC4_E3|CONFLICT_SVC5_E1|CONFLICT_SVC50_E1)\?/.test(String(x.message)),
      ).length;
    }
  assert.ok(suggestions >= 3, `suggestions from other files' names: ${suggestions}`);
  assert.ok(own > adapters.length * 3, `codes left out of the batches: ${own}`);
});

test('DeclarationsByCode: the declarations of the asked codes, by file in run order, each file in its own order', () => {
  const r = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const d = (uri: string, code: string): CodeDeclaration => ({ uri, code, range: r, details: [], mapsFromHttp: [] });
  const by = new DeclarationsByCode([
    ['a', [d('a', 'X'), d('a', 'Y'), d('a', 'Z')]],
    ['b', []],
    ['c', [d('c', 'Y'), d('c', 'W')]],
  ]);
  assert.deepEqual(
    by.forCodes(['Y', 'Z', 'NOWHERE', 'Y']).map(([u, ds]) => [u, ds.map(x => x.code)]),
    [
      ['a', ['Y', 'Z']],
      ['c', ['Y']],
    ],
  );
  // The names, sorted once for every thread: end to end, with each name's files (positions in the run).
  const { text, ends, first, files, uris } = by.names;
  assert.equal(text, 'WXYZ');
  assert.deepEqual([...ends], [1, 2, 3, 4]);
  assert.deepEqual([...first], [0, 1, 2, 4, 5]);
  assert.deepEqual([...files], [2, 0, 0, 2, 0]);
  assert.deepEqual(uris, ['a', 'b', 'c']);
});

/** Both passes on `pool` over `uris`, as checkFiles drives them; `onBatch` sees each validated batch. */
async function passes(
  pool: WorkerPool,
  uris: string[],
  onBatch: (
    batch: readonly string[],
    results: readonly ValidatedFile[],
    declarations: number,
    byCode: DeclarationsByCode,
    refs: Map<string, string[]>,
  ) => void,
) {
  const indexed = await pool.index(
    uris,
    () => ({}),
    () => assert.fail('no failure'),
  );
  const adapters = indexed.filter(f => f.adapter);
  const refs = new Map(adapters.map(f => [f.uri, f.refs]));
  const { byCode, needs } = DeclarationsByCode.forRun(
    adapters.map(f => [f.uri, f.decls]),
    adapters.map(f => f.uri),
    u => refs.get(u)!,
  );
  pool.names(byCode);
  await pool.validate(
    adapters.map(f => f.uri),
    () => ({}),
    byCode,
    u => needs.get(u)!,
    (batch, results, _failed, declarations) => onBatch(batch, results, declarations, byCode, refs),
  );
  return { indexed, adapters };
}

test('check on 2 workers: each batch is sent the declarations its files need, not the whole workspace', { timeout: 120_000 }, async () => {
  const files = generated();
  const dir = tempTree(files);
  const pool = new WorkerPool(2);
  try {
    const seen: number[] = [];
    let validated = 0,
      byCodeHeld = -1;
    const { adapters } = await passes(
      pool,
      loaded(dir, files).map(d => d.uri),
      (batch, results, declarations, byCode, refs) => {
        validated += results.length;
        byCodeHeld = byCode.held;
        const needed = byCode.forCodes(batch.flatMap(u => byCode.needs(u, refs.get(u)!))).reduce((n, [, ds]) => n + ds.length, 0);
        assert.equal(declarations, needed);
        seen.push(declarations);
      },
    );
    const total = adapters.reduce((n, f) => n + f.decls.length, 0);
    // The main thread keeps the declarations of the codes some file uses outside the file declaring them, no others.
    const holders = new Map<string, Set<string>>();
    for (const f of adapters) for (const d of f.decls) holders.set(d.code, (holders.get(d.code) ?? new Set()).add(f.uri));
    const usedElsewhere = new Set(
      adapters.flatMap(f => f.refs.filter(c => holders.has(c) && (holders.get(c)!.size > 1 || !holders.get(c)!.has(f.uri)))),
    );
    const kept = adapters.reduce((n, f) => n + f.decls.filter(d => usedElsewhere.has(d.code)).length, 0);
    assert.equal(byCodeHeld, kept);
    assert.ok(kept < total / 5, `the main thread kept ${kept} of ${total} declarations`);
    assert.equal(validated, adapters.length);
    assert.ok(seen.length >= 4, `${seen.length} batches`);
    for (const n of seen) assert.ok(n > 0 && n < total / 2, `a batch held ${n} of ${total} declarations`);
  } finally {
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test(
  'check on the main thread and one worker: the main thread takes batches, and the results are those of two workers',
  { timeout: 120_000 },
  async () => {
    const files = generated();
    const dir = tempTree(files);
    const run = async (join: boolean) => {
      // A heap bound of one byte: the main thread's heap is collected in full after each answer it takes in (each allocates).
      const pool = new WorkerPool(2, join, 1);
      try {
        const out: unknown[] = [];
        const { indexed } = await passes(
          pool,
          loaded(dir, files).map(d => d.uri),
          (batch, results) => out.push([batch, results]),
        );
        return { indexed, out, here: pool.handledHere, collections: pool.collectionsHere };
      } finally {
        await pool.close();
      }
    };
    try {
      const joined = await run(true);
      const workers = await run(false);
      assert.deepEqual(joined.indexed, workers.indexed);
      assert.deepEqual(joined.out, workers.out);
      assert.equal(workers.here, 0);
      assert.ok(joined.here >= 2, `the main thread handled ${joined.here} batches`);
      // Joined or not, the main thread's heap is collected whenever it grew by the bound.
      assert.ok(joined.collections >= 2, `the main thread collected ${joined.collections} times`);
      assert.ok(workers.collections >= 2, `the main thread collected ${workers.collections} times`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  'a check thread sends each file the declarations and references an index would hold (fixtures and generated files)',
  { timeout: 120_000 },
  async () => {
    const files = generated();
    const dir = tempTree(files);
    const fixtures: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true }))
        if (e.isDirectory()) walk(join(d, e.name));
        else if (e.isFile()) fixtures.push(pathToFileURL(join(d, e.name)).href);
    };
    walk(join(ROOT, 'test', 'fixtures'));
    walk(join(ROOT, 'examples'));
    const uris = [...loaded(dir, files).map(d => d.uri), ...fixtures];
    const pool = new WorkerPool(2);
    try {
      const failures: unknown[] = [];
      const threads = await pool.index(
        uris,
        () => ({}),
        f => failures.push(f),
      );
      const local = await inProcess(
        () => ({}),
        () => undefined,
        {},
      ).index(uris);
      assert.deepEqual(failures, []);
      assert.equal(threads.length, uris.length);
      assert.ok(threads.filter(f => f.adapter).length > N, 'adapters found');
      assert.deepEqual(threads, local);
    } finally {
      await pool.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
