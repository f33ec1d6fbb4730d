/**
 * `mcpAql/inferContract` over the real server wiring: a recorded transcript's text gives the adapter
 * `infer` writes (test/fixtures/transcripts); a request without text is an error answer, not a crash.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { InferContract } from '../../server/src/protocol';
import { inMemory, RICH, ROOT } from './harness';

const FIX = join(ROOT, 'test/fixtures/transcripts');

test('Infer Contract from Transcript: the adapter of the transcript, its codes; bad params are an error answer', async () => {
  const c = await inMemory(RICH);
  try {
    const r = await c.conn.sendRequest(InferContract.type, { text: readFileSync(join(FIX, 'notes.a.jsonl'), 'utf8'), name: 'notes' });
    assert.equal(r.text, readFileSync(join(FIX, 'notes.inferred.adapter.yaml'), 'utf8'));
    assert.equal(r.failures, 8);
    assert.deepEqual(r.codes, [
      'NOT_FOUND_NOTE',
      'NOT_FOUND_OPERATION',
      'NOT_FOUND_TOOL',
      'VALIDATION_INVALID_TYPE',
      'VALIDATION_MISSING_PARAM',
      'VALIDATION_NOT_ALLOWED',
    ]);
    await assert.rejects(c.conn.sendRequest(InferContract.type, {} as never), /needs the transcript text/);
  } finally {
    await c.close();
  }
});
