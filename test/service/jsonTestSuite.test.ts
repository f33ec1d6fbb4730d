/**
 * JSONTestSuite (test/fixtures/jsontestsuite, MIT, see its NOTICE) through the service's one
 * JSON reader: every y_ file accepted, every n_ file rejected with a position, i_ files either way,
 * never a crash or a hang (the files are read in a child process with a timeout).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

interface Row {
  name: string;
  length: number;
  object: boolean;
  ok: boolean;
  offset?: number;
  verify: [number, number][];
  syntax: [number, number][];
  scan: string;
}

const run = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, 'jsonTestSuiteRun.ts')], {
  encoding: 'utf8',
  timeout: 120_000,
  maxBuffer: 64 * 1024 * 1024,
});
const rows: Row[] =
  run.status === 0
    ? run.stdout
        .trim()
        .split('\n')
        .map(l => JSON.parse(l) as Row)
    : [];
const of = (kind: string) => rows.filter(r => r.name.startsWith(kind + '_'));
const inText = (r: Row, [s, e]: [number, number]) => s >= 0 && s <= e && e <= r.length;

test('the suite is read to its end, in a child process, without a crash or a hang', () => {
  assert.equal(run.signal, null, 'timed out or killed');
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual([of('y').length, of('n').length, of('i').length], [95, 188, 35]);
  // The index scan reads a tree or leaves the file to the model; it never throws anything else.
  assert.deepEqual(
    rows.filter(r => r.scan !== 'map' && r.scan !== 'seq' && r.scan !== 'unsupported').map(r => r.name),
    [],
  );
});

test('y_ files: accepted by the reader and by verify; an object root gets no json.syntax', () => {
  assert.deepEqual(
    of('y')
      .filter(r => !r.ok || r.verify.length > 0)
      .map(r => r.name),
    [],
  );
  assert.deepEqual(
    of('y')
      .filter(r => r.object && r.syntax.length > 0)
      .map(r => r.name),
    [],
  );
  assert.ok(of('y').filter(r => r.object).length >= 10);
});

test('n_ files: rejected with a position by the reader, verify and json.syntax; the index scan leaves them to the model', () => {
  assert.deepEqual(
    of('n')
      .filter(r => r.ok || !inText(r, [r.offset!, r.offset!]))
      .map(r => r.name),
    [],
  );
  // verify reads a file of whitespace (a byte order mark too) as no records at all.
  assert.deepEqual(
    of('n')
      .filter(r => r.verify.length !== 1 || !inText(r, r.verify[0]!))
      .map(r => r.name),
    ['n_single_space.json', 'n_structure_UTF8_BOM_no_data.json', 'n_structure_no_data.json'],
  );
  assert.deepEqual(
    of('n')
      .filter(r => r.syntax.length === 0 || !r.syntax.every(s => inText(r, s)))
      .map(r => r.name),
    [],
  );
  assert.deepEqual(
    of('n')
      .filter(r => r.scan !== 'unsupported')
      .map(r => r.name),
    [],
  );
});

test('i_ files: either way; the ones rejected are UTF-16 text, a byte order mark and 500 levels of nesting', () => {
  assert.deepEqual(
    of('i')
      .filter(r => !r.ok)
      .map(r => r.name),
    [
      'i_string_UTF-16LE_with_BOM.json',
      'i_string_utf16BE_no_BOM.json',
      'i_string_utf16LE_no_BOM.json',
      'i_structure_500_nested_arrays.json',
      'i_structure_UTF-8_BOM_empty_object.json',
    ],
  );
  assert.deepEqual(
    of('i')
      .filter(r => !r.ok && !inText(r, [r.offset!, r.offset!]))
      .map(r => r.name),
    [],
  );
});
