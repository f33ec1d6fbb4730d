/**
 * Closing a document lets its text go (parse/hollow.ts `forgetReads`): the entries read again from a big document's
 * chunks are kept in a module-wide cache of the last 64, and each chunk's text is a view into the document's whole
 * text, so a cache that outlived the document kept all of its text (some 15 MB for a 14 MiB adapter). Checked by
 * weak references to the cached chunks, which a full collection clears once the service has forgotten the document.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { docOf, generatedAdapter, newService } from './helpers';
import * as hollow from '../../server/src/service/parse/hollow';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Entries without a problem, hollowed as parsed. */
const clean = (n: number): string => generatedAdapter(n, { mapsFromHttp: true, blockDetails: true });

const uri = 'file:///w/forget.adapter.yaml';

/** Weak references to the chunks the cache holds after a completion inside an entry of a fresh service's document. */
function readBack(forget: boolean): WeakRef<object>[] {
  const was = hollow.hollowThreshold(0);
  try {
    const service = newService();
    const text = clean(50);
    const doc = docOf(text, uri, 1);
    service.validate(doc);
    hollow.forgetReads();
    service.complete(doc, doc.positionAt(text.indexOf('    maps_from_http', text.indexOf('VALIDATION_E3:')) + 4));
    const held = hollow.readsKept();
    assert.equal(held.length, 1, 'the completion read its entry again');
    if (forget) {
      service.forget(uri);
      assert.deepEqual(hollow.readsKept(), [], 'forgetting the document empties the cache');
    }
    return held.map(c => new WeakRef(c));
  } finally {
    hollow.hollowThreshold(was);
  }
}

/** After the current job (a WeakRef keeps its target until then) and a full collection: the refs still set. */
async function alive(refs: readonly WeakRef<object>[]): Promise<number> {
  await new Promise(resolve => setImmediate(resolve));
  gc();
  return refs.filter(r => r.deref() !== undefined).length;
}

test('a document forgotten by the service (closed): no hollow entry read again keeps its chunks, nor so its text', async () => {
  assert.equal(await alive(readBack(true)), 0);
});

test('without the forget, the cache alone keeps the chunk (so the check above is not vacuous)', async () => {
  const refs = readBack(false);
  assert.equal(await alive(refs), 1);
  hollow.forgetReads();
  assert.equal(await alive(refs), 0);
});
