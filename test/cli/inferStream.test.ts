/**
 * `infer` reads transcripts a chunk at a time (node/readLines.ts, shared with `verify` of a `.jsonl`):
 * lines and UTF-8 characters cut by a chunk boundary come out whole, an over-long line is skipped
 * without being held, and the adapter inferred through the reader is the one inferred from the text.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAdapterService, FailureReader } from '../../server/src/service';
import { deps } from '../../server/src/cli/deps';
import { readLines } from '../../server/src/node/readLines';
import { ROOT, run, tempDir } from './helpers';

const FIX = join(ROOT, 'test/fixtures/transcripts');

function linesOf(path: string, max: number, chunk: number): (string | number)[] {
  const out: (string | number)[] = [];
  const r = readLines(path, max, { line: t => out.push(t), tooLong: n => out.push(n) }, chunk);
  assert.ok(r.ok);
  return out;
}

test('every chunk size gives the same lines: boundaries inside a line, at a newline, inside a UTF-8 character', () => {
  const dir = tempDir();
  const path = join(dir, 't.jsonl');
  const text = 'é€😀 first\n\nsecond line ☃\nthird, no newline at the end 😀';
  writeFileSync(path, text);
  const want = text.split('\n');
  for (const chunk of [1, 2, 3, 5, 7, 64]) assert.deepEqual(linesOf(path, 1000, chunk), want, `chunks of ${chunk} bytes`);
  writeFileSync(path, text + '\n');
  for (const chunk of [1, 4, 64]) assert.deepEqual(linesOf(path, 1000, chunk), want, `ending in a newline, chunks of ${chunk}`);
  writeFileSync(path, '');
  assert.deepEqual(linesOf(path, 1000, 3), ['']);
});

test('a line over the limit is reported by its length and skipped, whatever the chunks', () => {
  const dir = tempDir();
  const path = join(dir, 't.jsonl');
  writeFileSync(path, `short\n${'x'.repeat(50)}\nafter\n${'y'.repeat(11)}`);
  for (const chunk of [1, 6, 16, 1024]) assert.deepEqual(linesOf(path, 10, chunk), ['short', 50, 'after', 11], `chunks of ${chunk}`);
});

test('the recorded transcripts read in chunks of 7 bytes infer the adapter committed beside them', () => {
  const service = createAdapterService(deps);
  for (const server of ['filesystem', 'sequential-thinking']) {
    const reader = new FailureReader();
    assert.ok(readLines(join(FIX, `${server}.a.jsonl`), 1 << 20, { line: t => reader.line(t), tooLong: () => assert.fail() }, 7).ok);
    const r = service.inferContract({ reader, name: server });
    assert.equal(r.text, readFileSync(join(FIX, `${server}.inferred.adapter.yaml`), 'utf8'));
  }
});

test('infer over several transcripts: requests pair with answers of their own file only; the summary counts every failure', async () => {
  const dir = tempDir();
  // The same ids in two files: the second file's answers are not paired with the first file's requests.
  const a = readFileSync(join(FIX, 'notes.a.jsonl'), 'utf8');
  const answersOnly = a
    .split('\n')
    .filter(l => l && !l.includes('"method"'))
    .join('\n');
  writeFileSync(join(dir, 'requests.jsonl'), a);
  writeFileSync(join(dir, 'answers.jsonl'), answersOnly + '\n');
  const r = await run(['infer', 'requests.jsonl', 'answers.jsonl', '--name', 'notes'], dir);
  assert.equal(r.code, 0, r.err);
  const one = await run(['infer', 'requests.jsonl', '--name', 'notes'], dir);
  const count = (err: string) => Number(/: (\d+) failures/.exec(err)![1]);
  assert.equal(count(r.err), 2 * count(one.err));
  assert.match(r.err, / in 2 transcripts,/);
});

test('infer: a line over mcpAql.maxFileSize characters is skipped and counted; the rest is inferred', async () => {
  const dir = tempDir();
  const a = readFileSync(join(FIX, 'memory.a.jsonl'), 'utf8');
  writeFileSync(join(dir, 't.jsonl'), `{"x":"${'y'.repeat(5 * 1024 * 1024)}"}\n` + a);
  const r = await run(['infer', 't.jsonl', '--name', 'memory'], dir);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out, readFileSync(join(FIX, 'memory.inferred.adapter.yaml'), 'utf8'));
  assert.match(r.err, /^mcp-aql-errors infer: 1 line over 4718592 characters skipped\nmcp-aql-errors infer: 5 failures in 1 transcript, /);
});
