/** check on all cores and with --cache: the same results as one in-process full check. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { findFiles } from '../../server/src/cli/files';
import { run, tempTree, tempDir } from './helpers';

/** A small workspace whose files use each other's codes (and one unknown code, one missing key). */
function workspace(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    const other = (i + 1) % n;
    files[`pkg${i % 3}/svc${i}.adapter.yaml`] = [
      'error_codes:',
      `  NOT_FOUND_S${i}:`,
      '    category: NOT_FOUND',
      `    message_template: "No '{id}' in svc ${i}"`,
      '    details: { id: string }',
      'error_mapping:',
      '  403:',
      '    code: PERMISSION_DENIED',
      '  404:',
      `    code: NOT_FOUND_S${other}`,
      `    message_template: "Gone: '{id}'${i === 2 ? " '{name}'" : ''}"`,
      ...(i === 1 ? ['  410:', '    code: NOT_FOUND_NOWHERE'] : []),
      '',
    ].join('\n');
  }
  return files;
}

test('--jobs 2 (worker threads) gives byte-identical output to an in-process check', { timeout: 60_000 }, async () => {
  const dir = tempTree(workspace(12));
  const one = await run(['check', '.', '--jobs', '1', '--format', 'json'], dir);
  const two = await run(['check', '.', '--jobs', '2', '--format', 'json'], dir);
  assert.equal(one.code, 1);
  assert.equal(two.err, '');
  assert.deepEqual([two.code, two.out], [one.code, one.out]);
  assert.equal((JSON.parse(one.out) as unknown[]).length > 0, true);
});

test('--jobs is checked', async () => {
  assert.match((await run(['check', '.', '--jobs', '0'], tempTree(workspace(2)))).err, /--jobs takes a whole number ≥ 1/);
});

test('no refusal above 20,000 candidate files (a monorepo of 50,000 adapters must be checkable)', { timeout: 120_000 }, () => {
  const dir = tempDir('mcp-aql-many-');
  for (let d = 0; d < 21; d++) {
    mkdirSync(join(dir, `d${d}`));
    for (let i = 0; i < 1000; i++) writeFileSync(join(dir, `d${d}`, `f${i}.yaml`), '');
  }
  assert.equal(findFiles(['.'], dir).length, 21_000);
  rmSync(dir, { recursive: true, force: true });
});

test('--cache: a second run reuses results, and after workspace edits equals a full check (fuzzed)', { timeout: 120_000 }, async t => {
  const dir = tempTree(workspace(6));
  const home = mkdtempSync(join(tmpdir(), 'mcp-aql-cache-home-'));
  const saved = process.env.XDG_CACHE_HOME;
  process.env.XDG_CACHE_HOME = home;
  t.after(() => {
    if (saved === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = saved;
    rmSync(home, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  });
  const full = async () => (await run(['check', '.', '--format', 'json'], dir)).out;
  const cached = async () => (await run(['check', '.', '--cache', '--format', 'json'], dir)).out;
  assert.equal(await cached(), await full());
  assert.equal(
    readdirSync(join(home, 'mcp-aql-errors')).filter(n => n.startsWith('check-')).length,
    1,
    'the cache is in the user cache folder',
  );
  assert.equal(await cached(), await full());
  const names = Object.keys(workspace(6));
  // Edits that change cross-file facts: declare, remove, recategorise a code, change its details, add a use, delete a file.
  const edit = fc.record({
    file: fc.integer({ min: 0, max: names.length - 1 }),
    kind: fc.constantFrom('declareNowhere', 'dropDecl', 'recategorise', 'addDetail', 'useOther', 'delete', 'restore', 'comment'),
    other: fc.integer({ min: 0, max: 5 }),
  });
  await fc.assert(
    fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 3 }), async edits => {
      for (const e of edits) {
        const p = join(dir, names[e.file]!);
        const text = existsSync(p) ? readFileSync(p, 'utf8') : workspace(6)[names[e.file]!]!;
        const next =
          e.kind === 'declareNowhere'
            ? text.replace('error_codes:\n', 'error_codes:\n  NOT_FOUND_NOWHERE:\n    category: NOT_FOUND\n')
            : e.kind === 'dropDecl'
              ? text.replace(/error_codes:\n(?: {2}\S.*\n(?: {4}.*\n)*)/, 'error_codes:\n')
              : e.kind === 'recategorise'
                ? text.replace('category: NOT_FOUND', 'category: CONFLICT')
                : e.kind === 'addDetail'
                  ? text.replace('details: { id: string }', 'details: { id: string, name: string }')
                  : e.kind === 'useOther'
                    ? text.replace(/code: NOT_FOUND_S\d+/, `code: NOT_FOUND_S${e.other}`)
                    : e.kind === 'comment'
                      ? `${text}# edit ${e.other}\n`
                      : text;
        if (e.kind === 'delete') rmSync(p, { force: true });
        else writeFileSync(p, next);
      }
      assert.equal(await cached(), await full());
    }),
    { numRuns: 15, seed: 14 },
  );
});
