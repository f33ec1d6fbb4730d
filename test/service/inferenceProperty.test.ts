/**
 * Property: for generated contracts (custom codes with templates and typed details), the tool results
 * the envelope renderer (envelopes/dialects.ts `toolResult`) makes for calls with varying values,
 * inferred, give back the codes, the templates, the details keys with their types, and a contract
 * that `check` finds clean and that the same responses verify against with no finding.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { toolResult } from '../../server/src/service/envelopes/dialects';
import { newService } from './helpers';

const CATEGORIES = ['VALIDATION', 'NOT_FOUND', 'PERMISSION', 'CONFLICT', 'RATE_LIMIT', 'INTERNAL'] as const;
const WORDS = ['Order', 'User', 'Item', 'Quota', 'Lock', 'Token', 'Sheet', 'Page'];
const LITERALS = ['not found', 'is locked', 'for', 'was rejected', 'has no', 'cannot be read', 'Error:', 'in'];

interface Key {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'boolean' | 'string[]';
}
interface GenCode {
  readonly code: string;
  readonly category: string;
  readonly keys: readonly Key[];
  /** Literal pieces and placeholders (indexes into keys, string and integer keys only). */
  readonly template: readonly (string | number)[];
}

const keyName = fc.stringMatching(/^[a-z][a-z_]{1,7}[a-z]$/);
const genCode = (category: string, word: string): fc.Arbitrary<GenCode> =>
  fc
    .uniqueArray(
      fc.record({ name: keyName, type: fc.constantFrom('string' as const, 'integer' as const, 'boolean' as const, 'string[]' as const) }),
      { minLength: 1, maxLength: 4, selector: k => k.name },
    )
    .chain(keys => {
      const slots = keys.flatMap((k, i) => (k.type === 'string' || k.type === 'integer' ? [i] : []));
      return fc
        .array(fc.oneof(fc.constantFrom(...LITERALS), ...(slots.length ? [fc.constantFrom(...slots)] : [])), { minLength: 1, maxLength: 5 })
        .map(parts => {
          // Words between placeholders, so that two values never touch.
          const template: (string | number)[] = [word];
          for (const p of parts) {
            if (typeof p === 'number' && typeof template[template.length - 1] === 'number') template.push('and');
            template.push(p);
          }
          return { code: `${category}_${word.toUpperCase()}`, category, keys, template };
        });
    });

const genContract = fc
  .uniqueArray(fc.tuple(fc.constantFrom(...CATEGORIES), fc.constantFrom(...WORDS)), {
    minLength: 1,
    maxLength: 4,
    selector: ([c, w]) => `${c}_${w}`,
  })
  .chain(pairs => fc.tuple(...pairs.map(([c, w]) => genCode(c, w))));

const templateText = (g: GenCode) => g.template.map(p => (typeof p === 'number' ? `{${g.keys[p]!.name}}` : p)).join(' ');

/** Values for one call: distinct, of each key's type, never a word of the template. */
const genValues = (g: GenCode) =>
  fc.tuple(
    ...g.keys.map(k =>
      k.type === 'string'
        ? fc.stringMatching(/^z[a-z0-9-]{3,8}$/)
        : k.type === 'integer'
          ? fc.integer({ min: 1000, max: 999999 })
          : k.type === 'boolean'
            ? fc.boolean()
            : fc.array(fc.stringMatching(/^z[a-z]{2,5}$/), { maxLength: 3 }),
    ),
  );

const genCase = genContract.chain(codes =>
  fc.tuple(fc.constant(codes), fc.tuple(...codes.map(g => fc.array(genValues(g), { minLength: 1, maxLength: 3 })))),
);

function render(g: GenCode, values: readonly unknown[]): { line: string; message: string } {
  const details: Record<string, unknown> = {};
  g.keys.forEach((k, i) => (details[k.name] = values[i]));
  const message = g.template.map(p => (typeof p === 'number' ? String(values[p]) : p)).join(' ');
  const r = toolResult({
    code: g.code,
    category: g.category,
    kind: 'error',
    message,
    details,
    mirrorConfirmation: false,
    toolName: 't',
    now: '',
  });
  return { line: JSON.stringify({ jsonrpc: '2.0', id: 0, result: r }), message };
}

test('inferring from rendered responses gives back the codes, templates and details keys', () => {
  fc.assert(
    fc.property(genCase, ([codes, calls]) => {
      // Values must differ between the placeholders of one message, else a value could be either key.
      for (const [c, g] of codes.entries())
        for (const v of calls[c]!) {
          const shown = g.template.filter((p): p is number => typeof p === 'number').map(p => String(v[p]));
          fc.pre(new Set(shown).size === new Set(g.template.filter(p => typeof p === 'number')).size);
        }
      let id = 0;
      const lines: string[] = [];
      codes.forEach((g, c) => calls[c]!.forEach(v => lines.push(render(g, v).line.replace('"id":0', `"id":${++id}`))));
      const s = newService();
      const r = s.inferContract({ transcripts: [lines.join('\n')] });
      const byCode = new Map(r.kinds.map(k => [k.code, k]));
      assert.deepEqual([...byCode.keys()].sort(), codes.map(g => g.code).sort());
      for (const [c, g] of codes.entries()) {
        const k = byCode.get(g.code)!;
        assert.equal(k.template.text, templateText(g));
        assert.deepEqual(
          k.details.map(d => d.name),
          g.keys.map(x => x.name).sort(),
        );
        for (const d of k.details) {
          const want = g.keys.find(x => x.name === d.name)!.type;
          // An empty list has no item type: a key only ever seen empty is a plain array.
          const at = g.keys.findIndex(x => x.name === d.name);
          const onlyEmpty = calls[c]!.every(v => Array.isArray(v[at]) && (v[at] as unknown[]).length === 0);
          assert.equal(d.type, want === 'string[]' && onlyEmpty ? 'array' : want, `${g.code}.${d.name}`);
          assert.equal(d.required, true);
        }
      }
      const doc = TextDocument.create('file:///w/gen.adapter.yaml', 'yaml', 1, r.text);
      assert.deepEqual(
        s.validate(doc).map(d => `${d.range.start.line + 1} ${String(d.code)} ${d.message}`),
        [],
      );
      const responses = TextDocument.create('file:///w/gen.responses.jsonl', 'json', 1, lines.join('\n'));
      assert.deepEqual(
        s.verifyResponses(responses, s.contract([doc])).map(d => `${d.range.start.line + 1} ${String(d.code)} ${d.message}`),
        [],
      );
    }),
    { numRuns: 150, seed: 37 },
  );
});
