/** The test run has a temporary folder of its own and fails when a test leaves anything in it. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './helpers';

/** scripts/test.mjs as a user runs it (not as a child of this test run: NODE_TEST_CONTEXT would silence its report). */
const runner = (file: string) => {
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  return spawnSync(process.execPath, [join(ROOT, 'scripts/test.mjs'), join('test/fixtures/runner', file)], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
    env,
  });
};

test('a test that leaves a temporary folder fails the run, naming it', () => {
  const r = runner('leaky.test.ts');
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stderr, /The tests left 1 entry in their temporary folder: leaked-\w+/);
});

test('folders made with test/tempDirs.ts are gone when the file ends: the run passes', () => {
  const r = runner('tidy.test.ts');
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /# pass 1\n/);
});
