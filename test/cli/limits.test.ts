/** Issue 20 items 7 and 11 at the CLI: prototype names in --rule, and the limits a checkout cannot lift. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { run, tempTree } from './helpers';

test('--rule: a prototype name is an unknown diagnostic code (exit 2)', async t => {
  const dir = tempTree({ 'a.adapter.yaml': 'error_mapping:\n  404:\n    code: NOT_FOUND_REPOSITRY\n' });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const name of ['constructor', 'toString', '__proto__']) {
    const r = await run(['check', '.', '--rule', `${name}=off`], dir);
    assert.deepEqual([r.code, r.out, r.err.split('\n')[0]], [2, '', `mcp-aql-errors: --rule: unknown diagnostic code '${name}'`], name);
  }
});
