/**
 * The main thread's own index batches skip the JSON a worker's cross the thread in (cli/check/declarationsPack.ts
 * `unpackLocal`): what it makes of the files equals what `unpackIndexed` makes of `packIndexed(files)`.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { packIndexed, sharer, slim, unpackIndexed, unpackLocal } from '../../server/src/cli/check/declarationsPack';
import type { CodeDeclaration } from '../../server/src/service';
import type { IndexedFile } from '../../server/src/cli/indexedFile';

const range = { start: { line: 1, character: 2 }, end: { line: 1, character: 9 } };
const decl = (uri: string, code: string, more: Partial<CodeDeclaration> = {}): CodeDeclaration => ({
  uri,
  code,
  range,
  details: [],
  mapsFromHttp: [404],
  ...more,
});

test('unpackLocal equals unpackIndexed of packIndexed, sharing and all', () => {
  const a = 'file:///w/a.adapter.yaml',
    b = 'file:///w/b%20c.adapter.yaml';
  const files: IndexedFile[] = [
    {
      uri: a,
      adapter: true,
      decls: [
        decl(a, 'NOT_FOUND_A', { category: 'NOT_FOUND', details: [{ name: 'id', type: 'string', required: true, description: 'x' }] }),
        decl(a, 'CONFLICT_A', { details: [{ name: 'id' }, { name: 'v', type: 'number', required: false }] }),
        decl(a, 'LONE_\ud800', { category: 'VALIDATION', template: '{id}' }),
      ].map(slim),
      refs: ['NOT_FOUND_A', 'PERMISSION_DENIED', 'CONFLICT_B'],
    },
    { uri: 'file:///w/readme.md', adapter: false, decls: [], refs: [] },
    {
      uri: b,
      adapter: true,
      decls: [decl(b, 'CONFLICT_B', { category: 'CONFLICT', details: [{ name: 'id', type: 'string', required: true }] })].map(slim),
      refs: [],
    },
  ];
  const local = unpackLocal(files, sharer());
  const packed = unpackIndexed(packIndexed(files), sharer());
  assert.deepEqual(local, packed);
  // The same details list, once per run, on both paths.
  assert.equal(local[0]!.decls[0]!.details, local[2]!.decls[0]!.details);
  assert.equal(packed[0]!.decls[0]!.details, packed[2]!.decls[0]!.details);
  // A reference to the file's own code is that declaration's string.
  assert.equal(local[0]!.refs[0], local[0]!.decls[0]!.code);
});
