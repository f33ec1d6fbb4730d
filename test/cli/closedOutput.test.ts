/**
 * A reader that stops early closes standard output (`mcp-aql-errors docs … | head -1`): the run ends
 * quietly with exit 0 — no EPIPE stack trace, no exit 1. The real program in a child
 * process, its standard output closed after the first chunk; bounded by a timeout, not timed.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { endOnClosedOutput } from '../../server/src/cli/io';
import { ROOT, tempTree } from './helpers';

/** An adapter whose error reference is far larger than a pipe's buffer (64 KiB). */
const BIG = [
  'name: big',
  'type: adapter',
  'error_codes:',
  ...Array.from({ length: 400 }, (_, i) => [
    `  NOT_FOUND_ITEM_${i}:`,
    '    category: NOT_FOUND',
    `    message_template: "Item '{item_id}' number ${i} was not found"`,
    '    details:',
    '      item_id: { type: string, required: true }',
  ]).flat(),
  '',
].join('\n');

function runClosingStdout(argv: string[], cwd: string): Promise<{ code: number | null; signal: string | null; err: string; got: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'dist/cli.js'), ...argv], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the run did not end after its standard output was closed'));
    }, 30_000);
    let err = '',
      got = 0;
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.stdout.once('data', (b: Buffer) => {
      got = b.length;
      child.stdout.destroy();
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, err, got });
    });
  });
}

test('docs | head -1: the run ends quietly with exit 0 when standard output is closed', async () => {
  const dir = tempTree({ 'big.adapter.yaml': BIG });
  const r = await runClosingStdout(['docs', 'big.adapter.yaml'], dir);
  assert.ok(r.got > 0);
  assert.deepEqual([r.code, r.signal, r.err], [0, null, '']);
});

test('check | head -1 too (text report streamed file by file)', async () => {
  const dir = tempTree(
    Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`a${i}.adapter.yaml`, BIG.replace(/required: true/g, 'required: yes')])),
  );
  const r = await runClosingStdout(['check', '.'], dir);
  assert.deepEqual([r.code, r.signal, r.err], [0, null, '']);
});

test('only EPIPE ends the run; another error on standard output is not swallowed; a closed stderr is ignored', () => {
  const out = new EventEmitter(),
    err = new EventEmitter();
  const exits: number[] = [];
  endOnClosedOutput(out as never, err as never, code => exits.push(code));
  out.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
  assert.deepEqual(exits, [0]);
  assert.throws(() => out.emit('error', Object.assign(new Error('write EIO'), { code: 'EIO' })), /EIO/);
  err.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
  assert.deepEqual(exits, [0]);
  assert.throws(() => err.emit('error', Object.assign(new Error('write ENOSPC'), { code: 'ENOSPC' })), /ENOSPC/);
});
