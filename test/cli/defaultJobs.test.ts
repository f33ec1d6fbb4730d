/**
 * `check`'s default threads (cli/check/command.ts `defaultJobs`): all cores from 1,500 files, one thread below. A
 * worker costs its start and its JIT warm-up; under 1,500 files it took 20-30 % more CPU for 0-5 % of wall time.
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

test('one thread below 1,500 files, all cores (at most one per 750 files) from there', () => {
  const cores = availableParallelism();
  assert.equal(defaultJobs(0), 1);
  assert.equal(defaultJobs(1000), 1);
  assert.equal(defaultJobs(1499), 1);
  assert.equal(defaultJobs(1500), Math.min(cores, 2));
  assert.equal(defaultJobs(2249), Math.min(cores, 2));
  assert.equal(defaultJobs(2250), Math.min(cores, 3));
  assert.equal(defaultJobs(100_000), cores);
});

/** `n` one-code adapters, 50 to a folder; `check .` there with the default jobs and the worker counter: its stderr. */
function checkGenerated(n: number): string {
  const dir = tempDir('mcp-aql-default-jobs-');
  try {
    const counter = workerCounter(dir);
    for (let i = 0; i < n; i++) {
      const sub = join(dir, `d${Math.floor(i / 50)}`);
      if (i % 50 === 0) mkdirSync(sub);
      writeFileSync(join(sub, `s${i}.adapter.yaml`), `error_codes:\n  NOT_FOUND_S${i}:\n    category: NOT_FOUND\n`);
    }
    const r = spawnSync(process.execPath, ['-r', counter, join(ROOT, 'dist/cli.js'), 'check', '.', '--format', 'json'], {
      cwd: dir,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as unknown[]).length, n);
    return r.stderr;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('check of 1,499 files with the default jobs starts no worker', { timeout: 120_000 }, () => {
  assert.match(checkGenerated(1499), /^WORKERS 0$/m);
});

test('check of 1,500 files with the default jobs starts one worker (two cores or more)', { timeout: 120_000 }, t => {
  if (availableParallelism() < 2) return t.skip('one core: no worker at any size');
  assert.match(checkGenerated(1500), /^WORKERS 1$/m);
});
