/**
 * Code-name completion picks its names in one pass (features/codeNameChoices.ts): the same names, in
 * the same order, with the same `isIncomplete`, as the plain version (every name collected, filtered,
 * the others sorted, cut at the limit), on random names, prefixes and limits.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { codeNameChoices } from '../../server/src/service/features/codeNameChoices';
import { MAX_CODE_ITEMS } from '../../server/src/service/features/completion';
import type { CodeDef } from '../../server/src/service/model/model';
import { indexRegistry } from '../../server/src/service/model/registry';
import { createWorkspaceIndex, type CodeDeclaration, type WorkspaceCodes } from '../../server/src/service';
import { fixture, loadDeps, newService } from './helpers';

const registry = indexRegistry(loadDeps().registry);
const REGISTRY_NAMES = [...registry.byCode.keys()];

/** The version before: allNames (registry, file, workspace; each once), filtered, then cut. */
function naive(typed: string, codes: string[], ws: string[], limit: number): { names: string[]; truncated: boolean } {
  const all = [...new Set([...REGISTRY_NAMES, ...codes, ...ws])];
  let names = all.filter(n => n.toUpperCase().startsWith(typed) && registry.byCode.get(n)?.kind !== 'warning');
  if (names.length <= limit) return { names, truncated: false };
  names = [...names.filter(n => registry.byCode.has(n)), ...names.filter(n => !registry.byCode.has(n)).sort()].slice(0, limit);
  return { names, truncated: true };
}

const decl = (uri: string, code: string): CodeDeclaration => ({
  uri,
  code,
  range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
  details: [],
  mapsFromHttp: [],
});

/** Names sharing prefixes, in both cases, some of them registry codes (warnings included). */
const name = fc.oneof(
  fc.constantFrom(...REGISTRY_NAMES),
  fc
    .tuple(fc.constantFrom('VALIDATION_', 'Validation_', 'NOT_FOUND_', 'va', 'X', ''), fc.stringMatching(/^[A-Za-z_]{0,4}$/))
    .map(([a, b]) => a + b),
);

test('code-name choices equal the plain version (random names, prefixes, limits; workspace with and without names())', () => {
  fc.assert(
    fc.property(
      fc.array(name, { maxLength: 40 }),
      fc.array(name, { maxLength: 40 }),
      fc.constantFrom('', 'V', 'VA', 'VALIDATION_', 'VALIDATION_M', 'NOT', 'X', 'Q'),
      fc.integer({ min: 0, max: 45 }),
      fc.boolean(),
      (codes, ws, typed, limit, withNames) => {
        const index = createWorkspaceIndex();
        for (let f = 0; f < 3; f++) {
          const uri = `file:///w/f${f}.adapter.yaml`;
          index.update(
            uri,
            ws.filter((_, i) => i % 3 === f).map(n => decl(uri, n)),
            [],
          );
        }
        const workspace: WorkspaceCodes = withNames
          ? index
          : { declarations: index.declarations, allDeclarations: index.allDeclarations, occurrences: index.occurrences };
        const defs = codes.map(n => ({ name: n }) as CodeDef);
        const me = 'file:///w/me.adapter.yaml';
        const got = codeNameChoices(typed, defs, registry, workspace, me, limit);
        // The plain version read other files' names in the index's order.
        const order = withNames ? [...index.names!(me, typed)] : [...index.allDeclarations(me)].map(d => d.code);
        assert.deepEqual(got, naive(typed, codes, order, limit));
      },
    ),
    { numRuns: 400 },
  );
});

test('code-name choices: registry codes alone over the limit, exactly at it, and an empty prefix', () => {
  const reg = naive('', [], [], 10_000).names;
  assert.deepEqual(codeNameChoices('', [], registry, createWorkspaceIndex(), 'file:///a', 5), { names: reg.slice(0, 5), truncated: true });
  assert.deepEqual(codeNameChoices('', [], registry, createWorkspaceIndex(), 'file:///a', reg.length), { names: reg, truncated: false });
  assert.deepEqual(codeNameChoices('', [{ name: 'ZZ' } as CodeDef], registry, createWorkspaceIndex(), 'file:///a', reg.length), {
    names: reg,
    truncated: true,
  });
  assert.ok(!reg.includes('DEPRECATION_WARNING'));
});

test('code completion at 1,000 codes over the limit: registry codes, then the smallest names, the same as the plain version', () => {
  const lines = ['error_codes:'];
  // Out of order on purpose, so the kept names are not simply the first ones seen.
  for (let i = 0; i < 1000; i++) lines.push(`  VALIDATION_E${String((i * 7919) % 1000).padStart(4, '0')}:`, '    category: VALIDATION');
  lines.push('error_mapping:', '  400:', '    code: VALIDATION_|');
  const index = createWorkspaceIndex();
  index.update('file:///w/other.adapter.yaml', [decl('file:///w/other.adapter.yaml', 'VALIDATION_A1')], []);
  const f = fixture(lines.join('\n') + '\n', { cursor: true });
  const list = newService(index).completeList(f.doc, f.cursor!);
  const codes = Array.from({ length: 1000 }, (_, i) => `VALIDATION_E${String(i).padStart(4, '0')}`);
  const want = naive('VALIDATION_', codes, ['VALIDATION_A1'], MAX_CODE_ITEMS);
  assert.equal(list.isIncomplete, true);
  assert.deepEqual(
    list.items.map(i => i.label),
    want.names,
  );
  assert.equal(list.items.find(i => i.label === 'VALIDATION_A1')?.detail, '? · custom (other.adapter.yaml)');
  assert.deepEqual(list.items.at(-1)!.textEdit, {
    range: { start: { line: f.cursor!.line, character: f.cursor!.character - 'VALIDATION_'.length }, end: f.cursor! },
    newText: list.items.at(-1)!.label,
  });
});
