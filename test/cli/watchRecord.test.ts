/**
 * `watch --record` across a log rotation (cli/watchRecord.ts through cli/watchLines.ts): the file renamed
 * away keeps what was written before; what follows goes to a file at the path again (created, or the one
 * the rotator created); a symbolic link, a folder or anything but a regular file planted at the path is
 * never followed, said once, and the recording goes on in the renamed file; a truncation in place needs
 * nothing. (Through the built CLI: test/cli/watch.test.ts.)
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, truncateSync, writeFileSync, existsSync, lstatSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { tempTree } from './helpers';
import { LinesOut } from '../../server/src/cli/runtime/watch/lines';
import { RecordFile } from '../../server/src/cli/runtime/watch/record';

const turn = () => new Promise(res => setImmediate(res));

function recorder(dir: string) {
  const logs: string[] = [];
  const file = new RecordFile(dir, join(dir, 'r.jsonl'), 'r.jsonl', s => logs.push(s));
  const out = new LinesOut(
    () => file.open(),
    1 << 20,
    e => assert.fail(e),
    undefined,
    fd => file.current(fd),
  );
  const line = async (s: string) => {
    out.text(s + '\n');
    await turn();
  };
  return { logs, out, line };
}

const read = (dir: string, name: string) => readFileSync(join(dir, name), 'utf8');

test('renamed away: the old file keeps its lines, the next go to a new file at the path (or the one the rotator created)', async () => {
  const dir = tempTree({});
  try {
    const { logs, out, line } = recorder(dir);
    await line('a');
    renameSync(join(dir, 'r.jsonl'), join(dir, 'r.jsonl.1'));
    await line('b');
    await line('c');
    renameSync(join(dir, 'r.jsonl'), join(dir, 'r.jsonl.2'));
    writeFileSync(join(dir, 'r.jsonl'), ''); // logrotate's `create`
    await line('d');
    truncateSync(join(dir, 'r.jsonl')); // copytruncate: the same file, emptied in place
    await line('e');
    out.end(true);
    assert.equal(read(dir, 'r.jsonl.1'), 'a\n');
    assert.equal(read(dir, 'r.jsonl.2'), 'b\nc\n');
    assert.equal(read(dir, 'r.jsonl'), 'e\n');
    assert.deepEqual(logs, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a symbolic link planted at the path is never followed: said once, the lines go on into the renamed file', async () => {
  const dir = tempTree({ 'victim.txt': 'keep\n' });
  try {
    const { logs, out, line } = recorder(dir);
    await line('a');
    renameSync(join(dir, 'r.jsonl'), join(dir, 'r.jsonl.1'));
    symlinkSync(join(dir, 'victim.txt'), join(dir, 'r.jsonl'));
    await line('b');
    await line('c');
    assert.equal(read(dir, 'victim.txt'), 'keep\n');
    assert.equal(read(dir, 'r.jsonl.1'), 'a\nb\nc\n');
    assert.deepEqual(logs, [
      "--record 'r.jsonl' was moved away and its path is now a symbolic link, not followed; recording goes on in the file it was",
    ]);
    // The link removed and the path free again: the next batch opens a file there.
    rmSync(join(dir, 'r.jsonl'));
    await line('d');
    out.end(true);
    assert.equal(read(dir, 'r.jsonl'), 'd\n');
    assert.equal(lstatSync(join(dir, 'r.jsonl')).isFile(), true);
    assert.equal(logs.length, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a folder (anything but a regular file) at the path: not written into, said once; a dangling link is not created through', async () => {
  const dir = tempTree({});
  try {
    const { logs, out, line } = recorder(dir);
    await line('a');
    renameSync(join(dir, 'r.jsonl'), join(dir, 'r.jsonl.1'));
    mkdirSync(join(dir, 'r.jsonl'));
    await line('b');
    rmSync(join(dir, 'r.jsonl'), { recursive: true });
    symlinkSync(join(dir, 'made-through-link'), join(dir, 'r.jsonl')); // dangling: O_CREAT would create its target
    await line('c');
    rmSync(join(dir, 'r.jsonl'));
    // A FIFO nobody reads: opening it to write would block, writing into it would lose the lines.
    const fifo = spawnSync('mkfifo', [join(dir, 'r.jsonl')]).status === 0; // (skipped where there is no mkfifo)
    if (fifo) await line('d');
    out.end(true);
    assert.equal(existsSync(join(dir, 'made-through-link')), false);
    assert.equal(read(dir, 'r.jsonl.1'), fifo ? 'a\nb\nc\nd\n' : 'a\nb\nc\n');
    if (fifo) assert.equal(lstatSync(join(dir, 'r.jsonl')).isFIFO(), true);
    assert.deepEqual(logs, [
      "--record 'r.jsonl' was moved away and its path is now not a regular file; recording goes on in the file it was",
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
