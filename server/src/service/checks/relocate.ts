/**
 * Moving a cached problem with its entry: every document offset it holds — start/end, related spans
 * in this document, and the offsets inside its `data` payload — shifts by the same delta. The offset
 * fields of each payload are declared here once, for every code that carries a payload (a new payload in
 * codes.ts `Payloads` fails type checking until it is listed, so an offset cannot be forgotten silently).
 */
import type { Payloads } from '../codes';
import type { Problem, RelatedSpan } from './types';

/** The keys of a payload whose values are numbers: the only candidates for an offset. */
type NumberKeys<T> = { [K in keyof T]-?: T[K] extends number ? K : never }[keyof T];

/** Per payload-carrying code: the payload fields that are offsets in this document. */
export const PAYLOAD_OFFSETS: { readonly [C in keyof Payloads]: readonly NumberKeys<Payloads[C]>[] } = {
  'yaml.syntax': [],
  'json.syntax': [],
  'yaml.duplicate-key': ['firstAt'],
  'yaml.alias-limit': [],
  'text.invalid-character': [],
  'file.too-large': [],
  'file.too-deep': [],
  'internal.rule-failure': [],
  'schema.required': [],
  'schema.type': [],
  'schema.unknown-key': [],
  'schema.enum': [],
  'code.name-format': [],
  'code.unknown-category': [],
  'code.category-prefix': [],
  'template.unknown-placeholder': ['entryAt'],
  'template.unused-detail': ['entryAt'],
  'template.invalid-detail-name': ['entryAt'],
  'template.unquoted-placeholder': [],
  'template.flow-mapping': ['entryAt'],
  'template.comment-cut': ['entryAt'],
  'mapping.unknown-code': ['entryAt'],
  'mapping.shadowed-status': [],
  'condition.unknown-root': [],
  'verify.unknown-code': [],
  'verify.is-error': [],
  'verify.message-mismatch': [],
  'verify.missing-detail': [],
  'verify.undeclared-detail': [],
  'verify.detail-type': [],
};

const shiftRelated = (r: RelatedSpan, delta: number): RelatedSpan =>
  r.uri !== undefined && r.range ? r : { ...r, start: r.start + delta, end: r.end + delta };

/** The problem moved by `delta` (a new object; the cached one is left as it was). */
export function shiftProblem(p: Problem, delta: number): Problem {
  if (delta === 0) return p;
  const out: Record<string, unknown> = { ...p, start: p.start + delta, end: p.end + delta };
  if (p.related) out.related = p.related.map(r => shiftRelated(r, delta));
  const fields = (PAYLOAD_OFFSETS as Record<string, readonly string[] | undefined>)[p.code];
  if (p.data !== undefined && fields?.length) {
    const data: Record<string, unknown> = { ...(p.data as object) };
    for (const f of fields) if (typeof data[f] === 'number') data[f] = (data[f] as number) + delta;
    out.data = data;
  }
  return out as unknown as Problem;
}

/** Every problem of a list moved by `delta` (the list itself when nothing moves). */
export const shiftAll = (ps: readonly Problem[], delta: number): readonly Problem[] =>
  delta === 0 || ps.length === 0 ? ps : ps.map(p => shiftProblem(p, delta));

/** Do all of the problems' offsets in this document lie within [lo, hi]? (Then they move with what spans it.) */
export function allWithin(ps: readonly Problem[], lo: number, hi: number): boolean {
  // Asked of every kept entry's problems on each validation of a big document: no closure or list made per call.
  for (const p of ps) {
    if (p.start < lo || p.start > hi || p.end < lo || p.end > hi) return false;
    if (p.related)
      for (const r of p.related)
        if (!(r.uri !== undefined && r.range) && (r.start < lo || r.start > hi || r.end < lo || r.end > hi)) return false;
    const fields = (PAYLOAD_OFFSETS as Record<string, readonly string[] | undefined>)[p.code];
    if (fields)
      for (const f of fields) {
        const v = (p.data as Record<string, unknown> | undefined)?.[f];
        if (typeof v === 'number' && (v < lo || v > hi)) return false;
      }
  }
  return true;
}
