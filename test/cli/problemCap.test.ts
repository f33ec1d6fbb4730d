/**
 * At the CLI: the per-file cap (1,000 listed problems) never hides an error nor
 * changes the exit code. Errors are listed first, what was cut is counted and printed, --quiet
 * applies before the cap, and --fix runs until no safe fix remains.
 */
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextEdit } from 'vscode-languageserver-types';
import type { AdapterService } from '../../server/src/service';
import { applyFixes } from '../../server/src/cli/fix/command';
import { infosThenError } from '../service/helpers';
import { run, tempTree } from './helpers';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tree = (files: Record<string, string>) => {
  const d = tempTree(files);
  dirs.push(d);
  return d;
};

test('1,001 information problems above an error: exit 1, the error listed, the cut counted', async () => {
  const dir = tree({ 'cap.adapter.yaml': infosThenError(1001) });
  const text = await run(['check', '.'], dir);
  assert.equal(text.code, 1);
  assert.ok(text.out.includes('cap.adapter.yaml:5009:11  error  '), text.out.slice(-2000));
  assert.ok(
    text.out.endsWith(
      'cap.adapter.yaml: 2 more problems not shown (0 errors, 0 warnings, 2 info, 0 hints): at most 1000 are listed per file, errors first.\n' +
        '1002 problems (1 error, 0 warnings, 1001 info, 0 hints) in 1 adapter file.\n',
    ),
    text.out.slice(-600),
  );
  assert.equal(text.err, '');
  const json = await run(['check', '.', '--format', 'json'], dir);
  assert.equal(json.code, 1);
  const [file] = JSON.parse(json.out);
  assert.equal(file.diagnostics.length, 1000);
  assert.equal(file.diagnostics.filter((d: { severity: string }) => d.severity === 'error').length, 1);
  assert.deepEqual(file.omitted, { errors: 0, warnings: 0, infos: 2, hints: 0 });
  assert.equal(
    json.err,
    'cap.adapter.yaml: 2 more problems not shown (0 errors, 0 warnings, 2 info, 0 hints): at most 1000 are listed per file, errors first.\n',
  );
  const quiet = await run(['check', '.', '--quiet', '--format', 'json'], dir);
  assert.equal(quiet.code, 1);
  assert.deepEqual(
    JSON.parse(quiet.out)[0].diagnostics.map((d: { code: string }) => d.code),
    ['mapping.unknown-code'],
  );
  assert.equal(quiet.err, '', 'nothing was cut once --quiet dropped the rest');
});

test('warnings past the cap still count for --max-warnings', async () => {
  const dir = tree({ 'cap.adapter.yaml': infosThenError(1001) });
  const args = ['check', '.', '--rule', 'template.unquoted-placeholder=warning', '--rule', 'mapping.unknown-code=off', '--format', 'json'];
  const r = await run([...args, '--max-warnings', '1000'], dir);
  assert.equal(r.code, 1);
  assert.match(r.err, /^1001 warnings, more than --max-warnings 1000$/m);
  assert.equal((await run([...args, '--max-warnings', '1001'], dir)).code, 0);
});

test('--fix applies safe fixes until none remains (counted steps), and stops on a cycle', () => {
  const doc = TextDocument.create('file:///a.adapter.yaml', 'yaml', 1, 'x');
  let calls = 0;
  const oneAtATime = {
    fixAll: (d: TextDocument): TextEdit[] => {
      calls++;
      const t = d.getText();
      return t.length < 25 ? [{ range: { start: d.positionAt(t.length), end: d.positionAt(t.length) }, newText: 'x' }] : [];
    },
  } as unknown as AdapterService;
  assert.equal(applyFixes(oneAtATime, doc, {}).getText(), 'x'.repeat(25));
  assert.equal(calls, 25);
  const flipFlop = {
    fixAll: (d: TextDocument): TextEdit[] => [
      { range: { start: d.positionAt(0), end: d.positionAt(1) }, newText: d.getText() === 'a' ? 'b' : 'a' },
    ],
  } as unknown as AdapterService;
  const end = applyFixes(flipFlop, TextDocument.create('file:///b.adapter.yaml', 'yaml', 1, 'a'), {}).getText();
  assert.ok(end === 'a' || end === 'b');
});

test('--fix on more than 1,000 fixable problems fixes them all', async () => {
  const dir = tree({ 'cap.adapter.yaml': infosThenError(1200) });
  const r = await run(['check', '--fix', '--format', 'json'], dir);
  const [file] = JSON.parse(r.out);
  assert.deepEqual(
    file.diagnostics.map((d: { code: string }) => d.code),
    ['mapping.unknown-code'],
  );
});
