/** The JSON parser of verify: JSON.parse's verdict and value, plus offsets. */
import test from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MAX_DEPTH, member, parseJson, toValue } from '../../server/src/service/verify/json';

test('every JSON value round-trips to what JSON.parse gives', () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.boolean(), (v, pretty) => {
      const text = JSON.stringify(v, null, pretty ? 2 : undefined);
      const r = parseJson(text);
      assert.ok(r.ok, text);
      assert.deepEqual(toValue(r.node), JSON.parse(text));
    }),
    { numRuns: 300 },
  );
});

test('accepts exactly what JSON.parse accepts (random near-JSON strings)', () => {
  const piece = fc.constantFrom(
    '{',
    '}',
    '[',
    ']',
    ',',
    ':',
    '"a"',
    '"\\u00e9"',
    '"\\x"',
    '1',
    '-0',
    '01',
    '1.',
    '.5',
    '1e5',
    'true',
    'nul',
    'null',
    ' ',
    '\n',
    '"',
    '\\',
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }), parts => {
      const text = parts.join('');
      let ok = true;
      try {
        JSON.parse(text);
      } catch {
        ok = false;
      }
      assert.equal(parseJson(text).ok, ok, JSON.stringify(text));
    }),
    { numRuns: 3000 },
  );
});

test('offsets: keys, values, characters inside strings through escapes, and error positions', () => {
  const text = '{"a": [1, "x\\"y\\u00e9z"], "b": null}';
  const r = parseJson(text);
  assert.ok(r.ok);
  const a = member(r.node, 'a')!;
  assert.deepEqual([a.keyStart, a.keyEnd, a.value.start, a.value.end], [1, 4, 6, 24]);
  const s = a.value.kind === 'array' ? a.value.items[1]! : undefined;
  assert.ok(s?.kind === 'string');
  assert.equal(s.value, 'x"yéz');
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5].map(i => s.at(i)),
    [11, 12, 14, 15, 21, 22],
  );
  const bad = parseJson('{"a": 1,}');
  assert.deepEqual(bad, { ok: false, offset: 7, message: "trailing ',' before '}'" });
  assert.deepEqual(parseJson('{"a": 1, 2}'), { ok: false, offset: 9, message: "expected a key in double quotes, found '2'" });
  assert.deepEqual(parseJson('[1, 2,]'), { ok: false, offset: 5, message: "trailing ',' before ']'" });
  assert.deepEqual(parseJson('"abc'), { ok: false, offset: 0, message: 'unterminated string' });
  // A mapped parse (JSON inside a string) reports document offsets.
  const mapped = parseJson('{"k" 1}', i => 100 + 2 * i);
  assert.deepEqual(mapped, { ok: false, offset: 110, message: "expected ':' after the key, found '1'" });
});

test('nesting is bounded and never recurses', () => {
  const deep = '['.repeat(MAX_DEPTH + 1) + ']'.repeat(MAX_DEPTH + 1);
  assert.deepEqual(parseJson(deep), { ok: false, offset: MAX_DEPTH, message: `nesting deeper than ${MAX_DEPTH} levels` });
  const ok = parseJson('['.repeat(MAX_DEPTH) + ']'.repeat(MAX_DEPTH));
  assert.ok(ok.ok);
});
