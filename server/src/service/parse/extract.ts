/** Walks the parsed sections and pulls out the blocks we check, with document offsets. */
import type { Node, Pair, Scalar, YAMLMap } from 'yaml';
import { isMap, isScalar, isSeq } from './yamlNodes';
import { deref, effectivePairs, type Reached } from './aliases';
import type {
  CodeDef,
  DetailDecl,
  MappingEntry,
  OperationParam,
  ScalarStyle,
  Section,
  Span,
  StatusRef,
  StringValue,
  Template,
  ValueRef,
} from '../model/model';
import { flat, trimmed } from './flat';
import { scanTemplate } from './placeholders';
import { details } from './details';
import { keyString, pairSpan, readsMerges, spanOf, toJSON } from './nodeRead';
import { sourceText } from '../util/pieceText';
import { mapPacked } from '../util/mapPacked';

export { extractTesting } from './nodeRead';
export { keyString };

export interface Extracted {
  codes: CodeDef[];
  mappings: MappingEntry[];
  params: OperationParam[];
}

export function extract(sections: readonly Section[]): Extracted {
  const out: Extracted = { codes: [], mappings: [], params: [] };
  for (const s of sections) {
    const root = s.doc.contents;
    if (isMap(root))
      extractTopPairs(
        s,
        mapPacked(effectivePairs(s.doc, root), r => r.pair),
        out,
      );
  }
  return out;
}

/** What the top-level pairs `pairs` of section `s` hold. */
export function extractTopPairs(s: Section, pairs: readonly Pair[], out: Extracted): void {
  for (const pair of pairs) {
    const key = keyString(pair);
    const v = key === 'error_codes' || key === 'error_mapping' ? deref(s.doc, pair.value) : undefined;
    if (key === 'error_codes' && isMap(v?.node)) extractCodePairs(s, effectivePairs(s.doc, v.node, v.shared), out);
    else if (key === 'error_mapping' && isMap(v?.node)) extractMappingPairs(s, effectivePairs(s.doc, v.node, v.shared), out);
    else if (key === 'operations') operationParams(s, pair.value as Node | null, out.params);
  }
}

type PairsIn = readonly (Pair | Reached)[];
const reached = (p: Pair | Reached): Reached => ('pair' in p ? p : { pair: p, shared: false });

/** Entries of an error_codes block (its own pairs, or with merges applied). */
export function extractCodePairs(s: Section, pairs: PairsIn, out: Extracted): void {
  for (const p of pairs) {
    const c = codeDef(s, reached(p));
    if (c) out.codes.push(c);
  }
}

/** Entries of an error_mapping block. */
export function extractMappingPairs(s: Section, pairs: PairsIn, out: Extracted): void {
  for (const p of pairs) mappingEntries(s, reached(p), out.mappings);
}

/**
 * A text whose slices what is extracted may keep as views instead of copies (flat.ts): set while the first parse of a
 * document extracts its chunks (chunkedParse.ts), whose chunk texts are views into that same text already, so the
 * views keep nothing alive that was not (a 14 MiB adapter: some 6 MB of copied templates spared). Any other text is
 * copied, so that what a later version extracts and caches never keeps that version's whole text alive.
 */
let viewable: string | undefined;

/** Runs `f` with slices of `text` kept as views by the extraction (see `viewable`). */
export function extractingViews<T>(text: string, f: () => T): T {
  const was = viewable;
  viewable = text;
  try {
    return f();
  } finally {
    viewable = was;
  }
}

/** The source text of [start, end) of section `s`: a view into it when it is `viewable`, else a copy. */
function rawOf(s: Section, start: number, end: number): string {
  const t = sourceText(s);
  const raw = t.slice(start, end);
  return t === viewable ? raw : flat(raw);
}

const STYLE: Record<string, ScalarStyle> = {
  PLAIN: 'plain',
  QUOTE_SINGLE: 'single',
  QUOTE_DOUBLE: 'double',
  BLOCK_LITERAL: 'literal',
  BLOCK_FOLDED: 'folded',
};

function stringValue(s: Section, n: unknown, shared = false): StringValue | undefined {
  const d = deref(s.doc, n);
  n = d.node;
  if (!isScalar(n) || typeof n.value !== 'string' || !n.range) return undefined;
  const span = spanOf(s, n);
  const raw = rawOf(s, n.range[0], n.range[1]);
  const v: StringValue = { value: n.value, span, raw, style: STYLE[n.type ?? 'PLAIN'] ?? 'plain' };
  return shared || d.shared ? { ...v, shared: true } : v;
}

function template(s: Section, n: unknown, shared: boolean): Template | undefined {
  const v = stringValue(s, n, shared);
  const t = v && scanTemplate(v.raw, v.span.start, v.value, v.style);
  return t && v.shared ? { ...t, shared: true } : t;
}

function valueRef(s: Section, n: unknown): (ValueRef & { node: Node }) | undefined {
  const node = deref(s.doc, n).node;
  if (!node || !node.range) return undefined;
  return { value: isScalar(node) ? node.value : toJSON(node), span: spanOf(s, node), node };
}

function statusRef(s: Section, n: unknown): StatusRef | undefined {
  n = deref(s.doc, n).node;
  if (!isScalar(n) || !n.range) return undefined;
  const raw = rawOf(s, n.range[0], n.range[1]);
  const span = spanOf(s, n);
  const v = n.value;
  let value: number | string = typeof v === 'number' ? v : String(v);
  if (typeof v === 'string' && /^\d{3}$/.test(v)) value = Number(v);
  if (typeof v === 'string' && /^[1-5]xx$/i.test(v)) value = v.toUpperCase();
  const valid = typeof value === 'number' ? Number.isInteger(value) && value >= 100 && value <= 599 : /^[45]XX$/.test(value);
  return { raw, value, span, valid };
}

interface EntryFields {
  code?: StringValue;
  category?: ValueRef;
  template?: Template;
  templateNode?: ValueRef & { node: Node };
  mapsFromHttp: StatusRef[];
  condition?: StringValue;
  details: DetailDecl[];
  detailsNode?: Node;
  detailsShared?: true;
  description?: string;
  retry?: string;
}

function entryFields(s: Section, map: YAMLMap | undefined, shared: boolean): EntryFields {
  const f: EntryFields = { mapsFromHttp: [], details: [] };
  if (!map) return f;
  if (readsMerges(map)) for (const { pair, shared: sh } of effectivePairs(s.doc, map, shared)) entryField(s, pair, sh, f);
  else for (const pair of map.items) entryField(s, pair, shared, f);
  return f;
}

/** What one pair of an entry says, into `f`. */
function entryField(s: Section, p: Pair, sh: boolean, f: EntryFields): void {
  const k = keyString(p),
    v = p.value as Node | null;
  switch (k) {
    case 'code':
      f.code = stringValue(s, v, sh);
      break;
    case 'category':
      f.category = valueRef(s, v);
      break;
    case 'message_template':
      f.template = template(s, v, sh);
      if (!f.template) f.templateNode = valueRef(s, v);
      break;
    case 'maps_from_http': {
      const list = deref(s.doc, v).node;
      if (isSeq(list))
        for (const it of list.items) {
          const r = statusRef(s, it);
          if (r) f.mapsFromHttp.push(r);
        }
      break;
    }
    case 'condition':
      f.condition = stringValue(s, v, sh);
      break;
    case 'details': {
      const d = deref(s.doc, v);
      f.details = details(s, v, sh);
      f.detailsNode = d.node ?? undefined;
      if (sh || d.shared) f.detailsShared = true;
      break;
    }
    case 'description': {
      const d = deref(s.doc, v).node;
      if (isScalar(d) && typeof d.value === 'string') f.description = d.value;
      break;
    }
    case 'retry': {
      const d = deref(s.doc, v).node;
      if (isScalar(d) && typeof d.value === 'string') f.retry = d.value;
      break;
    }
  }
}

/** `shared` (the entry, or only its details, reached through an alias) only when true, so models compare equal. */
function withShared<T extends { shared?: true; detailsShared?: true }>(o: T, entry: boolean, f: EntryFields): T {
  if (entry) o.shared = true;
  if (f.detailsShared) o.detailsShared = true;
  return o;
}

function codeDef(s: Section, r: Reached): CodeDef | undefined {
  const p = r.pair;
  const name = keyString(p);
  const key = p.key as Scalar | null;
  if (name === undefined || !key?.range) return undefined;
  const d = deref(s.doc, p.value);
  const node = isMap(d.node) ? d.node : undefined;
  const shared = r.shared || d.shared;
  const f = entryFields(s, node, shared);
  const c: { -readonly [K in keyof CodeDef]: CodeDef[K] } = {
    name,
    keySpan: spanOf(s, key),
    entrySpan: pairSpan(s, p),
    section: s.index,
    node,
    category: f.category,
    template: f.template,
    templateNode: f.templateNode,
    mapsFromHttp: trimmed(f.mapsFromHttp),
    condition: f.condition,
    details: f.details,
    detailsNode: f.detailsNode,
    description: f.description,
  };
  if (f.retry !== undefined) c.retry = f.retry;
  return withShared(c, shared, f);
}

/**
 * A collection key (`? [999]`, `? {a: 1}`) is no HTTP status: an invalid status on the key (only up to the
 * end of its first inner key, for the compact `? [999]: {…}`), written on one line, so it is reported.
 */
function collectionKeyStatus(s: Section, n: unknown): StatusRef | undefined {
  n = deref(s.doc, n).node;
  if (!isMap(n) && !isSeq(n)) return undefined;
  if (!n.range) return undefined;
  const inner = isMap(n) && !n.flow ? (n.items[0]?.key as Node | null | undefined) : undefined;
  const end = inner?.range && inner.range[1] > n.range[0] ? inner.range[1] : n.range[1];
  const text = s.text.slice(n.range[0], end).replace(/\s+/g, ' ').trim();
  const raw = text.length > 40 ? text.slice(0, 39) + '…' : flat(text);
  return { raw, value: raw, span: { start: s.base + n.range[0], end: s.base + end }, valid: false };
}

/** The compact explicit key `? [999]: {code: X}` with no value of its own: the key's one pair is the entry. */
function compactValue(s: Section, p: Pair): unknown {
  const k = deref(s.doc, p.key).node;
  const v = p.value as Node | null;
  if (isMap(k) && k.items.length === 1 && (v === null || (isScalar(v) && v.value === null && !v.range?.[2]))) return k.items[0]!.value;
  return p.value;
}

function mappingEntries(s: Section, r: Reached, out: MappingEntry[]): void {
  const p = r.pair;
  const status = statusRef(s, p.key) ?? collectionKeyStatus(s, p.key);
  if (!status) return;
  const value = status.valid || statusRef(s, p.key) ? p.value : compactValue(s, p);
  const one = (n: unknown, index: number | null, span: Span, viaAlias: boolean) => {
    const d = deref(s.doc, n);
    const node = isMap(d.node) ? d.node : undefined;
    const shared = viaAlias || d.shared;
    const f = entryFields(s, node, shared);
    const m: { -readonly [K in keyof MappingEntry]: MappingEntry[K] } = {
      status,
      index,
      entrySpan: span,
      section: s.index,
      node,
      code: f.code,
      template: f.template,
      templateNode: f.templateNode,
      condition: f.condition,
      details: f.details,
      detailsNode: f.detailsNode,
    };
    out.push(withShared(m, shared, f));
  };
  const v = deref(s.doc, value);
  const shared = r.shared || v.shared;
  if (isSeq(v.node)) v.node.items.forEach((it, i) => one(it, i, (it as Node)?.range ? spanOf(s, it as Node) : pairSpan(s, p), shared));
  else one(value, null, pairSpan(s, p), r.shared);
}

const HTTP_MAPS_TO = /^(?:GET|POST|PUT|PATCH|DELETE) \//;

function operationParams(s: Section, ops: Node | null, out: OperationParam[]): void {
  const lists: Node[] = [];
  if (isMap(ops))
    for (const p of ops.items) {
      if (isSeq(p.value)) lists.push(p.value);
    }
  else if (isSeq(ops)) lists.push(ops);
  for (const list of lists) {
    if (!isSeq(list)) continue;
    for (const op of list.items) {
      if (!isMap(op)) continue;
      const name = String(op.get('name') ?? '');
      for (const p of op.items) {
        const k = keyString(p);
        if (k === 'params' && isMap(p.value)) {
          for (const pp of p.value.items) {
            const pn = keyString(pp);
            if (pn === undefined || !(pp.key as Node).range) continue;
            const t = isMap(pp.value) ? pp.value.get('type') : undefined;
            out.push({ name: pn, span: spanOf(s, pp.key as Node), operation: name, type: typeof t === 'string' ? t : undefined });
          }
        } else if (
          k === 'maps_to' &&
          isScalar(p.value) &&
          typeof p.value.value === 'string' &&
          HTTP_MAPS_TO.test(p.value.value) &&
          p.value.range
        ) {
          const raw = s.text.slice(p.value.range[0], p.value.range[1]);
          for (const m of raw.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
            const start = s.base + p.value.range[0] + m.index;
            out.push({ name: m[1]!, span: { start, end: start + m[0].length }, operation: name });
          }
        }
      }
    }
  }
}
