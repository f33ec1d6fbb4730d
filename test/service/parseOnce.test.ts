/**
 * The CLI reads each text once (`ServiceDeps.once`), so it parses a YAML region whole, and in
 * chunks only when that parse finds an error. The editor's server parses in chunks (reused per
 * keystroke). Both must give the same diagnostics, quick fixes and Fix all edits on every text: the
 * bundled fixtures and examples, and mutations of them (broken YAML included).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createAdapterService, type AdapterService } from '../../server/src/service';
import { buildModel } from '../../server/src/service/parse/buildModel';
import { loadDeps, ROOT } from './helpers';
import { mutated, yamlEdits } from './yamlMutations';

const ADAPTER = /(-adapter\.md|\.adapter\.ya?ml|\.adapter\.json)$/;

function adapters(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory() && e.name !== 'jsontestsuite') adapters(p, out);
    else if (e.isFile() && ADAPTER.test(e.name)) out.push(p);
  }
  return out;
}

const files = [...adapters(join(ROOT, 'test', 'fixtures')), ...adapters(join(ROOT, 'examples'))].map(
  p => [`file:///w/${relative(ROOT, p).split('\\').join('/')}`, readFileSync(p, 'utf8')] as const,
);

/** What a user sees of one text: diagnostics, every quick fix at each of them, and Fix all's edits. */
function seen(service: AdapterService, uri: string, text: string): unknown {
  const doc = TextDocument.create(uri, 'yaml', 1, text);
  const diagnostics = service.validate(doc);
  const fixes = diagnostics.map(d => service.quickFixes(doc, d.range, { diagnostics: [d] }));
  const all = service.fixAll(doc);
  service.forget(uri);
  return { diagnostics, fixes, all };
}

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
