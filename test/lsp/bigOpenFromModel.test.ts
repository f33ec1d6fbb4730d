/**
 * An opened document of INDEX_FROM_MODEL_AT characters or more is filed in the workspace index from the model its
 * first check builds, never by the fast index scan of its text (lsp/indexing.ts): the scan's tree of a 14 MiB text
 * was the open's largest garbage (bench/NOTES.md, "tenth sitting"). The library sends a change event after each
 * open; that event, and edits made before the first check, do not index it by the scan meanwhile. Seen from another
 * file: a definition of one of its codes is found only once the big document is checked, then at once.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { yamlDoc } from '../service/helpers';
import { bigAdapter } from './bigAdapter';
import { inMemory, RICH } from './harness';

const BIG = 'file:///ws/big.adapter.yaml';
const SMALL = 'file:///ws/small.adapter.yaml';

const SMALL_TEXT = yamlDoc('error_mapping:', '  404:', '    code: BIG_CODE_7');

test("a big opened document is filed from its first check's model, not by the fast scan before it", { timeout: 120_000 }, async () => {
  // A pulling client: the big document is checked only when its diagnostics are asked for.
  const c = await inMemory(RICH, { maxFileSize: 16 * 1024 * 1024 });
  const definition = async (): Promise<unknown[]> => {
    const at = { line: 2, character: SMALL_TEXT.split('\n')[2]!.indexOf('BIG_CODE_7') + 2 };
    const r = await c.conn.sendRequest('textDocument/definition', { textDocument: { uri: SMALL }, position: at });
    return r === null ? [] : Array.isArray(r) ? r : [r];
  };
  try {
    await c.open(SMALL, SMALL_TEXT);
    await c.open(BIG, bigAdapter());
    // The open's change event and an edit (before any check) would each have had it scanned at once.
    await c.conn.sendNotification('textDocument/didChange', {
      textDocument: { uri: BIG, version: 2 },
      contentChanges: [{ range: { start: { line: 3, character: 30 }, end: { line: 3, character: 30 } }, text: 'x' }],
    });
    await new Promise(r => setTimeout(r, 1500));
    assert.deepEqual(await definition(), [], 'not filed before its first check');
    await c.conn.sendRequest('textDocument/diagnostic', { textDocument: { uri: BIG } });
    let found: unknown[] = [];
    for (let i = 0; i < 100 && !found.length; i++) {
      await new Promise(r => setTimeout(r, 50));
      found = await definition();
    }
    assert.equal(found.length, 1, 'filed from its model once checked');
    assert.equal((found[0] as { uri?: string; targetUri?: string }).uri ?? (found[0] as { targetUri?: string }).targetUri, BIG);
  } finally {
    await c.close();
  }
});
