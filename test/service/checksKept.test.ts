/**
 * What the kept checks (checks/incremental.ts) rely on and do: the parse keeps unchanged entries'
 * objects with current offsets; a moved problem moves every offset it holds (payloads included); the
 * invalid characters of a changed text are those of a full scan.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import Ajv from 'ajv';
import fc from 'fast-check';
import type { Pair, YAMLMap } from 'yaml';
import type { Payloads } from '../../server/src/service/codes';
import { checks } from '../../server/src/service/checks';
import { createCheckState, runChecksCached } from '../../server/src/service/checks/incremental';
import { runChecks } from '../../server/src/service/checks/runChecks';
import { indexRegistry } from '../../server/src/service/model/registry';
import { compileSchemas } from '../../server/src/service/model/schemas';
import { emptyWorkspace } from '../../server/src/service/model/workspace';
import { PAYLOAD_OFFSETS, shiftProblem } from '../../server/src/service/checks/relocate';
import { BAD } from '../../server/src/service/checks/text';
import { commonPrefix, commonSuffix, scanText, type TextScan } from '../../server/src/service/checks/textScan';
import { buildModel } from '../../server/src/service/parse/buildModel';
import { docOf, loadDeps, newService, yamlDoc } from './helpers';

const URI = 'file:///w/big.adapter.yaml';

function big(n: number): string {
  const lines = ['name: big', 'error_codes:'];
  for (let i = 0; i < n; i++)
    lines.push(
      `  VALIDATION_E${i}:`,
      '    category: VALIDATION',
      `    message_template: "Bad '{field}' (entry ${i})"`,
      '    details: { field: string }',
    );
  lines.push('error_mapping:', '  400:');
  for (let i = 0; i < 20; i++) lines.push(`    - condition: "response.body.code == 'm${i}'"`, `      code: VALIDATION_E${i}`);
  return lines.join('\n') + '\n';
}

const codesBlock = (m: NonNullable<ReturnType<typeof buildModel>>): Pair[] =>
  (
    (m.sections[0]!.doc.contents as YAMLMap).items.find(p => String((p.key as { value: unknown }).value) === 'error_codes')!
      .value as YAMLMap
  ).items as Pair[];

test('a keystroke inside one entry of 10,000: every other entry keeps its objects, with current offsets', () => {
  const text = big(10_000);
  const first = buildModel(URI, text, [], { chunkThreshold: 16 * 1024 })!;
  const before = { codes: [...first.codes], mappings: [...first.mappings], pairs: [...codesBlock(first)] };
  const at = text.indexOf('(entry 5000)') + 1;
  const edited = text.slice(0, at) + 'xy' + text.slice(at);
  const second = buildModel(URI, edited, [], {
    chunkThreshold: 16 * 1024,
    previous: first,
    change: { start: at, oldEnd: at, newEnd: at + 2 },
  })!;
  const pairs = codesBlock(second);
  assert.equal(second.codes.length, 10_000);
  for (let i = 0; i < 10_000; i++) {
    const same = second.codes[i] === before.codes[i];
    assert.equal(same, i !== 5000, `entry ${i}`);
    assert.equal(pairs[i] === before.pairs[i] && pairs[i]!.value === before.pairs[i]!.value, i !== 5000, `pair ${i}`);
    const c = second.codes[i]!;
    assert.equal(edited.slice(c.keySpan.start, c.keySpan.end), `VALIDATION_E${i}`);
  }
  assert.ok(second.mappings.every((m, i) => m === before.mappings[i]));
  const m = second.mappings[19]!;
  assert.equal(edited.slice(m.code!.span.start, m.code!.span.end), 'VALIDATION_E19');
});

test('after an edit before them, the diagnostics of later entries and the offsets in their data moved', () => {
  const text = yamlDoc(
    'error_codes:',
    '  VALIDATION_A:',
    '    category: VALIDATION',
    '  VALIDATION_B:',
    '    category: VALIDATION',
    '    message_template: "{nope} failed"',
    '    details: { unused: string }',
    'error_mapping:',
    '  400:',
    '    code: VALIDATION_NOPE',
  );
  const service = newService();
  const opts = { chunkThreshold: 0 };
  service.validate(docOf(text, URI, 1), opts);
  const edited = text.replace('  VALIDATION_A:\n', '  VALIDATION_A:\n    description: "moved"\n');
  service.edited(URI, 1, 2, [
    { start: text.indexOf('    category'), end: text.indexOf('    category'), text: '    description: "moved"\n' },
  ]);
  const diags = service.validate(docOf(edited, URI, 2), opts);
  assert.deepEqual(diags, newService().validate(docOf(edited, URI, 2), opts));
  const byCode = new Map(diags.map(d => [d.code, d]));
  const entryAt = edited.indexOf('VALIDATION_B');
  assert.equal((byCode.get('template.unknown-placeholder')!.data as { entryAt: number }).entryAt, entryAt);
  assert.equal((byCode.get('template.unused-detail')!.data as { entryAt: number }).entryAt, entryAt);
  assert.equal((byCode.get('mapping.unknown-code')!.data as { entryAt: number }).entryAt, edited.indexOf('400'));
});

test('shiftProblem moves start, end, related spans in this file and the declared payload offsets; nothing else', () => {
  const p = shiftProblem(
    {
      code: 'yaml.duplicate-key',
      message: 'm',
      start: 10,
      end: 12,
      data: { key: 'k', firstAt: 3 },
      related: [
        { start: 3, end: 4, message: 'first' },
        {
          start: 0,
          end: 0,
          message: 'elsewhere',
          uri: 'file:///x',
          range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
        },
      ],
    },
    5,
  );
  assert.deepEqual(p, {
    code: 'yaml.duplicate-key',
    message: 'm',
    start: 15,
    end: 17,
    data: { key: 'k', firstAt: 8 },
    related: [
      { start: 8, end: 9, message: 'first' },
      {
        start: 0,
        end: 0,
        message: 'elsewhere',
        uri: 'file:///x',
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
      },
    ],
  });
  const q = shiftProblem(
    {
      code: 'template.unknown-placeholder',
      message: 'm',
      start: 1,
      end: 2,
      data: { entryAt: 0, entryKind: 'code', index: null, key: 'x', visible: [], suggestions: [] },
    },
    -1,
  );
  assert.deepEqual(q.data, { entryAt: -1, entryKind: 'code', index: null, key: 'x', visible: [], suggestions: [] });
  // Every payload-carrying code declares its offsets (the type makes a missing one an error).
  const declared: Record<keyof Payloads, readonly string[]> = PAYLOAD_OFFSETS;
  assert.deepEqual(Object.values(declared).flat().sort(), ['entryAt', 'entryAt', 'entryAt', 'entryAt', 'entryAt', 'entryAt', 'firstAt']);
});

const fullScan = (text: string): number[] => {
  BAD.lastIndex = 0;
  return [...text.matchAll(BAD)].map(m => m.index);
};

test('invalid characters after random edits: those of a full scan (lone surrogates at the edges of an edit too)', () => {
  const piece = fc.constantFrom('a', ' ', '\n', '\u0001', '\ud83d', '\ude00', '\ud83d\ude00', '\ufffd', '\u007f', 'é');
  fc.assert(
    fc.property(
      fc.array(piece, { maxLength: 60 }).map(a => a.join('')),
      fc.array(fc.record({ at: fc.nat(), del: fc.nat({ max: 5 }), ins: fc.array(piece, { maxLength: 4 }).map(a => a.join('')) }), {
        maxLength: 8,
      }),
      (base, edits) => {
        let text = base;
        let scan: TextScan = scanText(undefined, text);
        assert.deepEqual(scan.hits, fullScan(text));
        for (const e of edits) {
          const at = e.at % (text.length + 1);
          text = text.slice(0, at) + e.ins + text.slice(Math.min(text.length, at + e.del));
          scan = scanText(scan, text);
          assert.deepEqual(scan.hits, fullScan(text), JSON.stringify(text));
        }
      },
    ),
    { numRuns: 500, seed: 14 },
  );
});

test('common prefix and suffix of long texts, found in blocks', () => {
  const a = 'x'.repeat(300_000) + 'A' + 'y'.repeat(200_000);
  const b = 'x'.repeat(300_000) + 'BB' + 'y'.repeat(200_000);
  assert.equal(commonPrefix(a, b), 300_000);
  assert.equal(commonSuffix(a, b), 200_000);
  assert.equal(commonSuffix(a, b, 5), 5);
  assert.equal(commonPrefix(a, a), a.length);
  assert.equal(commonPrefix('', b), 0);
});

test('a * inside a string is no alias: the same diagnostics as without it; an alias still counts', () => {
  const text = (description: string) =>
    yamlDoc(
      `description: "${description}"`,
      'error_codes:',
      '  VALIDATION_A:',
      '    category: VALIDATION',
      '    unknown_key: 1',
      '    maps_from_http: [99]',
      '  VALIDATION_B:',
      '    category: 7',
    );
  const opts = { chunkThreshold: 0 };
  const star = newService().validate(docOf(text('a * b')), opts);
  assert.deepEqual(star, newService().validate(docOf(text('a - b')), opts));
  assert.deepEqual(
    star.map(d => d.code),
    ['schema.unknown-key', 'http.invalid-status', 'schema.type'],
  );
  const aliased = yamlDoc('base: &b { category: 7 }', 'error_codes:', '  VALIDATION_A: *b');
  assert.deepEqual(
    newService()
      .validate(docOf(aliased), opts)
      .map(d => d.code),
    ['schema.type'],
  );
});

test('a rule that throws: the kept checks give what a full run gives (one internal.rule-failure), then recover', () => {
  const deps = loadDeps();
  const ajv = new Ajv({ allErrors: true, strict: false, verbose: true });
  const registry = indexRegistry(deps.registry);
  const broken = Object.create(registry, {
    categoryNames: {
      get() {
        throw new Error('kaboom');
      },
    },
  }) as typeof registry;
  const model = buildModel(URI, big(30), [], { chunkThreshold: 0 })!;
  const ctx = { model, registry: broken, validateSchema: ajv.compile(deps.schema), workspace: emptyWorkspace };
  const state = createCheckState();
  const kept = runChecksCached(state, ctx);
  assert.deepEqual(kept, runChecks(checks, ctx));
  assert.deepEqual(
    kept.filter(p => p.code === 'internal.rule-failure').map(p => p.data),
    [{ rule: 'codeNames' }],
  );
  const sane = { ...ctx, registry };
  assert.deepEqual(runChecksCached(state, sane), runChecks(checks, sane));
});

test('a top-level key added above the blocks: each block keeps its per-entry records, and the problems are a full run’s', () => {
  const deps = loadDeps();
  const validators = compileSchemas(deps.schema, undefined).adapter();
  const registry = indexRegistry(deps.registry);
  const text = big(30).replace('VALIDATION_E3:', '"VALIDATION_E3":\n    extra: 1\n  VALIDATION_E3b:');
  const first = buildModel(URI, text, [], { chunkThreshold: 0 })!;
  const ctx = (model: typeof first) => ({ model, registry, workspace: emptyWorkspace, ...validators });
  const state = createCheckState();
  assert.deepEqual(runChecksCached(state, ctx(first)), runChecks(checks, ctx(first)));
  const blocks = new Map(state.blocks);
  const recs = new Map([...blocks].map(([k, b]) => [k, [...b.recs]] as const));
  assert.equal(blocks.size, 2);
  const edited = 'description: added above\n' + text;
  const second = buildModel(URI, edited, [], { chunkThreshold: 0, previous: first, change: { start: 0, oldEnd: 0, newEnd: 25 } })!;
  const kept = runChecksCached(state, ctx(second));
  assert.deepEqual(kept, runChecks(checks, ctx(second)));
  assert.ok(kept.some(p => p.code.startsWith('schema.')));
  for (const [k, b] of blocks) {
    assert.equal(state.blocks.get(k), b, k);
    assert.ok(
      b.recs.every((r, i) => r === recs.get(k)![i]),
      k,
    );
  }
});
