/**
 * parse/flat.ts `kept`: a list the model keeps is copied to its size, and every empty one is one shared, frozen list
 * (bench/NOTES.md, "eighth sitting": 200,000 empty lists in a 14 MiB adapter's model).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { kept } from '../../server/src/service/parse/flat';
import { scanTemplate } from '../../server/src/service/parse/placeholders';

test('a kept list is a copy of its items; empty ones are one frozen list', () => {
  const a = [1, 2];
  const k = kept(a);
  assert.deepEqual(k, [1, 2]);
  assert.notEqual(k, a);
  const e1 = kept<number>([]);
  const e2 = kept<string>([]);
  assert.equal(e1 as unknown, e2 as unknown);
  assert.ok(Object.isFrozen(e1));
  assert.throws(() => e1.push(1), TypeError);
});

test("a template's placeholders and malformed lists: the same answers, empty ones shared", () => {
  const t = scanTemplate('"{a} and {b}"', 10, '{a} and {b}', 'double');
  assert.deepEqual(
    t.placeholders.map(p => [p.name, p.span.start, p.span.end]),
    [
      ['a', 11, 14],
      ['b', 19, 22],
    ],
  );
  assert.equal(t.malformed, scanTemplate('"plain"', 0, 'plain', 'double').malformed);
  assert.equal(t.malformed.length, 0);
  const u = scanTemplate('"{a} {}"', 0, '{a} {}', 'double');
  assert.deepEqual(
    u.malformed.map(m => [m.reason, m.span.start, m.span.end]),
    [['empty placeholder {}', 5, 7]],
  );
  assert.equal(u.placeholders[0]!.name, 'a');
});
