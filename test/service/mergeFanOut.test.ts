/**
 * YAML merge keys that fan out (each anchor merging the ones before it) are resolved
 * once per mapping, not once per path (a 2 KB file with 40 such anchors took minutes).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { isScalar, parseDocument, type Pair, type YAMLMap } from 'yaml';
import { effectivePairs } from '../../server/src/service/parse/aliases';
import { fanOut } from './hostileTexts';

const keyOf = (p: Pair) => (isScalar(p.key) ? String(p.key.value) : '?');

test('merge fan-out: each mapping is read once, and every code gets the merged keys', () => {
  const n = 24;
  const doc = parseDocument(fanOut(n), { merge: true });
  const codes = (doc.contents as YAMLMap).items[0]!.value as YAMLMap;
  // Count every read of a mapping's items: the steps the resolution takes.
  let reads = 0;
  const maps: YAMLMap[] = [];
  for (const p of codes.items as Pair[]) maps.push(p.value as YAMLMap);
  for (const m of maps) {
    const items = m.items;
    Object.defineProperty(m, 'items', {
      get: () => {
        reads++;
        return items;
      },
    });
  }
  const pairs = maps.map(m =>
    effectivePairs(doc, m).map(r => [keyOf(r.pair), String((r.pair.value as { value?: unknown }).value ?? 'map'), r.shared]),
  );
  // One read per mapping (its own pairs), not one per path through the merges (tribonacci(24) ≈ 1.1 million).
  assert.ok(reads <= 2 * n, `${reads} reads`);
  assert.deepEqual(pairs[0], [
    ['category', 'NOT_FOUND', false],
    ['message_template', 'x', false],
    ['details', 'map', false],
  ]);
  // Its own description first; from the sources, the keys it lacks, shared (reached through an alias).
  for (let i = 1; i < n; i++)
    assert.deepEqual(
      pairs[i],
      [
        ['description', `d${i}`, false],
        ['category', 'NOT_FOUND', true],
        ['message_template', 'x', true],
        ['details', 'map', true],
      ],
      `NOT_FOUND_A${i}`,
    );
});
