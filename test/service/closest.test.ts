/**
 * "Did you mean": the bag distance that lets `closest` skip most of a large workspace's names is a
 * lower bound of the edit distance, so `closest` answers exactly as the plain scan over every
 * candidate did (fuzzed, with transpositions, case changes and non-ASCII letters).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { bagDistance, closest, editDistance } from '../../server/src/service/util/closest';
import { rng } from './indexScanHelpers';

/** `closest` as it was before the bag-distance filter: the edit distance to every candidate. */
function reference(word: string, candidates: Iterable<string>, limit = 3): string[] {
  const w = word.toLowerCase();
  const max = Math.max(2, Math.floor(word.length / 3));
  const scored: [string, number][] = [];
  for (const c of new Set(candidates)) {
    if (c === word) continue;
    const d = editDistance(w, c.toLowerCase(), max);
    if (d <= max) scored.push([c, d]);
  }
  scored.sort((x, y) => x[1] - y[1] || x[0].localeCompare(y[0]));
  return scored.slice(0, limit).map(([c]) => c);
}

const ALPHABET = 'ABCDEFG_abcé1';

function word(r: () => number, len: number): string {
  let s = '';
  for (let i = 0; i < len; i++) s += ALPHABET[Math.floor(r() * ALPHABET.length)];
  return s;
}

/** A few edits of `s`: substitutions, insertions, deletions, transpositions. */
function near(r: () => number, s: string): string {
  let t = s;
  for (let k = Math.floor(r() * 5); k > 0; k--) {
    const i = Math.floor(r() * (t.length + 1));
    const op = Math.floor(r() * 4);
    if (op === 0) t = t.slice(0, i) + word(r, 1) + t.slice(i + 1);
    else if (op === 1) t = t.slice(0, i) + word(r, 1) + t.slice(i);
    else if (op === 2) t = t.slice(0, i) + t.slice(i + 1);
    else if (i + 1 < t.length) t = t.slice(0, i) + t[i + 1] + t[i] + t.slice(i + 2);
  }
  return r() < 0.2 ? t.toUpperCase() : t;
}

test('the bag distance never exceeds the edit distance', () => {
  const r = rng(7);
  for (let n = 0; n < 3000; n++) {
    const a = word(r, Math.floor(r() * 12));
    const b = r() < 0.7 ? near(r, a) : word(r, Math.floor(r() * 12));
    assert.ok(bagDistance(a, b) <= editDistance(a, b), `${a} / ${b}`);
  }
  assert.equal(bagDistance('abc', 'cab'), 0);
  assert.equal(bagDistance('NOT_FOUND_X', 'NOT_FOUND_YZ'), 2);
  assert.equal(bagDistance('é', 'x'), 0, 'non-ASCII text: no bound');
  assert.equal(bagDistance('abc', 'ABD', true), 1, 'folded: A-Z count as a-z');
  assert.equal(bagDistance('abc', 'ABD'), 3);
});

test('closest answers exactly as the scan over every candidate', () => {
  const r = rng(11);
  for (let n = 0; n < 300; n++) {
    const w = word(r, 2 + Math.floor(r() * 14));
    const candidates = Array.from({ length: 40 }, () => (r() < 0.6 ? near(r, w) : word(r, 2 + Math.floor(r() * 14))));
    assert.deepEqual(closest(w, candidates), reference(w, candidates), w);
  }
  assert.deepEqual(closest('PERMISION_DENIED', ['PERMISSION_DENIED', 'NOT_FOUND', 'PERMISSION_DENIED_X']), [
    'PERMISSION_DENIED',
    'PERMISSION_DENIED_X',
  ]);
});
