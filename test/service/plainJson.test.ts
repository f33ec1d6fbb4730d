/** verify/plainJson.ts: JSON.parse's view of a record, and the keys a text writes (a repeated key is told apart). */
import test from 'node:test';
import assert from 'node:assert/strict';
import { member, toValue } from '../../server/src/service/verify/json';
import { keysWritten, PlainReading } from '../../server/src/service/verify/plainJson';

test('keysWritten counts the colons outside strings, through escaped quotes and backslashes', () => {
  assert.equal(keysWritten('{"a": 1, "b": {"c": "x:y", "d": "q\\":"}}'), 4);
  assert.equal(keysWritten('{"a\\\\": ":", "b": ["\\\\", ":"]}'), 2);
  assert.equal(keysWritten('[1, 2, "::"]'), 0);
  assert.equal(keysWritten('{"a": 1, "a": 2}'), 2);
});

test('PlainReading: a text whose entries were listed with a repeated key is told; one only looked up is not', () => {
  const r = new PlainReading();
  const n = r.read('{"a": 1, "a": {"b": true}}')!;
  assert.equal(member(n, 'a')?.value.kind, 'object'); // the last, as JSON.parse and parseJson keep
  assert.equal(r.noRepeats(), true);
  assert.equal(n.kind === 'object' && n.entries.length, 1);
  assert.equal(r.noRepeats(), false);
});

test('PlainReading.read: undefined for what parseJson rejects (not JSON, deeper than 256), the parsed value through toValue', () => {
  const readPlain = (text: string) => new PlainReading().read(text);
  assert.equal(readPlain('{"a": }'), undefined);
  assert.equal(readPlain('['.repeat(257) + ']'.repeat(257)), undefined);
  assert.notEqual(readPlain('['.repeat(256) + ']'.repeat(256)), undefined);
  assert.deepEqual(toValue(readPlain('{"x": [1, "2", null]}')!), { x: [1, '2', null] });
});
