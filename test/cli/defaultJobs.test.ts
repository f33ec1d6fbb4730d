/**
 * `check`'s default threads (cli/check.ts `defaultJobs`): all cores from 1,000 files, one thread below. A worker
 * costs its start and its JIT warm-up; under 1,000 files it took 20-30 % more CPU for the same wall time.
 * Counted end to end: the worker threads a run starts (a preload counts `Worker` constructions).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { defaultJobs } from '../../server/src/cli/check/command';
import { ROOT, tempDir } from './helpers';
import { workerCounter } from './workerCount';

test('one thread below 1,000 files, all cores (at most one per 500 files) from there', () => {
  const cores = availableParallelism();
  assert.equal(defaultJobs(0), 1);
  assert.equal(defaultJobs(999), 1);
  assert.equal(defaultJobs(1000), Math.min(cores, 2));
  assert.equal(defaultJobs(1499), Math.min(cores, 2));
  assert.equal(defaultJobs(100_000), cores);
});

test('check of 999 files with the default jobs starts no worker', { timeout: 120_000 }, () => {
  const dir = tempDir('mcp-aql-default-jobs-');
  try {
    const counter = workerCounter(dir);
    const n = 999;
    for (let d = 0; d < 37; d++) {
      mkdirSync(join(dir, `d${d}`));
      for (let i = 0; i < n / 37; i++)
        writeFileSync(join(dir, `d${d}`, `s${i}.adapter.yaml`), `error_codes:\n  NOT_FOUND_S${d}_${i}:\n    category: NOT_FOUND\n`);
    }
    const r = spawnSync(process.execPath, ['-r', counter, join(ROOT, 'dist/cli.js'), 'check', '.', '--format', 'json'], {
      cwd: dir,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as unknown[]).length, n);
    assert.match(r.stderr, /^WORKERS 0$/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
