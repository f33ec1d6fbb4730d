/**
 * One JSON reader in the service (parse/jsonReader.ts). Its events and faults, its lenient
 * problems, and hostile input through the three readers built on it: verify's tree (verify/json.ts),
 * a JSON adapter's json.syntax (parse/jsonSyntax.ts) and the fast index scan (parse/scanJson.ts).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { JsonReader, readJsonString, stringUnitOffsets, type JsonSink } from '../../server/src/service/parse/jsonReader';
import { jsonSyntaxErrors } from '../../server/src/service/parse/jsonSyntax';
import { OTHER } from '../../server/src/service/parse/lightTree';
import { scanJson } from '../../server/src/service/parse/scanJson';
import { MAX_DEPTH, member, parseJson, toValue } from '../../server/src/service/verify/json';
import { SHALLOW } from '../../server/src/service/util/nesting';

/** Every event of a strict read, then its fault. */
function events(text: string, from = 0, to = text.length, maxDepth = MAX_DEPTH) {
  const out: unknown[] = [];
  const sink: JsonSink = {
    open: (array, start) => void out.push([array ? '[' : '{', start]),
    close: end => void out.push(['close', end]),
    key: (start, end, value) => void out.push(['key', start, end, value]),
    string: (start, end, value) => void out.push(['string', start, end, value]),
    number: (start, end) => void out.push(['number', start, end]),
    literal: (start, end, value) => void out.push(['literal', start, end, value]),
  };
  const fault = new JsonReader(text, from, to, { maxDepth, sink }).read();
  return { out, fault };
}

function lenient(text: string) {
  const problems: [string, number, number][] = [];
  const fault = new JsonReader(text, 0, text.length, {
    lenient: true,
    maxDepth: 1000,
    onProblem: (k, s, e) => void problems.push([k, s, e]),
  }).read();
  return { problems, fault };
}

const syntax = (text: string) => jsonSyntaxErrors(text).map(e => [e.start, e.end, e.message]);
const scan = (text: string) => {
  try {
    return scanJson(text, 0, text.length);
  } catch (e) {
    if ((e as { unsupported?: boolean }).unsupported) return 'unsupported';
    throw e;
  }
};

test('strict: events with offsets, strings decoded through escapes', () => {
  const { out, fault } = events('{"a\\n": [1, -2.5e3, true, null], "b": "x\\u00e9"}');
  assert.equal(fault, undefined);
  assert.deepEqual(out, [
    ['{', 0],
    ['key', 1, 6, 'a\n'],
    ['[', 8],
    ['number', 9, 10],
    ['number', 12, 18],
    ['literal', 20, 24, true],
    ['literal', 26, 30, null],
    ['close', 31],
    ['key', 33, 36, 'b'],
    ['string', 38, 47, 'x\u00e9'],
    ['close', 48],
  ]);
  assert.deepEqual(stringUnitOffsets('{"b": "x\\u00e9\\"y"}', 6), [7, 8, 14, 16]);
});

test('strict: a window of a text is read in place (a JSON Lines line), nothing outside it', () => {
  const text = '{"a": 1}\n{"b": tr\nue}\n';
  assert.deepEqual(events(text, 0, 8).out, [
    ['{', 0],
    ['key', 1, 4, 'a'],
    ['number', 6, 7],
    ['close', 8],
  ]);
  assert.deepEqual(events(text, 9, 17).fault, { kind: 'value', at: 15, end: 15, eof: false, open: 9, array: false });
  const r = parseJson(text, undefined, 9, 17);
  assert.deepEqual(r, { ok: false, offset: 15, message: "unexpected 't'" });
});

test('strict faults: kind, where, and the innermost open container', () => {
  const f = (text: string) => events(text).fault;
  assert.deepEqual(f('[1,]'), { kind: 'trailing-comma', at: 2, end: 2, eof: false, open: 0, array: true });
  assert.deepEqual(f('{"a" 1}'), { kind: 'colon', at: 5, end: 5, eof: false, open: 0, array: false });
  assert.deepEqual(f('{"a": [1 2]}'), { kind: 'comma', at: 9, end: 9, eof: false, open: 6, array: true });
  assert.deepEqual(f('{"a": 1'), { kind: 'comma', at: 7, end: 7, eof: true, open: 0, array: false });
  assert.deepEqual(f('{1: 2}'), { kind: 'key', at: 1, end: 1, eof: false, open: 0, array: false });
  assert.deepEqual(f('"a\\x"'), { kind: 'escape', at: 2, end: 4, eof: false, open: -1, array: false });
  assert.deepEqual(f('"\\u12"'), { kind: 'unicode-escape', at: 1, end: 1, eof: false, open: -1, array: false });
  assert.deepEqual(f('1 2'), { kind: 'trailing-text', at: 2, end: 2, eof: false, open: -1, array: false });
  assert.deepEqual(f('"abc'), { kind: 'unclosed-string', at: 0, end: 4, eof: false, open: -1, array: false });
  assert.deepEqual(f(''), { kind: 'value', at: 0, end: 0, eof: true, open: -1, array: false });
});

test('lenient: every steppable mistake is a problem where it stands, and the read goes on', () => {
  const text = '{ "a": 1, // c\n "b": [1,2,], \'x\': yes, c: 01, "d": "\\q\\u12g\t" /* x */ } # t\n{}';
  assert.deepEqual(lenient(text), {
    problems: [
      ['comment', 10, 14],
      ['comma-before-]', 25, 26],
      ['single-quoted', 29, 32],
      ['word', 34, 37],
      ['unquoted-key', 39, 40],
      ['number', 42, 44],
      ['escape', 52, 54],
      ['unicode-escape', 54, 60],
      ['comment', 62, 69],
      ['comment', 72, 75],
      ['trailing-text', 76, 78],
    ],
    fault: undefined,
  });
  assert.deepEqual(lenient('{"a": [1,\n'), { problems: [], fault: { kind: 'value', at: 10, end: 10, eof: true, open: 6, array: true } });
  assert.deepEqual(lenient('{"a": "x\ny"}').fault, { kind: 'unclosed-string', at: 6, end: 8, eof: false, open: 0, array: false });
});

test('hostile input: BOM, NUL and control characters, lone surrogates', () => {
  // A byte order mark is not JSON: verify strips it before reading, a JSON adapter's check skips it.
  assert.deepEqual(parseJson('\ufeff{}'), { ok: false, offset: 0, message: "unexpected '\ufeff'" });
  assert.deepEqual(syntax('\ufeff{}'), []);
  assert.equal(scan('\ufeff{}'), 'unsupported');
  // NUL inside a string, and outside.
  assert.deepEqual(parseJson('{"a":"x\u0000y"}'), { ok: false, offset: 7, message: 'control character in a string (escape it)' });
  assert.deepEqual(syntax('{"a":"x\u0000y"}'), [
    [7, 8, 'A control character inside a JSON string must be written as an escape (\\t, \\u0000).'],
  ]);
  assert.deepEqual(parseJson('[\u0000]'), { ok: false, offset: 1, message: "unexpected '\u0000'" });
  assert.deepEqual(syntax('{"a": \u0001}'), [[6, 7, "'\u0001' cannot start a JSON value."]]);
  // Lone surrogates, escaped and raw, are read as they are (JSON.parse does the same).
  const r = parseJson('{"a":"\\ud800","b":"\udc00x"}');
  assert.ok(r.ok);
  assert.deepEqual(toValue(r.node), { a: '\ud800', b: '\udc00x' });
  assert.deepEqual(syntax('{"a":"\\ud800","b":"\udc00x"}'), []);
});

test('hostile input: trailing commas, duplicate keys, numbers like 1e999, -0 and 0x1', () => {
  assert.deepEqual(parseJson('{"a": [1,]}'), { ok: false, offset: 8, message: "trailing ',' before ']'" });
  assert.deepEqual(syntax('{"a": [1,],}'), [
    [8, 9, "JSON allows no comma before ']': remove it."],
    [10, 11, "JSON allows no comma before '}': remove it."],
  ]);
  // Duplicate keys: both kept in order; the value is the last one, as JSON.parse gives.
  const dup = parseJson('{"a": 1, "a": 2}');
  assert.ok(dup.ok && dup.node.kind === 'object');
  assert.deepEqual(
    dup.node.entries.map(e => [e.key, e.keyStart]),
    [
      ['a', 1],
      ['a', 9],
    ],
  );
  assert.deepEqual(member(dup.node, 'a')?.keyStart, 9);
  assert.deepEqual(toValue(dup.node), { a: 2 });
  // 1e999 is Infinity and -0 is -0 (what JSON.parse gives); the index scan leaves both to the model.
  const nums = parseJson('[1e999, -0]');
  assert.ok(nums.ok && nums.node.kind === 'array');
  assert.deepEqual(
    nums.node.items.map(n => n.kind === 'number' && n.value),
    [Infinity, -0],
  );
  const light = scan('{"a": 1e999, "b": -0, "c": 7}');
  assert.ok(typeof light === 'object' && light.k === 'map');
  assert.deepEqual(
    light.pairs.map(p => p.value.k === 'scalar' && p.value.value),
    [OTHER, OTHER, 7],
  );
  assert.deepEqual(parseJson('[0x1]'), { ok: false, offset: 2, message: "expected ',' or ']', found 'x'" });
  assert.deepEqual(syntax('{"a": 0x1}'), [[6, 9, "'0x1' is not a JSON number (no leading zeros, '+', hex, or bare '.')."]]);
  assert.equal(scan('{"a": 0x1}'), 'unsupported');
});

test('hostile input: every truncation of a document is a fault, never a throw', () => {
  const doc = '{"a": [1, -2.5e3, "x\\u00e9\\"", {"b": null}], "c": true}';
  for (let n = 0; n < doc.length; n++) {
    const t = doc.slice(0, n);
    const r = parseJson(t);
    assert.equal(r.ok, false, t);
    assert.ok(!r.ok && r.offset >= 0 && r.offset <= n, t);
    const errors = jsonSyntaxErrors(t);
    assert.ok(errors.length > 0, t);
    assert.ok(
      errors.every(e => e.start >= 0 && e.end <= n),
      t,
    );
    assert.equal(scan(t), 'unsupported', t);
  }
});

test('hostile input: nesting is bounded without recursion, huge strings are linear', () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
  assert.deepEqual(parseJson(deep(100_000)), { ok: false, offset: MAX_DEPTH, message: `nesting deeper than ${MAX_DEPTH} levels` });
  assert.equal(parseJson(deep(MAX_DEPTH)).ok, true);
  // json.syntax reads no further than 1,000 levels (such a file gets file.too-deep first).
  assert.deepEqual(syntax('{"a": ' + '['.repeat(100_000) + ' 01'), []);
  assert.deepEqual(syntax('{"a": ' + '['.repeat(999) + ' 01'), [
    [1006, 1008, "'01' is not a JSON number (no leading zeros, '+', hex, or bare '.')."],
    [1004, 1005, "This '[' is never closed."],
  ]);
  // The index scan reads SHALLOW levels (util/nesting.ts): deeper text goes to the model.
  assert.equal(scan('{"a": ' + deep(SHALLOW) + '}') === 'unsupported', false);
  assert.equal(scan('{"a": ' + deep(SHALLOW + 1) + '}'), 'unsupported');
  const big = 'x'.repeat(4_000_000);
  const r = parseJson(`{"a": "${big}\\n"}`);
  assert.ok(r.ok && r.node.kind === 'object');
  const s = r.node.entries[0]!.value;
  assert.ok(s.kind === 'string' && s.value.length === 4_000_001);
  assert.equal(s.at(4_000_000), 7 + 4_000_000);
  assert.deepEqual(syntax(`{"a": "${big}`), [[6, 4_000_007, 'This string is never closed: a JSON string ends with " on the same line.']]);
});

test('one string read alone (the YAML index scan reads double-quoted scalars with it): value and end, or nothing', () => {
  const text = 'k: "a\\"b\\u00e9\\/" # c\nnext: "x';
  assert.deepEqual(readJsonString(text, 3, 21), { value: 'a"b\u00e9/', end: 17 });
  assert.equal(readJsonString(text, 28, text.length), undefined); // never closed
  assert.equal(readJsonString('"a\\x41"', 0, 7), undefined); // a YAML escape JSON does not have
  assert.equal(readJsonString('"ab\r\n', 0, 4), undefined); // a line break before the closing quote
});
