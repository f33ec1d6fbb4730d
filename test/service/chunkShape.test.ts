/**
 * Every chunk of the chunked parse has the same fields in the same order, however it was made (the fast path, a
 * compose, an empty one) and filled in (extracted, moved): chunks then share one hidden class, and the move of every
 * chunk after an edit (parse/patchEntry.ts movePieces) is not deoptimised by a new shape (bench/NOTES.md,
 * "fifth sitting").
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { buildModel } from '../../server/src/service/parse/buildModel';
import type { Chunk } from '../../server/src/service/parse/chunk';
import type { ChunkState } from '../../server/src/service/parse/chunkState';
import { yamlDoc } from './helpers';

const URI = 'file:///w/shape.adapter.yaml';

function chunksOf(text: string, previous?: ReturnType<typeof buildModel>, at?: number): Chunk[] {
  const m = buildModel(URI, text, [], {
    chunkThreshold: 0,
    previous,
    change: at === undefined ? undefined : { start: at, oldEnd: at, newEnd: at + 1 },
  })!;
  const out: Chunk[] = [];
  for (const p of (m.parseState as ChunkState).pieces) for (const q of [p, p.header, ...(p.sub ?? [])]) if (q?.chunk) out.push(q.chunk);
  return out;
}

test('chunks made by the fast path, by compose and empty ones have one set of fields, in one order, before and after an edit', () => {
  const text = yamlDoc(
    'name: shapes',
    'error_codes:',
    '  VALIDATION_PLAIN:',
    '    category: VALIDATION',
    '    message_template: "plain {field}"',
    '    details: { field: string }',
    '  VALIDATION_FOLDED:',
    '    category: VALIDATION',
    '    message_template: >',
    '      folded',
    '  VALIDATION_EMPTY:',
    '  VALIDATION_BROKEN:',
    '    category: [VALIDATION',
    'error_mapping:',
    '  400:',
    '    code: VALIDATION_PLAIN',
  );
  const first = chunksOf(text);
  assert.ok(first.length >= 7, `${first.length} chunks`);
  const keys = Object.keys(first[0]!);
  for (const c of first) assert.deepEqual(Object.keys(c), keys);
  const at = text.indexOf('plain') + 1;
  const model = buildModel(URI, text, [], { chunkThreshold: 0 });
  for (const c of chunksOf(text.slice(0, at) + 'x' + text.slice(at), model, at)) assert.deepEqual(Object.keys(c), keys);
});

test('every layout piece is made with its chunk field, before the parse gives it one (the split, and after edits)', () => {
  const text = yamlDoc(
    'name: pieces',
    'error_codes:',
    '  VALIDATION_A:',
    '    category: VALIDATION',
    '  VALIDATION_B:',
    '    category: VALIDATION',
    'error_mapping:',
    '  400:',
    '    code: VALIDATION_A',
  );
  const fieldsOf = (m: ReturnType<typeof buildModel>) =>
    (m!.parseState as ChunkState).pieces.flatMap(p => [p, p.header, ...(p.sub ?? [])].filter(q => q).map(q => Object.keys(q!).slice(0, 3)));
  let model = buildModel(URI, text, [], { chunkThreshold: 0 });
  for (const f of fieldsOf(model)) assert.deepEqual(f, ['start', 'end', 'chunk']);
  // A keystroke in an entry, then a line added between entries (the general path).
  const at = text.indexOf('VALIDATION_A:') + 1;
  const typed = text.slice(0, at) + 'x' + text.slice(at);
  model = buildModel(URI, typed, [], { chunkThreshold: 0, previous: model, change: { start: at, oldEnd: at, newEnd: at + 1 } });
  for (const f of fieldsOf(model)) assert.deepEqual(f, ['start', 'end', 'chunk']);
  const line = typed.indexOf('  VALIDATION_B:');
  const added = typed.slice(0, line) + '  VALIDATION_C:\n' + typed.slice(line);
  model = buildModel(URI, added, [], { chunkThreshold: 0, previous: model });
  for (const f of fieldsOf(model)) assert.deepEqual(f, ['start', 'end', 'chunk']);
});
