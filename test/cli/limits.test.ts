/**
 * At the CLI: prototype names in --rule, inputs that hung or crashed the built CLI
 * (run in a child process with a timeout), and the limits a checkout cannot lift.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseCheckArgs } from '../../server/src/cli/args';
import { MAX_NESTING } from '../../server/src/service';
import { deepAdapter, DEEP_SHAPES, fanOut, type DeepShape } from '../service/hostileTexts';
import { cliBundle } from './bundle';
import { run, tempTree } from './helpers';

test('--rule: a prototype name is an unknown diagnostic code (exit 2)', async t => {
  const dir = tempTree({ 'a.adapter.yaml': 'error_mapping:\n  404:\n    code: NOT_FOUND_REPOSITRY\n' });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const name of ['constructor', 'toString', '__proto__']) {
    const r = await run(['check', '.', '--rule', `${name}=off`], dir);
    assert.deepEqual(
      [r.code, r.out, r.err.split('\n')[0]],
      [2, '', `mcp-aql-errors: --rule: unknown diagnostic code '${name}' (mcp-aql-errors check --help)`],
      name,
    );
  }
});

const codesAndLines = (json: string) =>
  (JSON.parse(json) as { diagnostics: { code: string; line: number }[] }[]).flatMap(f => f.diagnostics.map(d => [d.code, d.line]));

test('merge keys that fan out (40 anchors, each merging the three before) finish with the right output', async t => {
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

test('deep nesting — valid text at the limit is checked without a false error, deeper files get one file.too-deep, nothing aborts', async t => {
  const files: Record<string, string> = {};
  for (const shape of DEEP_SHAPES) {
    const at = deepAdapter(shape, MAX_NESTING);
    files[`ok-${shape}.adapter.${at.ext}`] = at.text;
  }
  files['deep1.adapter.json'] = deepAdapter('json-array', 1001).text;
  files['deep2.adapter.json'] = deepAdapter('json-object', 1001).text;
  files['deep3.adapter.yaml'] = deepAdapter('yaml-block-map', 1001).text;
  const dir = tempTree(files);
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const lineCol = (text: string, offset: number) => {
    const before = text.slice(0, offset);
    return [(before.match(/\n/g) ?? []).length + 1, offset - before.lastIndexOf('\n')];
  };
  const past = (shape: DeepShape) => {
    const d = deepAdapter(shape, MAX_NESTING + 1);
    return lineCol(d.text, d.firstPast);
  };
  // The one warning of a valid file at the limit: its `x-deep` key is no key of ours.
  const unknownKey = (shape: DeepShape) => {
    const text = deepAdapter(shape, MAX_NESTING).text;
    return lineCol(text, text.search(/"?x-deep/));
  };
  // On the main thread (--jobs 1) and in worker threads; each file on its own (the files share their code
  // names, which code.declared-elsewhere would report across files).
  for (const jobs of ['1', '2']) {
    const r = cliBundle(['check', '--format', 'json', '--code-scope', 'file', '--jobs', jobs, '.'], dir);
    assert.equal(r.timedOut, false);
    assert.deepEqual([r.code, r.signal], [1, null], r.err);
    const byFile = (JSON.parse(r.out) as { file: string; diagnostics: { code: string; line: number; column: number }[] }[]).map(f => [
      f.file,
      f.diagnostics.map(d => [d.code, d.line, d.column]),
    ]);
    assert.deepEqual(byFile, [
      ['deep1.adapter.json', [['file.too-deep', ...past('json-array')]]],
      ['deep2.adapter.json', [['file.too-deep', ...past('json-object')]]],
      ['deep3.adapter.yaml', [['file.too-deep', ...past('yaml-block-map')]]],
      ...DEEP_SHAPES.map(s => [`ok-${s}.adapter.${deepAdapter(s, 3).ext}`, [['schema.unknown-key', ...unknownKey(s)]]]).sort((a, b) =>
        String(a[0]).localeCompare(String(b[0])),
      ),
    ]);
  }
});

test('--jobs is capped at the cores', () => {
  const cores = availableParallelism();
  assert.equal(parseCheckArgs(['--jobs', '100000']).jobs, cores);
  assert.equal(parseCheckArgs([`--jobs=${cores + 1}`]).jobs, cores);
  assert.equal(parseCheckArgs(['--jobs', '1']).jobs, 1);
  assert.throws(() => parseCheckArgs(['--jobs', '0']), /--jobs takes a whole number ≥ 1/);
});

test('a config file over 1 MiB is not read (exit 2); 1e300 as maxFileSize is an invalid config', async t => {
  const big = tempTree({ '.mcp-aql.yaml': '# padding\n'.repeat(110_000), 'a.adapter.yaml': 'error_codes: {}\n' });
  const huge = tempTree({ '.mcp-aql.yaml': 'maxFileSize: 1e300\n', 'a.adapter.yaml': 'error_codes: {}\n' });
  t.after(() => {
    rmSync(big, { recursive: true, force: true });
    rmSync(huge, { recursive: true, force: true });
  });
  const r = await run(['check', '.'], big);
  assert.deepEqual(
    [r.code, r.out, r.err.split('\n')[0]],
    [2, '', "mcp-aql-errors: cannot read config file '.mcp-aql.yaml': 1100000 bytes, more than 1048576 (mcp-aql-errors check --help)"],
  );
  const h = await run(['check', '.'], huge);
  assert.equal(h.code, 2);
  assert.match(
    h.err,
    /\.mcp-aql\.yaml:1:14 {2}'maxFileSize' must be a whole number of characters, at least 1024 and at most 16777216 \(16 MiB\)\. {2}config\.invalid/,
  );
});
