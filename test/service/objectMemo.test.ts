/**
 * util/objectMemo.ts: a value remembered per object on the object itself (ARCHITECTURE.md, `util/`: a WeakMap's values
 * stay alive through V8's young-generation collections, so a per-file value reaching the file's tree made
 * every tree outlive its file in a check worker).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseDocument } from 'yaml';
import { ObjectMemo } from '../../server/src/service/util/objectMemo';

test('remembers a value per object, and nothing for another object', () => {
  const memo = new ObjectMemo<object, number>('t');
  const a = {};
  const b = {};
  assert.equal(memo.get(a), undefined);
  memo.set(a, 1);
  assert.equal(memo.get(a), 1);
  assert.equal(memo.get(b), undefined);
  memo.set(a, 2);
  assert.equal(memo.get(a), 2);
});

test('true is remembered without a record, and a copy of the object does not pass for it', () => {
  const memo = new ObjectMemo<object, true | number>('t');
  const doc = parseDocument('a: 1\nb: [1, 2]\n');
  const root = doc.contents!;
  memo.set(root, true);
  assert.equal(memo.get(root), true);
  assert.equal(memo.get(doc.clone().contents!), undefined);
  const o = {};
  memo.set(o, true);
  assert.equal(memo.get(o), true);
  assert.equal(memo.get(Object.create(Object.prototype, Object.getOwnPropertyDescriptors(o)) as object), undefined);
  assert.equal(memo.get({}), undefined);
  // Another value replaces it, and true again replaces that.
  memo.set(o, 2);
  assert.equal(memo.get(o), 2);
  memo.set(o, true);
  assert.equal(memo.get(o), true);
});

test('two memos on one object keep their own values', () => {
  const m1 = new ObjectMemo<object, string>('same name');
  const m2 = new ObjectMemo<object, string>('same name');
  const o = {};
  m1.set(o, 'one');
  m2.set(o, 'two');
  assert.deepEqual([m1.get(o), m2.get(o)], ['one', 'two']);
});

test('the value is not seen by keys, JSON, spread or for-in', () => {
  const memo = new ObjectMemo<Record<string, unknown>, string>('t');
  const o: Record<string, unknown> = { x: 1 };
  memo.set(o, 'v');
  assert.deepEqual(Object.keys(o), ['x']);
  assert.equal(JSON.stringify(o), '{"x":1}');
  assert.deepEqual({ ...o }, { x: 1 });
  const seen: string[] = [];
  for (const k in o) seen.push(k);
  assert.deepEqual(seen, ['x']);
  assert.equal(memo.get({ ...o }), undefined);
});

test("a copy that carries the property over (yaml's clone) does not pass for the original", () => {
  const memo = new ObjectMemo<object, string>('t');
  const doc = parseDocument('a: 1\nb: [1, 2]\n');
  memo.set(doc, 'doc');
  memo.set(doc.contents!, 'root');
  const copy = doc.clone();
  assert.equal(memo.get(doc), 'doc');
  assert.equal(memo.get(doc.contents!), 'root');
  assert.equal(memo.get(copy), undefined);
  assert.equal(memo.get(copy.contents!), undefined);
  // Copied by descriptors too.
  const o = {};
  memo.set(o, 'o');
  assert.equal(memo.get(Object.create(Object.prototype, Object.getOwnPropertyDescriptors(o)) as object), undefined);
});

test('an object that takes no property (frozen, sealed, not extensible) is remembered all the same', () => {
  const memo = new ObjectMemo<object, string>('t');
  const frozen = Object.freeze([1, 2]);
  const sealed = Object.seal({ a: 1 });
  const closed = Object.preventExtensions({});
  memo.set(frozen, 'f');
  memo.set(sealed, 's');
  memo.set(closed, 'c');
  assert.deepEqual([memo.get(frozen), memo.get(sealed), memo.get(closed)], ['f', 's', 'c']);
  assert.equal(memo.get(Object.freeze([1, 2])), undefined);
});

test('the service keys no WeakMap or WeakSet by a per-file object (use util/objectMemo.ts)', () => {
  // Allowed: tables keyed by objects that live for the whole run (the schema's compiled validators), and the memo's fallback.
  const allowed = new Set(['checks/schemaChecks.ts: WeakMap<ValidateFunction,', 'util/objectMemo.ts: WeakMap<K,']);
  const root = join(__dirname, '../../server/src/service');
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts'))
        for (const m of readFileSync(p, 'utf8').matchAll(/Weak(?:Map|Set)<[^,>]+[,>]/g)) found.push(`${relative(root, p)}: ${m[0]}`);
    }
  };
  walk(root);
  assert.deepEqual(
    found.filter(f => !allowed.has(f)),
    [],
  );
});
