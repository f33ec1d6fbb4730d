/**
 * An opened document of INDEX_FROM_MODEL_AT characters or more is indexed from the model its first check builds,
 * not by the fast index scan before it (lsp/indexing.ts): until then the index counts as incomplete, so another
 * file's mapping to one of its codes is never answered as `mapping.unknown-code`, and once it is filed what was
 * held back meanwhile is given again — a code declared nowhere still is reported.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { INDEX_FROM_MODEL_AT } from '../../server/src/lsp/indexing';
import { yamlDoc } from '../service/helpers';
import { bigAdapter } from './bigAdapter';
import { inMemory, RICH } from './harness';

const BIG = 'file:///ws/big.adapter.yaml';
const SMALL = 'file:///ws/small.adapter.yaml';

const SMALL_TEXT = yamlDoc('error_mapping:', '  404:', '    code: BIG_CODE_0', '  410:', '    code: DECLARED_NOWHERE');

type Item = { code?: unknown; message: string };
const unknown = (ds: Item[]) => ds.filter(d => d.code === 'mapping.unknown-code').map(d => d.message);

test(
  'a big opened document: its codes are filed from its model, and no other file is told they are unknown meanwhile',
  { timeout: 120_000 },
  async () => {
    // A pulling client: the big file is checked only when asked, so the small file is asked about in between.
    const c = await inMemory(RICH, { maxFileSize: 16 * 1024 * 1024 });
    const pull = async (uri: string): Promise<Item[]> =>
      ((await c.conn.sendRequest('textDocument/diagnostic', { textDocument: { uri } })) as { items: Item[] }).items;
    try {
      await c.open(SMALL, SMALL_TEXT);
      // Alone, the small file's unknown codes are both reported (no folder: nothing left to scan).
      assert.equal(unknown(await pull(SMALL)).length, 2);
      const text = bigAdapter(true);
      assert.ok(text.length >= INDEX_FROM_MODEL_AT);
      await c.open(BIG, text);
      // The big file not checked yet, so not filed: what depends on its codes is held back.
      const meanwhile = await pull(SMALL);
      assert.deepEqual(unknown(meanwhile), [], JSON.stringify(meanwhile));
      await pull(BIG);
      // Filed from its model once checked: the mapping to its code resolves, the other is reported again.
      let after: Item[] = [];
      for (let i = 0; i < 100 && !unknown(after).length; i++) {
        await new Promise(r => setTimeout(r, 50));
        after = await pull(SMALL);
      }
      assert.equal(unknown(after).length, 1, JSON.stringify(after));
      assert.match(unknown(after)[0]!, /DECLARED_NOWHERE/);
    } finally {
      await c.close();
    }
  },
);
