/**
 * Issue 20 items 7–11 at the CLI: prototype names in --rule, inputs that hung or crashed the built CLI
 * (run in a child process with a timeout), and the limits a checkout cannot lift.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fanOut } from '../service/hostileTexts';
import { ROOT, run, tempTree } from './helpers';

test('--rule: a prototype name is an unknown diagnostic code (exit 2)', async t => {
  const dir = tempTree({ 'a.adapter.yaml': 'error_mapping:\n  404:\n    code: NOT_FOUND_REPOSITRY\n' });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const name of ['constructor', 'toString', '__proto__']) {
    const r = await run(['check', '.', '--rule', `${name}=off`], dir);
    assert.deepEqual([r.code, r.out, r.err.split('\n')[0]], [2, '', `mcp-aql-errors: --rule: unknown diagnostic code '${name}'`], name);
  }
});

/** The built CLI (dist/cli.js) in a child process, bounded by a generous timeout: a hang fails, never blocks. */
export function cliBundle(
  args: string[],
  cwd: string,
  timeout = 20_000,
): { code: number | null; signal: string | null; out: string; err: string; timedOut: boolean } {
  const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), ...args], { cwd, encoding: 'utf8', timeout, maxBuffer: 64 << 20 });
  return {
    code: r.status,
    signal: r.signal,
    out: r.stdout,
    err: r.stderr,
    timedOut: (r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT',
  };
}

const codesAndLines = (json: string) =>
  (JSON.parse(json) as { diagnostics: { code: string; line: number }[] }[]).flatMap(f => f.diagnostics.map(d => [d.code, d.line]));

test('item 8: merge keys that fan out (40 anchors, each merging the three before) finish with the right output', async t => {
  const dir = tempTree({ 'fan.adapter.yaml': fanOut(40) });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const r = cliBundle(['check', '--format', 'json', 'fan.adapter.yaml'], dir);
  assert.equal(r.timedOut, false, 'the CLI took over 20 s');
  assert.equal(r.code, 1, r.err);
  assert.deepEqual(codesAndLines(r.out), [
    ['template.unused-detail', 2],
    ['yaml.alias-limit', 118],
  ]);
});
