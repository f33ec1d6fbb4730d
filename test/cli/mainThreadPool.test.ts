/**
 * `check --jobs N` is the main thread and N - 1 workers at every size (cli/parallel.ts
 * `LocalPort`); it used to be N workers past 4,000 files, when the main thread's heap held every
 * declaration. Counted: the worker threads the run starts (a preload counts `Worker` constructions).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempDir } from './helpers';
import { workerCounter } from './workerCount';

test('past 4,000 files, --jobs 2 is still the main thread and one worker', { timeout: 180_000 }, () => {
  const dir = tempDir('mcp-aql-main-pool-');
  try {
    const counter = workerCounter(dir);
    const n = 4100;
    for (let d = 0; d < 41; d++) {
      mkdirSync(join(dir, `d${d}`));
      for (let i = 0; i < n / 41; i++) {
        const k = d * 100 + i;
        writeFileSync(
          join(dir, `d${d}`, `s${i}.adapter.yaml`),
          `error_codes:\n  NOT_FOUND_S${k}:\n    category: NOT_FOUND\nerror_mapping:\n  404:\n    code: NOT_FOUND_S${(k + 1) % n}\n`,
        );
      }
    }
    const r = spawnSync(process.execPath, ['-r', counter, join(ROOT, 'dist/cli.js'), 'check', '.', '--jobs', '2', '--format', 'json'], {
      cwd: dir,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout) as { diagnostics: unknown[] }[];
    assert.equal(report.length, n);
    assert.deepEqual(
      report.filter(f => f.diagnostics.length),
      [],
    );
    assert.match(r.stderr, /^WORKERS 1$/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
