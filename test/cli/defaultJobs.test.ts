/**
 * `check`'s default threads (cli/check/command.ts `defaultJobs`): all cores from 4,000 files, one thread below. A
 * worker costs its start and its own JIT warm-up; under 4,000 files two threads took 1.3-1.6 × the CPU of the
 * `yaml` parse floor, one thread 1.15-1.25 × (bench/NOTES.md, linearity).
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

test('one thread below 4,000 files, all cores (at most one per 2,000 files) from there', () => {
  const cores = availableParallelism();
  assert.equal(defaultJobs(0), 1);
  assert.equal(defaultJobs(1000), 1);
  assert.equal(defaultJobs(3999), 1);
  assert.equal(defaultJobs(4000), Math.min(cores, 2));
  assert.equal(defaultJobs(5999), Math.min(cores, 2));
  assert.equal(defaultJobs(100_000), cores);
});

test('check of 3,999 files with the default jobs starts no worker', { timeout: 120_000 }, () => {
  const dir = tempDir('mcp-aql-default-jobs-');
  try {
    const counter = workerCounter(dir);
    const n = 3999;
    for (let d = 0; d < 40; d++) mkdirSync(join(dir, `d${d}`));
    for (let i = 0; i < n; i++)
      writeFileSync(join(dir, `d${i % 40}`, `s${i}.adapter.yaml`), `error_codes:\n  NOT_FOUND_S${i}:\n    category: NOT_FOUND\n`);
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
