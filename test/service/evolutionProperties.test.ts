/**
 * The properties of `diffContracts` on generated contracts (fast-check): diff(a, a) is empty
 * (also when the same contract is written in another order); diff(a, b) and diff(b, a) mirror each
 * other change for change; and every generated single change is found, alone, with its rule.
 */
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { mirrorsOf, type ChangeRule, type ContractChange } from '../../server/src/service';
import { newService } from './helpers';

interface Det {
  type: string;
  required: boolean;
}
interface Code {
  name: string;
  category: string;
  details: Record<string, Det>;
  placeholders: string[];
  statuses: number[];
}
interface Entry {
  code: string;
  condition?: string;
}
interface Contract {
  codes: Code[];
  mapping: Record<string, Entry[]>;
}

const NAMES = ['NOT_FOUND_A', 'NOT_FOUND_B', 'CONFLICT_C', 'VALIDATION_D'];
const CATEGORIES = ['NOT_FOUND', 'CONFLICT', 'VALIDATION', 'RATE_LIMIT'];
const KEYS = ['a', 'b', 'c'];
const TYPES = ['string', 'integer', 'number', 'boolean'];
const STATUSES = [400, 401, 404, 409, 500];
const TARGETS = [...NAMES, 'PERMISSION_DENIED', 'INTERNAL_ERROR'];

const arbCode = (name: string) =>
  fc.record({
    name: fc.constant(name),
    category: fc.constantFrom(...CATEGORIES),
    details: fc.dictionary(fc.constantFrom(...KEYS), fc.record({ type: fc.constantFrom(...TYPES), required: fc.boolean() }), {
      maxKeys: 3,
    }),
    placeholders: fc.uniqueArray(fc.constantFrom(...KEYS), { maxLength: 3 }),
    statuses: fc.uniqueArray(fc.constantFrom(...STATUSES), { maxLength: 2 }),
  });
const arbEntries = fc
  .tuple(
    fc.uniqueArray(fc.constantFrom('c1', 'c2'), { maxLength: 2 }),
    fc.array(fc.constantFrom(...TARGETS), { minLength: 3, maxLength: 3 }),
  )
  .map(([conds, codes]): Entry[] => [...conds.map((condition, i) => ({ code: codes[i]!, condition })), { code: codes[2]! }]);
const arbContract: fc.Arbitrary<Contract> = fc
  .tuple(fc.subarray(NAMES), fc.dictionary(fc.constantFrom(...STATUSES.map(String)), arbEntries, { maxKeys: 3 }))
  .chain(([names, mapping]) => fc.tuple(...names.map(arbCode)).map(codes => ({ codes, mapping })));

function render(c: Contract, reversed = false): string {
  const order = <T>(xs: T[]) => (reversed ? [...xs].reverse() : xs);
  const out = ['name: gen', 'type: adapter', c.codes.length ? 'error_codes:' : 'error_codes: {}'];
  for (const code of order(c.codes)) {
    out.push(
      `  ${code.name}:`,
      `    category: ${code.category}`,
      `    message_template: "Failed${code.placeholders.map(p => ` {${p}}`).join('')}"`,
    );
    if (code.statuses.length) out.push(`    maps_from_http: [${code.statuses.join(', ')}]`);
    const keys = order(Object.entries(code.details));
    if (keys.length) out.push('    details:', ...keys.map(([k, d]) => `      ${k}: { type: ${d.type}, required: ${d.required} }`));
  }
  const statuses = order(Object.entries(c.mapping));
  out.push(statuses.length ? 'error_mapping:' : 'error_mapping: {}');
  for (const [status, entries] of statuses) {
    out.push(`  ${status}:`);
    if (entries.length === 1 && !entries[0]!.condition) out.push(`    code: ${entries[0]!.code}`);
    else
      for (const e of entries) {
        if (e.condition) out.push(`    - condition: "response.body.kind == '${e.condition}'"`, `      code: ${e.code}`);
        else out.push(`    - code: ${e.code}`);
      }
  }
  return out.join('\n') + '\n';
}

const service = newService();
const diff = (a: string, b: string): ContractChange[] =>
  service.diffContracts(
    [{ doc: TextDocument.create('file:///old/gen.adapter.yaml', 'yaml', 1, a), fileKey: 'gen.adapter.yaml' }],
    [{ doc: TextDocument.create('file:///new/gen.adapter.yaml', 'yaml', 1, b), fileKey: 'gen.adapter.yaml' }],
  );

test('diff(a, a) is empty, also when the same contract is written in another order', () => {
  fc.assert(
    fc.property(arbContract, c => {
      assert.deepEqual(diff(render(c), render(c)), []);
      assert.deepEqual(diff(render(c), render(c, true)), []);
    }),
    { numRuns: 150 },
  );
});

test('diff(a, b) and diff(b, a) mirror each other, change for change', () => {
  // A renamed code's other changes are named by the new name in each direction: their subject is the pair.
  const subject = (c: ContractChange) =>
    JSON.stringify([c.renamedFrom ? [c.code!, c.renamedFrom].sort() : (c.code ?? ''), c.adapter ?? '', c.status ?? '', c.key ?? '']);
  fc.assert(
    fc.property(arbContract, arbContract, (a, b) => {
      const ab = diff(render(a), render(b));
      const ba = [...diff(render(b), render(a))];
      assert.equal(ab.length, ba.length);
      for (const c of ab) {
        const i = ba.findIndex(x => subject(x) === subject(c) && mirrorsOf(c.rule).includes(x.rule));
        assert.ok(i >= 0, `no mirror of ${c.rule} ${subject(c)} in ${JSON.stringify(ba.map(x => [x.rule, subject(x)]))}`);
        ba.splice(i, 1);
      }
    }),
    { numRuns: 150 },
  );
});

/** error_mapping answers `status` first with another code than `name` (its last entry has no condition). */
const shadowedIn = (c: Contract, name: string, status: number): boolean => {
  const list = c.mapping[String(status)];
  return !!list && list.at(-1)!.code !== name;
};

type Mutation = (c: Contract, pick: number) => { next: Contract; rule: ChangeRule } | undefined;
const clone = (c: Contract): Contract => JSON.parse(JSON.stringify(c)) as Contract;
const at = <T>(xs: readonly T[], pick: number): T | undefined => (xs.length ? xs[pick % xs.length] : undefined);
const onCode =
  (f: (code: Code, pick: number) => ChangeRule | undefined): Mutation =>
  (c, pick) => {
    const next = clone(c);
    const code = at(next.codes, pick);
    const rule = code && f(code, Math.floor(pick / 7));
    return rule && { next, rule };
  };
const onKey = (f: (d: Det, code: Code, key: string) => ChangeRule | undefined) =>
  onCode((code, pick) => {
    const key = at(Object.keys(code.details), pick);
    return key === undefined ? undefined : f(code.details[key]!, code, key);
  });

const MUTATIONS: Record<string, Mutation> = {
  'code.removed': (c, pick) => {
    const code = at(c.codes, pick);
    return code && { next: { ...clone(c), codes: clone(c).codes.filter(x => x.name !== code.name) }, rule: 'code.removed' };
  },
  'code.added': c => {
    const name = NAMES.find(n => !c.codes.some(x => x.name === n));
    return name === undefined
      ? undefined
      : {
          next: { ...clone(c), codes: [...clone(c).codes, { name, category: 'NOT_FOUND', details: {}, placeholders: [], statuses: [] }] },
          rule: 'code.added',
        };
  },
  'code.category-changed': onCode(code => ((code.category = CATEGORIES.find(x => x !== code.category)!), 'code.category-changed')),
  // The generated codes have no condition and every mapped status ends with an entry without one: a status
  // whose last entry gives another code is shadowed (the code never answers it), any other is reachable.
  'code.status-added': (c, pick) =>
    onCode(code => {
      const s = STATUSES.find(x => !code.statuses.includes(x) && !shadowedIn(c, code.name, x));
      return s === undefined ? undefined : (code.statuses.push(s), 'code.status-added');
    })(c, pick),
  'code.shadowed-status-added': (c, pick) =>
    onCode(code => {
      const s = STATUSES.find(x => !code.statuses.includes(x) && shadowedIn(c, code.name, x));
      return s === undefined ? undefined : (code.statuses.push(s), 'code.shadowed-status-added');
    })(c, pick),
  'code.status-removed': (c, pick) =>
    onCode(code => {
      const s = code.statuses.pop();
      return s === undefined ? undefined : shadowedIn(c, code.name, s) ? 'code.shadowed-status-removed' : 'code.status-removed';
    })(c, pick),
  'details.key-added': onCode(code => {
    const k = KEYS.find(x => !(x in code.details));
    return k === undefined ? undefined : ((code.details[k] = { type: 'string', required: false }), 'details.key-added');
  }),
  'details.required-added (new key)': onCode(code => {
    const k = KEYS.find(x => !(x in code.details));
    return k === undefined ? undefined : ((code.details[k] = { type: 'string', required: true }), 'details.required-added');
  }),
  'details.key-removed': onKey((_d, code, key) => (delete code.details[key], 'details.key-removed')),
  'details.required toggled': onKey(d => ((d.required = !d.required), d.required ? 'details.required-added' : 'details.required-removed')),
  'details.type-changed': onKey(d => (d.type === 'boolean' ? undefined : ((d.type = 'boolean'), 'details.type-changed'))),
  'details.type-widened': onKey(d => (d.type === 'integer' ? ((d.type = 'number'), 'details.type-widened') : undefined)),
  'details.type-narrowed': onKey(d => (d.type === 'number' ? ((d.type = 'integer'), 'details.type-narrowed') : undefined)),
  'template.placeholder-added': onCode(code => (code.placeholders.push('zz'), 'template.placeholder-added')),
  'template.placeholder-removed': onCode(code =>
    code.placeholders.length ? (code.placeholders.shift(), 'template.placeholder-removed') : undefined,
  ),
  'mapping.status-removed': (c, pick) => {
    const s = at(Object.keys(c.mapping), pick);
    if (s === undefined) return undefined;
    const next = clone(c);
    delete next.mapping[s];
    return { next, rule: 'mapping.status-removed' };
  },
  'mapping.status-added': c => {
    const s = STATUSES.map(String).find(x => !(x in c.mapping));
    if (s === undefined) return undefined;
    const next = clone(c);
    next.mapping[s] = [{ code: 'INTERNAL_ERROR' }];
    return { next, rule: 'mapping.status-added' };
  },
  'mapping.status-retargeted': (c, pick) => {
    const s = at(Object.keys(c.mapping), pick);
    if (s === undefined) return undefined;
    const next = clone(c);
    const e = next.mapping[s]!.at(-1)!;
    e.code = TARGETS.find(t => t !== e.code)!;
    return { next, rule: 'mapping.status-retargeted' };
  },
  'mapping.entry-removed': (c, pick) => {
    const s = at(
      Object.keys(c.mapping).filter(k => c.mapping[k]!.some(e => e.condition)),
      pick,
    );
    if (s === undefined) return undefined;
    const next = clone(c);
    next.mapping[s] = next.mapping[s]!.filter((e, i) => !(e.condition && i === 0));
    return { next, rule: 'mapping.entry-removed' };
  },
  'mapping.condition-changed': (c, pick) => {
    const s = at(
      Object.keys(c.mapping).filter(k => c.mapping[k]!.some(e => e.condition)),
      pick,
    );
    if (s === undefined || c.mapping[s]!.some(e => e.condition === 'c9')) return undefined;
    const next = clone(c);
    next.mapping[s]![0]!.condition = 'c9';
    return { next, rule: 'mapping.condition-changed' };
  },
  'mapping.entry-added': (c, pick) => {
    const s = at(Object.keys(c.mapping), pick);
    if (s === undefined || c.mapping[s]!.some(e => e.condition === 'c3')) return undefined;
    const next = clone(c);
    next.mapping[s]!.unshift({ code: 'INTERNAL_ERROR', condition: 'c3' });
    return { next, rule: 'mapping.entry-added' };
  },
};

for (const [name, mutate] of Object.entries(MUTATIONS)) {
  test(`a generated change is found alone and classified: ${name}`, () => {
    let applied = 0;
    fc.assert(
      fc.property(arbContract, fc.nat(1000), (c, pick) => {
        const m = mutate(c, pick);
        if (!m) return;
        applied++;
        const changes = diff(render(c), render(m.next));
        assert.deepEqual(
          changes.map(x => x.rule),
          [m.rule],
          `${render(c)}\n→\n${render(m.next)}`,
        );
      }),
      { numRuns: 100 },
    );
    assert.ok(applied >= 5, `the mutation applied ${applied} times of 100`);
  });
}
