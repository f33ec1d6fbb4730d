/**
 * "Did you mean" (util/closest.ts) cuts its work short (a band around the diagonal, a bound that drops
 * once `limit` candidates are found, a length window) and must give the same answers as the plain
 * version: every distinct candidate scored in full, sorted, cut. Compared on random names.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { boundedDistance, closest, closestKey, editDistance } from '../../server/src/service/util/closest';

/** The plain versions (as they were before the bound). */
function plainClosest(word: string, candidates: Iterable<string>, limit = 3): string[] {
  const w = word.toLowerCase();
  const max = Math.max(2, Math.floor(word.length / 3));
  const scored: [string, number][] = [];
  for (const c of new Set(candidates)) {
    if (c === word) continue;
    const d = editDistance(w, c.toLowerCase());
    if (d <= max) scored.push([c, d]);
  }
  scored.sort((x, y) => x[1] - y[1] || x[0].localeCompare(y[0]));
  return scored.slice(0, limit).map(([c]) => c);
}
function plainKeyDistance(word: string, key: string): number {
  let d = editDistance(word, key);
  for (let i = key.indexOf('_'); i >= 4; i = key.indexOf('_', i + 1)) d = Math.min(d, editDistance(word, key.slice(0, i)) + 1);
  return d;
}
function plainClosestKey(word: string, candidates: Iterable<string>, limit = 3): string[] {
  const w = word.toLowerCase();
  const max = Math.max(2, Math.floor(word.length / 3));
  const scored: [string, number][] = [];
  for (const c of new Set(candidates)) {
    if (c === word) continue;
    const d = plainKeyDistance(w, c.toLowerCase());
    if (d <= max) scored.push([c, d]);
  }
  scored.sort((x, y) => x[1] - y[1] || x[0].localeCompare(y[0]));
  return scored.slice(0, limit).map(([c]) => c);
}

/** Names close to each other: a few stems, small alphabets, both cases, and a letter that lower case lengthens (İ). */
const name = fc
  .tuple(fc.constantFrom('', 'VALIDATION_E00', 'NOT_FOUND_', 'message_', 'ab', 'İ'), fc.stringMatching(/^[abAB_İ0-9]{0,7}$/))
  .map(([a, b]) => a + b);

test('boundedDistance equals the full distance when within the bound, and is above the bound otherwise', () => {
  fc.assert(
    fc.property(name, name, fc.integer({ min: 0, max: 8 }), (a, b, max) => {
      const full = editDistance(a, b);
      const cut = boundedDistance(a, b, max);
      if (full <= max) assert.equal(cut, full);
      else assert.ok(cut > max, `${a} ${b} ${max}: ${cut} for ${full}`);
    }),
    { numRuns: 3000 },
  );
});

test('closest and closestKey give the plain answers (random names, duplicates, limits 0–4)', () => {
  fc.assert(
    fc.property(name, fc.array(name, { maxLength: 60 }), fc.integer({ min: 0, max: 4 }), (word, cands, limit) => {
      const withDuplicates = [...cands, ...cands.slice(0, 5)];
      assert.deepEqual(closest(word, withDuplicates, limit), plainClosest(word, withDuplicates, limit));
      assert.deepEqual(closestKey(word, withDuplicates, limit), plainClosestKey(word, withDuplicates, limit));
    }),
    { numRuns: 1500 },
  );
});

test('closest over 12,000 similar names: the plain answers', () => {
  const names = Array.from({ length: 12_000 }, (_, i) => `VALIDATION_E${String(i).padStart(6, '0')}`);
  for (const word of ['VALIDATION_E00012', 'VALIDATION_E0001234', 'VALIDATOIN_E000777', 'NOT_FOUNDX', 'validation_e011999']) {
    assert.deepEqual(closest(word, names), plainClosest(word, names), word);
  }
  assert.deepEqual(closest('VALIDATION_E00012', names), ['VALIDATION_E000012', 'VALIDATION_E000102', 'VALIDATION_E000112']);
});
