/**
 * A text in pieces (util/pieceText.ts) reads as the plain string it stands for: every read after any sequence of
 * edits, with pieces of a few characters so that reads and edits cross piece boundaries all the time, and with
 * surrogate pairs and line breaks split between pieces.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { commonPrefixOfPieces, commonSuffixOfPieces, PieceText } from '../../server/src/service/util/pieceText';

const chars = fc.constantFrom('a', 'b', '\n', '\r', '\r\n', '😀', '\ud83d', 'é', ' ', 'ab');
const text = fc.array(chars, { maxLength: 40 }).map(a => a.join(''));
const edit = fc.record({ a: fc.integer({ min: -3, max: 60 }), b: fc.integer({ min: -3, max: 60 }), text });

/** Every read of `p` against the same read of `s`, from the pieces (the whole text is made last). */
function sameReads(p: PieceText, s: string): void {
  assert.equal(p.length, s.length);
  for (let i = -1; i <= s.length; i++) assert.ok(Object.is(p.charCodeAt(i), s.charCodeAt(i)), `charCodeAt(${i})`);
  for (let a = -2; a <= s.length + 1; a++)
    for (let b = -2; b <= s.length + 1; b++) assert.equal(p.slice(a, b), s.slice(a, b), `slice(${a}, ${b})`);
  assert.equal(p.slice(), s.slice());
  for (const needle of ['', '\n', '\r\n', 'ab', '😀', 'a\nb', 'zz'])
    for (let f = -1; f <= s.length + 1; f++) {
      assert.equal(p.indexOf(needle, f), s.indexOf(needle, f), `indexOf(${JSON.stringify(needle)}, ${f})`);
      assert.equal(p.lastIndexOf(needle, f), s.lastIndexOf(needle, f), `lastIndexOf(${JSON.stringify(needle)}, ${f})`);
      assert.equal(p.includes(needle, f), s.includes(needle, f));
    }
  assert.equal(p.indexOf('\n'), s.indexOf('\n'));
  assert.equal(p.lastIndexOf('\n'), s.lastIndexOf('\n'));
  // Last: the whole text, once made, answers every read after it.
  assert.equal(p.toString(), s);
}

test('a text in pieces reads as its string after any edits (reads fresh, then after toString)', () => {
  fc.assert(
    fc.property(text, fc.integer({ min: 1, max: 5 }), fc.array(edit, { maxLength: 8 }), (start, size, edits) => {
      let p = PieceText.of(start, size);
      let s = start;
      sameReads(p, s);
      for (const e of edits) {
        const a = Math.max(0, Math.min(e.a, s.length)),
          b = Math.max(a, Math.min(e.b, s.length));
        const [before, old] = [p, s];
        p = p.edit(a, b, e.text);
        s = s.slice(0, a) + e.text + s.slice(b);
        const max = Math.min(s.length, old.length);
        let pre = 0;
        while (pre < max && s.charCodeAt(pre) === old.charCodeAt(pre)) pre++;
        let suf = 0;
        while (suf < max - pre && s.charCodeAt(s.length - suf - 1) === old.charCodeAt(old.length - suf - 1)) suf++;
        assert.equal(commonPrefixOfPieces(before, p, max), pre, 'common prefix');
        assert.equal(commonSuffixOfPieces(before, p, max - pre), suf, 'common suffix');
        // Pieces stay full enough: never more than twice as many as the fewest that could hold the text, plus one.
        assert.ok(p.pieceCount <= 2 * Math.ceil(s.length / size) + 1, `${p.pieceCount} pieces for ${s.length} chars`);
        sameReads(p, s);
      }
    }),
    { numRuns: 300, seed: 20261128 },
  );
});

test('an edit shares the untouched pieces: a keystroke in a large text makes two half pieces at most, not the text', () => {
  const big = 'x'.repeat(1 << 20);
  const p = PieceText.of(big);
  const q = p.edit(500_000, 500_000, 'y');
  assert.equal(q.length, big.length + 1);
  assert.equal(q.charCodeAt(500_000), 'y'.charCodeAt(0));
  assert.equal(q.slice(499_999, 500_002), 'xyx');
  assert.ok(q.pieceCount <= p.pieceCount + 1, 'the full piece the edit lands in is split in two at most');
  assert.ok(p.isFlat && !q.isFlat, 'the new version is not made whole until asked');
  assert.equal(q.toString(), big.slice(0, 500_000) + 'y' + big.slice(500_000));
  assert.ok(q.isFlat);
});

test('typing at random places keeps the pieces few: about two per full piece, not one per keystroke', () => {
  const line = 'CODE_X: { message: "a {b} c", category: validation }\n';
  const plain0 = line.repeat(4000); // 212,000 characters: 13 full pieces
  let p = PieceText.of(plain0);
  let plain = plain0;
  let seed = 1;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < 20_000; i++) {
    const at = Math.floor(rnd() * (plain.length - 2));
    const del = rnd() < 0.3 ? 1 : 0;
    const typed = del ? '' : 'x';
    p = p.edit(at, at + del, typed);
    plain = plain.slice(0, at) + typed + plain.slice(at + del);
  }
  assert.equal(p.toString(), plain);
  // Pieces cut in equal halves and merged with a neighbour that fits: each is over a quarter full on average
  // (cut into a full piece and a piece of one character, 20,000 keystrokes left 6,847 of them).
  assert.ok(p.pieceCount <= 4 * Math.ceil(plain.length / 16_384), `${p.pieceCount} pieces for ${plain.length} characters`);
});

test('common prefix and suffix of two versions of a large text, found in blocks', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 200_000 }),
      fc.integer({ min: 0, max: 3000 }),
      fc.constantFrom('', 'y', 'yyyy\n', 'x'.repeat(5000)),
      (at, removed, inserted) => {
        const base = Array.from({ length: 20_000 }, (_, i) => `line ${i % 97}\n`).join('');
        const a = Math.min(at, base.length),
          b = Math.min(base.length, a + removed);
        const p = PieceText.of(base);
        const q = p.edit(a, b, inserted);
        const s = base.slice(0, a) + inserted + base.slice(b);
        const max = Math.min(base.length, s.length);
        let pre = 0;
        while (pre < max && s.charCodeAt(pre) === base.charCodeAt(pre)) pre++;
        let suf = 0;
        while (suf < max - pre && s.charCodeAt(s.length - suf - 1) === base.charCodeAt(base.length - suf - 1)) suf++;
        assert.equal(commonPrefixOfPieces(p, q, max), pre);
        assert.equal(commonSuffixOfPieces(p, q, max - pre), suf);
      },
    ),
    { numRuns: 60, seed: 7 },
  );
});
