/**
 * `probe` and `watch` end with the server, and stop its whole process group (docs/robustness.md,
 * "Nothing lost on the new surface"): a server that leaves a child holding its standard output (test/fixtures/runtime/
 * forkingServer.mjs) used to keep both waiting — `probe` until a CI job's own timeout — and the child
 * outlived the run. Each test checks the command ends well inside its bound and the child is gone.
 */
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { ROOT, run, tempTree } from './helpers';
import { alive, eventually } from '../processes';
import { watch } from './watchRun';

const SERVER = join(ROOT, 'test/fixtures/runtime/forkingServer.mjs');
const children: number[] = [];
after(() => {
  for (const pid of children)
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone, as it should be */
    }
});

/** The grandchild's pid, from the server's stderr as the command shows it. */
function grandchild(stderr: string): number {
  const m = /grandchild (\d+)/.exec(stderr);
  assert.ok(m, stderr);
  const pid = Number(m[1]);
  children.push(pid);
  return pid;
}

/** The in-process CLI, bounded: a hang fails the test instead of blocking the file. */
async function bounded<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no end within ${ms} ms`)), ms)));
  try {
    return await Promise.race([p, bound]);
  } finally {
    clearTimeout(timer);
  }
}

test('probe: a server that exits at once, leaving a child on its output, is reported and the child stopped', async () => {
  const r = await bounded(run(['probe', '--', process.execPath, SERVER, 'exit']), 30_000);
  assert.equal(r.code, 2, r.err);
  // Ended with the server ("Connection closed"), not at the 10 s start timeout (the handshake not answered).
  assert.match(r.err, /cannot start .* as an MCP server: (MCP error -32000: )?Connection closed/);
  assert.ok(await eventually(() => !alive(grandchild(r.err)), 5_000), 'the child is gone');
});

test('probe: a server that exits on a call ends the run at once; the child is stopped', async () => {
  // With a --timeout longer than the bound: a call waiting for it would fail the test.
  const pids = join(tempTree({}), 'pids');
  const r = await bounded(
    run(['probe', '--timeout', '60000', '--format', 'json', '--', process.execPath, SERVER, 'exit-on-call', pids]),
    45_000,
  );
  assert.equal(r.code, 1, r.err);
  assert.match(r.err, /; 1 of \d+ calls sent, to 1 of 1 listed tool.*; the server exited/);
  const pid = Number(readFileSync(pids, 'utf8').trim());
  children.push(pid);
  assert.ok(await eventually(() => !alive(pid), 5_000), 'the child is gone');
  assert.match(r.out, /runtime\./);
});

test('probe: at the end of a run the server and every process it started are stopped', async () => {
  const dir = tempTree({});
  const pids = join(dir, 'pids');
  const r = await bounded(run(['probe', '--format', 'json', '--', process.execPath, SERVER, 'serve', pids]), 30_000);
  assert.ok(r.code === 0 || r.code === 1, r.err);
  assert.match(r.err, /; (\d+) of \1 calls sent, to 1 of 1 listed tool/);
  const pid = Number(readFileSync(pids, 'utf8').trim());
  children.push(pid);
  assert.ok(await eventually(() => !alive(pid), 5_000), 'the child is gone');
});

test('watch: the server exits leaving a child on its output; watch ends with the server, the child stopped', async () => {
  const r = await watch(['--', process.execPath, SERVER, 'exit'], [], { keepStdinOpen: true });
  assert.equal(r.signal, null, `ended by itself, not killed at the 30 s bound: ${r.stderr}`);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(await eventually(() => !alive(grandchild(r.stderr)), 5_000), 'the child is gone');
});
