/**
 * `check`'s pool turns V8's parallel scavenges off for the process (cli/parallel.ts
 * `serialScavenges`). With every core busy, a parallel young-generation collection waits for helper
 * threads that get no core. Counted, not timed: with `--trace-gc-nvp`, no scavenge of a check worker
 * has helper-thread time (before: most of them did).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { workspaceFiles } from '../../bench/genWorkspace';
import { otherThreadsScavenges, withHelperThreads } from './gcTrace';
import { ROOT, tempTree } from './helpers';

const N = 150;

test('no check worker scavenges with helper threads', () => {
  const files = workspaceFiles(N);
  const dir = tempTree(files);
  const r = spawnSync(process.execPath, ['--trace-gc-nvp', join(ROOT, 'dist/cli.js'), 'check', dir, '--jobs', '2', '--format', 'json'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(r.status, 1, r.stderr);
  const workers = otherThreadsScavenges(r.stdout);
  assert.ok(workers.length >= 10, `the worker collected ${workers.length} times`);
  assert.deepEqual(withHelperThreads(workers), []);
});
