/**
 * `watch`'s lines out of the judging thread (cli/watchLines.ts): gathered and written once the turn is
 * over, whole texts per write and at most 4096 bytes a write (unless one text is longer), a full pipe
 * waited on, an error reported once and the rest dropped, a --record file opened only when a line comes.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { LinesOut } from '../../server/src/cli/runtime/watch/lines';
import { tempTree } from './helpers';

const turn = () => new Promise(r => setImmediate(r));

test('texts are written together after the turn, whole, at most maxWrite bytes a write unless one text is longer', async () => {
  const writes: string[] = [];
  const out = new LinesOut(
    () => 7,
    100,
    () => assert.fail('no error'),
    (fd, b, at) => {
      assert.equal(fd, 7);
      writes.push(Buffer.from(b.subarray(at)).toString());
      return b.length - at;
    },
  );
  const texts = ['a'.repeat(39) + '\n', 'b'.repeat(39) + '\n', 'c'.repeat(39) + '\n', 'd'.repeat(250) + '\n', 'é\n'];
  for (const t of texts) out.text(t);
  assert.deepEqual(writes, [], 'nothing during the turn');
  await turn();
  assert.deepEqual(writes, [texts[0]! + texts[1]!, texts[2]!, texts[3]!, texts[4]!]);
});

test('a full pipe (EAGAIN) is waited on; a short write is finished; another error is reported once and the rest dropped', async () => {
  const got: string[] = [];
  const errors: string[] = [];
  let calls = 0;
  const out = new LinesOut(
    () => 2,
    4096,
    e => errors.push(e.message),
    (_fd, b, at) => {
      calls++;
      if (calls <= 3) throw Object.assign(new Error('EAGAIN'), { code: 'EAGAIN' });
      if (calls === 4) {
        got.push(Buffer.from(b.subarray(at, at + 2)).toString());
        return 2; // a short write
      }
      if (calls === 6) throw Object.assign(new Error('EPIPE: broken pipe'), { code: 'EPIPE' });
      got.push(Buffer.from(b.subarray(at)).toString());
      return b.length - at;
    },
  );
  out.text('hello\n');
  await turn();
  assert.deepEqual(got, ['he', 'llo\n']);
  out.text('lost\n');
  await turn();
  out.text('after\n');
  out.end(false);
  assert.deepEqual(errors, ['EPIPE: broken pipe']);
  assert.equal(calls, 6, 'nothing written once given up');
});

test('a --record file: opened on the first line (never without one), appended, closed at the end; a failed open reported once', async () => {
  const dir = tempTree({ 'r.jsonl': 'before\n' });
  try {
    let opened = 0;
    const { openSync } = await import('node:fs');
    const open = () => (opened++, openSync(join(dir, 'r.jsonl'), 'a'));
    const idle = new LinesOut(open, 1 << 20, () => assert.fail('no error'));
    idle.end(true);
    assert.equal(opened, 0);
    const rec = new LinesOut(open, 1 << 20, () => assert.fail('no error'));
    rec.text('{"id":1}\n');
    rec.text('{"id":2}\n');
    await turn();
    rec.text('{"id":3}\n');
    rec.end(true);
    rec.text('{"id":4}\n');
    assert.equal(opened, 1);
    assert.equal(readFileSync(join(dir, 'r.jsonl'), 'utf8'), 'before\n{"id":1}\n{"id":2}\n{"id":3}\n');
    const errors: string[] = [];
    const bad = new LinesOut(
      () => openSync(join(dir, 'r.jsonl', 'x'), 'a'),
      1 << 20,
      e => errors.push((e as NodeJS.ErrnoException).code!),
    );
    bad.text('a\n');
    bad.text('b\n');
    await turn();
    bad.text('c\n');
    bad.end(true);
    assert.deepEqual(errors, ['ENOTDIR']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
