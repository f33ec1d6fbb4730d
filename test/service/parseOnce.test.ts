/**
 * The CLI reads each text once (`ServiceDeps.once`), so it parses a YAML region whole, and in
 * chunks only when that parse finds an error. The editor's server parses in chunks (reused per
 * keystroke). Both must give the same diagnostics, quick fixes and Fix all edits on every text: the
 * bundled fixtures and examples, and mutations of them (broken YAML included).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createAdapterService } from '../../server/src/service';
import { buildModel } from '../../server/src/service/parse/buildModel';
import { loadDeps } from './helpers';
import { bundledAdapters, seen } from './userView';
import { mutated, yamlEdits } from './yamlMutations';

const ADAPTER = /(-adapter\.md|\.adapter\.ya?ml|\.adapter\.json)$/;

const files = bundledAdapters(ADAPTER);

const once = createAdapterService({ ...loadDeps(), once: true });
const chunked = createAdapterService({ ...loadDeps() });

test('the bundled fixtures and examples: parsing once gives what the chunked parse gives', () => {
  assert.ok(files.length >= 20, `found ${files.length} adapter files`);
  for (const [uri, text] of files) assert.deepEqual(seen(once, uri, text), seen(chunked, uri, text), uri);
});

test('an error-free text is parsed whole, a broken one in chunks (its error stays in its entry)', () => {
  const clean = 'error_codes:\n  A_B:\n    category: VALIDATION\n    message_template: "x"\n';
  assert.equal(buildModel('file:///w/a.adapter.yaml', clean, [], { once: true })!.parseState, undefined);
  assert.ok(buildModel('file:///w/a.adapter.yaml', clean, [])!.parseState);
  const broken = clean + '  C_D:\n    category: [VALIDATION\n';
  assert.ok(buildModel('file:///w/a.adapter.yaml', broken, [], { once: true })!.parseState);
});

test('mutated fixtures: parsing once gives what the chunked parse gives', () => {
  const yamlFiles = files.filter(([u]) => !u.endsWith('.json'));
  fc.assert(
    fc.property(fc.nat({ max: yamlFiles.length - 1 }), yamlEdits(), (which, edits) => {
      const [uri, original] = yamlFiles[which]!;
      const text = mutated(original, edits);
      assert.deepEqual(seen(once, uri, text), seen(chunked, uri, text));
    }),
    { numRuns: 300, seed: 23 },
  );
});
