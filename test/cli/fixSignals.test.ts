/**
 * `--fix` interrupted by SIGINT or SIGTERM leaves no temporary file in the checkout (docs/robustness.md,
 * "Nothing lost on the new surface"): the signal arrives while a temporary file holds the fixed text (test/cli/slowFix.ts
 * makes that moment last); the run ends by the signal, the file being fixed is either as it was or fixed
 * whole, and the next file is not touched (an interruption is not held back until every file is done).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempTree } from './helpers';

const FIXABLE =
  'error_codes:\n  VALIDATION_BAD_INPUT:\n    category: VALIDATON\n    message_template: Bad {field}\n    details:\n      field: string\n';
const FIXED = FIXABLE.replace('VALIDATON', 'VALIDATION').replace('Bad {field}', "Bad '{field}'");

function interrupted(dir: string, signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; temp?: string }> {
  return new Promise(done => {
    const p = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/cli/slowFix.ts'), dir], { cwd: ROOT });
    let out = '';
    let temp: string | undefined;
    p.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const m = /^temp (.*)$/m.exec(out);
      if (m && temp === undefined) {
        temp = m[1]!;
        assert.ok(existsSync(temp), 'the temporary file exists when the signal is sent');
        p.kill(signal);
      }
    });
    const bound = setTimeout(() => p.kill('SIGKILL'), 60_000);
    p.on('close', (code, sig) => {
      clearTimeout(bound);
      done({ code, signal: sig, temp });
    });
  });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  test(`--fix interrupted by ${signal} while a temporary file exists: none is left, the file is whole, the next not touched`, async () => {
    const dir = tempTree({ 'a.adapter.yaml': FIXABLE, 'b.adapter.yaml': FIXABLE });
    const r = await interrupted(dir, signal);
    assert.ok(r.temp, 'a temporary file was written');
    assert.equal(r.signal, signal, `ended by ${signal} (code ${r.code})`);
    assert.deepEqual(
      readdirSync(dir).filter(n => n.endsWith('.mcp-aql-tmp')),
      [],
    );
    assert.ok([FIXABLE, FIXED].includes(readFileSync(join(dir, 'a.adapter.yaml'), 'utf8')));
    assert.equal(readFileSync(join(dir, 'b.adapter.yaml'), 'utf8'), FIXABLE);
  });
