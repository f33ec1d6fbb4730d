/**
 * A big region read once (the CLI; parse/chunkedParse.ts, readOnce) extracts each chunk as soon as it is parsed
 * and keeps no chunk: its model (every span, every node range) and what a user sees of it (diagnostics, quick
 * fixes, Fix all) equal the editor's chunked parse. Texts: every YAML fixture and example pushed past
 * ONCE_WHOLE_MAX by trailing comment lines (which join its last chunk, so each of its entries is a chunk of its
 * own), mutations of them (anchors, aliases, merges, tabs, broken syntax), and generated entries with an
 * anchor in the middle (extraction then waits for the whole Document).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isNode, type Node } from 'yaml';
import { createAdapterService } from '../../server/src/service';
import { buildModel, ONCE_WHOLE_MAX } from '../../server/src/service/parse/buildModel';
import type { AdapterModel } from '../../server/src/service/model/model';
import { loadDeps } from './helpers';
import { bundledAdapters, seen } from './userView';
import { mutated, yamlEdits } from './yamlMutations';

const YAML_ADAPTER = /\.adapter\.ya?ml$/;

const PAD = '# padding past ONCE_WHOLE_MAX, read with the last chunk\n'.repeat(Math.ceil(ONCE_WHOLE_MAX / 50));
const padded = (t: string) => (t.endsWith('\n') ? t : t + '\n') + PAD;

const files = bundledAdapters(YAML_ADAPTER);

/** Every node's class and range, in document order, and every extracted entry (spans included). */
function shape(m: AdapterModel): unknown {
  const nodes: unknown[] = [];
  const walk = (n: unknown): void => {
    if (!n || typeof n !== 'object') return;
    const x = n as Node & { items?: unknown[]; key?: unknown; value?: unknown };
    if ('range' in x) nodes.push([x.constructor.name, x.range]);
    if (Array.isArray(x.items)) for (const i of x.items) walk(i);
    if ('key' in x) {
      walk(x.key);
      walk(x.value);
    }
  };
  for (const s of m.sections) walk(s.doc.contents);
  // Nodes are compared above; an entry's own fields here (a node stands as its range).
  const strip = (v: unknown): unknown =>
    isNode(v)
      ? ['node', v.range]
      : Array.isArray(v)
        ? v.map(strip)
        : v && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, strip(x)]))
          : v;
  return {
    nodes,
    codes: m.codes.map(strip),
    mappings: m.mappings.map(strip),
    params: m.params,
    syntaxErrors: m.syntaxErrors,
    range: m.sections.map(s => s.doc.contents && (s.doc.contents as Node).range),
  };
}

const once = createAdapterService({ ...loadDeps(), once: true });
const editor = createAdapterService({ ...loadDeps() });

test('fixtures and examples past ONCE_WHOLE_MAX: the model read once equals the chunked parse, node by node', () => {
  assert.ok(files.length >= 15, `found ${files.length}`);
  for (const [uri, text] of files) {
    const t = padded(text);
    const a = buildModel(uri, t, [], { once: true });
    const b = buildModel(uri, t, []);
    assert.equal(a?.parseState, undefined, uri);
    assert.deepEqual(a && shape(a), b && shape(b), uri);
  }
});

test('fixtures and examples past ONCE_WHOLE_MAX: diagnostics, quick fixes and Fix all read once equal the editor', () => {
  for (const [uri, text] of files) assert.deepEqual(seen(once, uri, padded(text)), seen(editor, uri, padded(text)), uri);
});

test('mutated big texts: read once gives what the editor gives', () => {
  fc.assert(
    fc.property(fc.nat({ max: files.length - 1 }), yamlEdits(), (which, edits) => {
      const [uri, original] = files[which]!;
      const text = mutated(original, edits);
      const t = padded(text);
      const a = buildModel(uri, t, [], { once: true });
      const b = buildModel(uri, t, []);
      assert.deepEqual(a && shape(a), b && shape(b));
      assert.deepEqual(seen(once, uri, t), seen(editor, uri, t));
    }),
    { numRuns: 120, seed: 7 },
  );
});

test('generated entries with an anchor and aliases in the middle: extraction waits for the whole Document', () => {
  const lines = ['name: big', 'type: adapter', 'error_codes:'];
  for (let i = 0; i < 600; i++) {
    const name = `VALIDATION_E${String(i).padStart(6, '0')}`;
    if (i === 200) lines.push(`  ${name}: &base`, '    category: VALIDATION', '    message_template: "Shared {x}"');
    else if (i > 200 && i % 50 === 0) lines.push(`  ${name}: *base`);
    else
      lines.push(
        `  ${name}:`,
        '    category: VALIDATION',
        `    message_template: "Entry ${i} {resource_id}"`,
        '    details: { resource_id: string }',
      );
  }
  lines.push('error_mapping:', '  404:', '    code: VALIDATION_E000250', '  409: { code: NOPE_CODE }');
  const t = lines.join('\n') + '\n';
  assert.ok(t.length > ONCE_WHOLE_MAX, `${t.length}`);
  const uri = 'file:///w/anchored.adapter.yaml';
  const a = buildModel(uri, t, [], { once: true })!;
  const b = buildModel(uri, t, [])!;
  assert.equal(a.codes.filter(c => c.shared).length, 8);
  assert.deepEqual(shape(a), shape(b));
  const s = seen(once, uri, t) as { diagnostics: { code: string }[] };
  assert.ok(s.diagnostics.some(d => d.code === 'mapping.unknown-code'));
  assert.deepEqual(s, seen(editor, uri, t));
});
