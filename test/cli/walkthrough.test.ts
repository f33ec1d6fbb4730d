/**
 * The walkthrough's example shows the two mistakes its "See a problem and fix it"
 * step promises — no more squiggles (the unused `repo` it causes is a faded hint, not a squiggle).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, run } from './helpers';

const EXAMPLE = 'client/media/walkthrough/example.adapter.yaml';

test('the walkthrough example has exactly the two problems the walkthrough lists', async () => {
  const r = await run(['check', EXAMPLE, '--format', 'json']);
  const [file] = JSON.parse(r.out) as { diagnostics: { code: string; severity: string; range: { start: { line: number } } }[] }[];
  const squiggles = file!.diagnostics.filter(d => d.severity !== 'hint');
  assert.deepEqual(
    squiggles.map(d => [d.code, d.severity]),
    [
      ['template.unknown-placeholder', 'error'],
      ['mapping.unknown-code', 'error'],
    ],
  );
  assert.deepEqual(
    file!.diagnostics.filter(d => d.severity === 'hint').map(d => d.code),
    ['template.unused-detail'],
    'the declared `repo` the typo leaves unused',
  );
  // The step's table names the same two codes, and the preview step's example code exists.
  const step = readFileSync(join(ROOT, 'client/media/walkthrough/fix-problem.md'), 'utf8');
  assert.deepEqual(
    [...step.matchAll(/\| `([a-z]+\.[a-z-]+)` \|/g)].map(m => m[1]),
    ['template.unknown-placeholder', 'mapping.unknown-code'],
  );
  const code = /for example `([A-Z_]+)`/.exec(readFileSync(join(ROOT, 'client/media/walkthrough/open-preview.md'), 'utf8'))![1]!;
  assert.match(readFileSync(join(ROOT, EXAMPLE), 'utf8'), new RegExp(`^  ${code}:$`, 'm'));
});
