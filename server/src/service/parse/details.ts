/** The `details` of an error_codes or error_mapping entry: a mapping of keys (a type, or a spec), or a list of names. */
import type { Node, Pair } from 'yaml';
import type { DetailDecl, Section } from '../model/model';
import { deref, effectivePairs } from './aliases';
import { trimmed } from './flat';
import { keyString, pairSpan, readsMerges, spanOf, toJSON } from './nodeRead';
import { isMap, isScalar, isSeq } from './yamlNodes';

export function details(s: Section, node: unknown, sharedEntry: boolean): DetailDecl[] {
  const out: DetailDecl[] = [];
  const d = deref(s.doc, node);
  const n = d.node,
    sharedAll = sharedEntry || d.shared;
  if (isMap(n)) {
    if (readsMerges(n)) for (const { pair, shared } of effectivePairs(s.doc, n, sharedAll)) detail(s, pair, shared, out);
    else for (const pair of n.items) detail(s, pair, sharedAll, out);
  } else if (isSeq(n)) {
    for (const it of n.items) {
      const r = deref(s.doc, it),
        item = r.node;
      if (isScalar(item) && typeof item.value === 'string' && item.range) {
        const span = spanOf(s, item);
        out.push({ name: item.value, keySpan: span, pairSpan: { ...span }, ...(sharedAll || r.shared ? { shared: true } : {}) });
      }
    }
  }
  return trimmed(out);
}

/** One pair of a details mapping (its keys in the order they always had: the spec's, then name, spans, shared). */
function detail(s: Section, p: Pair, shared: boolean, out: DetailDecl[]): void {
  const name = keyString(p);
  if (name === undefined || !(p.key as Node).range) return;
  const v = deref(s.doc, p.value).node;
  const keySpan = spanOf(s, p.key as Node),
    span = pairSpan(s, p);
  let decl: { -readonly [K in keyof DetailDecl]: DetailDecl[K] };
  if (isScalar(v) && typeof v.value === 'string') decl = { type: v.value, name, keySpan, pairSpan: span };
  else if (isMap(v)) {
    const js = (toJSON(v) ?? {}) as Record<string, unknown>;
    decl = {
      type: typeof js.type === 'string' ? js.type : undefined,
      required: typeof js.required === 'boolean' ? js.required : undefined,
      description: typeof js.description === 'string' ? js.description : undefined,
      example: js.example,
      enum: Array.isArray(js.enum) ? js.enum : undefined,
      name,
      keySpan,
      pairSpan: span,
    };
  } else decl = { name, keySpan, pairSpan: span };
  if (shared) decl.shared = true;
  out.push(decl);
}
