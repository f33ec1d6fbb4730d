/** Two snapshots of a contract → every change, classified (rules.ts), in a stable order. */
import { RULES, type RuleId, type Severity } from './rules';
import type { AdapterSnap, CodeSnap, DetailSnap, MappingSnap, Place, Snapshot, TemplateSnap } from './snapshot';

export interface ContractChange {
  readonly rule: RuleId;
  readonly severity: Severity;
  /** What changed: a code, an adapter (its name or file), an HTTP status of its error_mapping, a details key. */
  readonly code?: string;
  readonly adapter?: string;
  readonly status?: string;
  readonly key?: string;
  readonly message: string;
  readonly before?: string;
  readonly after?: string;
  /** Where the change is in the new version (for a removal: what held the removed thing, when it remains). */
  readonly at?: Place;
  /** Where the changed thing was in the old version. */
  readonly was?: Place;
}

type Subject = Pick<ContractChange, 'code' | 'adapter' | 'status' | 'key'>;

class Collector {
  readonly out: ContractChange[] = [];
  add(rule: RuleId, subject: Subject, message: string, o: Pick<ContractChange, 'before' | 'after' | 'at' | 'was'> = {}): void {
    const c: ContractChange = { rule, severity: RULES[rule].severity, ...subject, message, ...o };
    this.out.push(Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined)) as unknown as ContractChange);
  }
}

const q = (s: string) => `'${s}'`;
const TYPE_ORDER: Record<string, string> = { integer: 'number', 'integer[]': 'number[]' };

/** widened: every old value is still allowed and more are; narrowed: the reverse; changed: neither. */
function typeChange(before: string | undefined, after: string | undefined): 'widened' | 'narrowed' | 'changed' | undefined {
  const b = before === 'unknown' ? undefined : before;
  const a = after === 'unknown' ? undefined : after;
  if (b === a) return undefined;
  if (a === undefined || TYPE_ORDER[b!] === a) return 'widened';
  if (b === undefined || TYPE_ORDER[a] === b) return 'narrowed';
  return 'changed';
}

function compareTemplate(
  out: Collector,
  s: Subject,
  what: string,
  b: TemplateSnap | undefined,
  a: TemplateSnap | undefined,
  at?: Place,
  was?: Place,
): void {
  if (!b && !a) return;
  if (!b) return out.add('template.added', s, `${what}: a message template was added`, { after: a!.text, at: a!.at ?? at });
  if (!a) return out.add('template.removed', s, `${what}: its message template was removed`, { before: b.text, at, was: b.at ?? was });
  const where = { at: a.at ?? at, was: b.at ?? was };
  for (const p of b.placeholders)
    if (!a.placeholders.includes(p))
      out.add('template.placeholder-removed', s, `${what}: placeholder {${p}} was removed from the message template`, {
        before: b.text,
        after: a.text,
        ...where,
      });
  for (const p of a.placeholders)
    if (!b.placeholders.includes(p))
      out.add('template.placeholder-added', s, `${what}: placeholder {${p}} was added to the message template`, {
        before: b.text,
        after: a.text,
        ...where,
      });
  const same = b.placeholders.length === a.placeholders.length && b.placeholders.every(p => a.placeholders.includes(p));
  if (same && b.text !== a.text)
    out.add('template.text-changed', s, `${what}: the message template's wording changed`, { before: b.text, after: a.text, ...where });
}

function compareDetail(out: Collector, code: CodeSnap, b: DetailSnap, a: DetailSnap): void {
  const s = { code: code.name, key: b.name };
  const where = { at: a.at, was: b.at };
  const what = `${code.name} details.${b.name}`;
  if (!b.required && a.required)
    out.add('details.required-added', s, `${what} is now required`, { before: 'optional', after: 'required', ...where });
  if (b.required && !a.required)
    out.add('details.required-removed', s, `${what} is no longer required`, { before: 'required', after: 'optional', ...where });
  const t = typeChange(b.type, a.type);
  if (t) {
    const [bt, at] = [b.type ?? 'any', a.type ?? 'any'];
    out.add(`details.type-${t}`, s, `${what}: type ${bt} → ${at}`, { before: bt, after: at, ...where });
  }
  if (b.enum || a.enum) {
    // No enum allows every value: dropping one widens, adding one narrows.
    const added = b.enum ? (a.enum ? a.enum.filter(v => !b.enum!.includes(v)) : ['any value']) : [];
    const removed = a.enum ? (b.enum ? b.enum.filter(v => !a.enum!.includes(v)) : ['any value']) : [];
    const show = (e: readonly string[] | undefined) => (e ? e.join(', ') : 'any value');
    if (added.length)
      out.add('details.enum-value-added', s, `${what}: enum allows ${added.join(', ')}`, {
        before: show(b.enum),
        after: show(a.enum),
        ...where,
      });
    if (removed.length)
      out.add('details.enum-value-removed', s, `${what}: enum no longer allows ${removed.join(', ')}`, {
        before: show(b.enum),
        after: show(a.enum),
        ...where,
      });
  }
}

function compareCode(out: Collector, b: CodeSnap, a: CodeSnap): void {
  const s = { code: a.name };
  const where = { at: a.at, was: b.at };
  if (b.category !== a.category)
    out.add('code.category-changed', s, `${a.name}: category ${b.category ?? '(none)'} → ${a.category ?? '(none)'}`, {
      before: b.category ?? '(none)',
      after: a.category ?? '(none)',
      ...where,
    });
  if (b.description !== a.description)
    out.add('code.description-changed', s, `${a.name}: description changed`, {
      before: b.description ?? '',
      after: a.description ?? '',
      ...where,
    });
  // A category's default moving with the category is code.category-changed; a written retry is compared.
  if (b.retry !== a.retry && (b.retryDeclared || a.retryDeclared)) {
    const said = (c: CodeSnap) => (c.retry ? `${c.retry}${c.retryDeclared ? '' : ` (${c.category ?? '?'}'s default)`}` : '(none)');
    out.add('code.retry-changed', s, `${a.name}: retry ${said(b)} → ${said(a)}`, { before: said(b), after: said(a), ...where });
  }
  if (b.condition !== a.condition)
    out.add('code.condition-changed', s, `${a.name}: condition changed`, {
      before: b.condition ?? '(none)',
      after: a.condition ?? '(none)',
      ...where,
    });
  // A shadowed status (snapshot.ts) is one the code never answered, or never will: not a status it gains or loses.
  for (const st of b.statuses) {
    if (a.statuses.includes(st)) continue;
    const by = b.shadowed.get(st);
    if (by)
      out.add(
        'code.shadowed-status-removed',
        { ...s, status: st },
        `${a.name} no longer claims HTTP ${st}, which error_mapping[${by}] answered first`,
        where,
      );
    else out.add('code.status-removed', { ...s, status: st }, `${a.name} no longer maps from HTTP ${st}`, where);
  }
  for (const st of a.statuses) {
    if (b.statuses.includes(st)) continue;
    const by = a.shadowed.get(st);
    if (by)
      out.add(
        'code.shadowed-status-added',
        { ...s, status: st },
        `${a.name} now claims HTTP ${st}, but error_mapping[${by}] answers it first: no response gets ${a.name} for it`,
        { ...where, after: `error_mapping[${by}]` },
      );
    else out.add('code.status-added', { ...s, status: st }, `${a.name} now maps from HTTP ${st}`, where);
  }
  for (const [name, d] of b.details) {
    const n = a.details.get(name);
    if (n) compareDetail(out, a, d, n);
    else out.add('details.key-removed', { ...s, key: name }, `${a.name} details.${name} was removed`, { at: a.at, was: d.at });
  }
  for (const [name, d] of a.details) {
    if (b.details.has(name)) continue;
    if (d.required)
      out.add('details.required-added', { ...s, key: name }, `${a.name} details.${name} was added, required`, {
        after: 'required',
        at: d.at,
      });
    else out.add('details.key-added', { ...s, key: name }, `${a.name} details.${name} was added (optional)`, { at: d.at });
  }
  compareTemplate(out, s, a.name, b.template, a.template, a.at, b.at);
}

/** Entries of one status matched by condition, then the rest by position. */
function pairEntries(
  b: readonly MappingSnap[],
  a: readonly MappingSnap[],
): { pairs: [MappingSnap, MappingSnap][]; gone: MappingSnap[]; fresh: MappingSnap[] } {
  const left = [...a];
  const pairs: [MappingSnap, MappingSnap][] = [];
  const rest: MappingSnap[] = [];
  for (const e of b) {
    const i = left.findIndex(x => x.condition === e.condition);
    if (i >= 0) pairs.push([e, left.splice(i, 1)[0]!]);
    else rest.push(e);
  }
  const n = Math.min(rest.length, left.length);
  for (let i = 0; i < n; i++) pairs.push([rest[i]!, left[i]!]);
  return { pairs, gone: rest.slice(n), fresh: left.slice(n) };
}

function compareAdapter(out: Collector, b: AdapterSnap, a: AdapterSnap): void {
  for (const [status, olds] of b.mappings) {
    const s = { adapter: a.key, status };
    const news = a.mappings.get(status);
    if (!news) {
      out.add(
        'mapping.status-removed',
        s,
        `${a.key}: error_mapping no longer maps HTTP ${status} (was ${olds.map(e => e.code ?? '?').join(', ')})`,
        {
          before: olds.map(e => e.code ?? '?').join(', '),
          was: olds[0]!.at,
        },
      );
      continue;
    }
    const { pairs, gone, fresh } = pairEntries(olds, news);
    for (const [o, n] of pairs) {
      const where = { at: n.at, was: o.at };
      const what = `${a.key}: error_mapping[${status}]${n.condition ? ` (when ${n.condition})` : ''}`;
      if (o.code !== n.code)
        out.add('mapping.status-retargeted', s, `${what} gives ${n.code ?? '(no code)'}, was ${o.code ?? '(no code)'}`, {
          before: o.code ?? '(none)',
          after: n.code ?? '(none)',
          ...where,
        });
      if (o.condition !== n.condition)
        out.add('mapping.condition-changed', s, `${a.key}: error_mapping[${status}] condition changed`, {
          before: o.condition ?? '(none)',
          after: n.condition ?? '(none)',
          ...where,
        });
      compareTemplate(out, s, what, o.template, n.template, n.at, o.at);
    }
    for (const e of gone)
      out.add(
        'mapping.entry-removed',
        { ...s, code: e.code },
        `${a.key}: error_mapping[${status}] entry for ${e.code ?? '?'} was removed`,
        {
          before: e.condition ?? '(none)',
          at: news[0]!.at,
          was: e.at,
        },
      );
    for (const e of fresh)
      out.add('mapping.entry-added', { ...s, code: e.code }, `${a.key}: error_mapping[${status}] entry for ${e.code ?? '?'} was added`, {
        after: e.condition ?? '(none)',
        at: e.at,
      });
  }
  for (const [status, news] of a.mappings)
    if (!b.mappings.has(status))
      out.add(
        'mapping.status-added',
        { adapter: a.key, status },
        `${a.key}: error_mapping now maps HTTP ${status} to ${news.map(e => e.code ?? '?').join(', ')}`,
        {
          after: news.map(e => e.code ?? '?').join(', '),
          at: news[0]!.at,
        },
      );
}

/** Every change from `before` to `after`: codes first (by name), then adapters (by key). */
export function compareSnapshots(before: Snapshot, after: Snapshot): ContractChange[] {
  const out = new Collector();
  const names = [...new Set([...before.codes.keys(), ...after.codes.keys()])].sort();
  for (const name of names) {
    const b = before.codes.get(name);
    const a = after.codes.get(name);
    if (b && a) compareCode(out, b, a);
    // A registry code that stops (or starts) being mapped is a mapping change, reported there.
    else if (b?.source === 'custom') out.add('code.removed', { code: name }, `${name} was removed`, { was: b.at });
    else if (a?.source === 'custom') out.add('code.added', { code: name }, `${name} was added`, { at: a.at });
  }
  const keys = [...new Set([...before.adapters.keys(), ...after.adapters.keys()])].sort();
  for (const key of keys) {
    const b = before.adapters.get(key);
    const a = after.adapters.get(key);
    if (b && a) compareAdapter(out, b, a);
    else if (b) out.add('adapter.removed', { adapter: key }, `adapter ${q(key)} was removed`, { was: { uri: b.uri, range: zero } });
    else if (a) out.add('adapter.added', { adapter: key }, `adapter ${q(key)} was added`, { at: { uri: a.uri, range: zero } });
  }
  return out.out;
}

const zero = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
