/**
 * docs/performance.md is the page a user reads in a minute: today's figures, how to rerun each, the known
 * limits. The tables of the last runs are generated into bench/REPORT.md and the history is in
 * bench/NOTES.md; every file and npm script the page names exists, so its "Rerun" commands run.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers';

const page = readFileSync(join(ROOT, 'docs/performance.md'), 'utf8');
const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

test('docs/performance.md: short, in three parts, the first keystroke after open and its one wait stated', () => {
  assert.ok(page.split('\n').length < 100, 'a page read in a minute');
  assert.deepEqual(
    page.split('\n').filter(l => l.startsWith('## ')),
    ["## Today's figures", '## Rerun', '## Known limits'],
  );
  const limits = page.slice(page.indexOf('## Known limits'));
  assert.match(limits, /first keystroke after open/);
  assert.match(limits, /measured over stdio/);
  for (const area of [
    '**Editor, one file**',
    '**Command line, a workspace**',
    '**`check --cache`**',
    '**`watch`, the proxy**',
    '**`probe`**',
  ])
    assert.ok(page.includes(area), area);
});

test('docs/performance.md: every bench file and npm script it names exists; the report and the notes are there', () => {
  for (const [, file] of page.matchAll(/\b(bench\/[\w./-]+\.(?:ts|json|md|mjs|js))\b/g)) assert.ok(existsSync(join(ROOT, file!)), file);
  for (const [, file] of page.matchAll(/\b(examples\/[\w./-]+\.(?:yaml|mjs))\b/g)) assert.ok(existsSync(join(ROOT, file!)), file);
  for (const [, name] of page.matchAll(/`npm run ([\w:-]+)/g)) assert.ok(scripts[name!], `npm run ${name}`);
  const notes = readFileSync(join(ROOT, 'bench/NOTES.md'), 'utf8');
  for (const h of ['## The editor (one file)', '## Workspace', '## `watch`', '## `probe`']) assert.ok(notes.includes(`\n${h}\n`), h);
  assert.match(readFileSync(join(ROOT, 'bench/REPORT.md'), 'utf8'), /^# Benchmark report\n/);
});
