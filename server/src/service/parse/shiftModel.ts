/**
 * What moves when a cached chunk lands at another offset after an edit above it: every node range of
 * its pairs and every span of what was extracted from it, each once (a status key's span is shared by
 * the entries of its list). Collected once per chunk, so moving a chunk is one loop over numbers.
 */
import type { Node, Pair, Schema } from 'yaml';
import { isMap, isPair, isScalar, isSeq } from './yamlNodes';
import type { Span } from '../model/model';
import type { Extracted } from './extract';
import { trimmed } from './flat';

/** One schema for the collections of every chunk (the composer gives each chunk's document its own). */
let shared: Schema | undefined;
/** The shared schema when `s` is made from the same options (chunks are always parsed with buildModel's). */
const sameSchema = (s: Schema): Schema =>
  (shared ??= s).name === s.name && shared.tags.length === s.tags.length && shared.compat === s.compat ? shared : s;

/**
 * While it walks the nodes, it also trims what a kept chunk holds: a quoted scalar's value, which the
 * parser builds one character at a time (a rope of one string object per character), is flattened;
 * collections share one schema instead of keeping their chunk's, and their item lists are trimmed.
 */
export function collectRanges(pairs: readonly Pair[]): number[][] {
  const out: number[][] = [];
  const seen = new Set<object>();
  const node = (n: Node | null | undefined): void => {
    if (!n || seen.has(n)) return;
    seen.add(n);
    if (n.range) out.push(n.range as unknown as number[]);
    if (isScalar(n)) {
      if (typeof n.value === 'string') void n.value.charCodeAt(0);
    } else if (isMap(n) || isSeq(n)) {
      const c = n as { schema?: Schema; items: unknown[] };
      if (c.schema) c.schema = sameSchema(c.schema);
      // Filled by push, so with room for 17 items: an exact copy is smaller.
      c.items = c.items.slice();
      for (const it of n.items) {
        if (isPair(it)) pair(it);
        else node(it as Node | null);
      }
    }
  };
  const pair = (p: Pair): void => {
    node(p.key as Node | null);
    node(p.value as Node | null);
  };
  for (const p of pairs) pair(p);
  // Kept with the chunk: filled by push, so with room for 17; an entry has about 15 ranges.
  return trimmed(out);
}

export function collectSpans(x: Extracted): Span[] {
  const out: Span[] = [];
  // Each span once: a short list is searched (an entry has about a dozen), a long one uses a set.
  let seen: Set<Span> | undefined;
  const span = (sp: Span | undefined) => {
    if (!sp) return;
    if (seen) {
      if (seen.has(sp)) return;
      seen.add(sp);
    } else if (out.includes(sp)) return;
    else if (out.length === 64) seen = new Set(out).add(sp);
    out.push(sp);
  };
  const template = (t: { span: Span; placeholders: readonly { span: Span }[]; malformed: readonly { span: Span }[] } | undefined) => {
    if (!t) return;
    span(t.span);
    for (const p of t.placeholders) span(p.span);
    for (const p of t.malformed) span(p.span);
  };
  const details = (ds: readonly { keySpan: Span; pairSpan: Span }[]) => {
    for (const d of ds) {
      span(d.keySpan);
      span(d.pairSpan);
    }
  };
  for (const c of x.codes) {
    span(c.keySpan);
    span(c.entrySpan);
    span(c.category?.span);
    span(c.templateNode?.span);
    template(c.template);
    span(c.condition?.span);
    for (const st of c.mapsFromHttp) span(st.span);
    details(c.details);
  }
  for (const m of x.mappings) {
    span(m.status.span);
    span(m.entrySpan);
    span(m.code?.span);
    span(m.templateNode?.span);
    template(m.template);
    span(m.condition?.span);
    details(m.details);
  }
  for (const p of x.params) span(p.span);
  // Kept with the chunk: filled by push, so with room for 17; an entry has about 11 spans (a 14 MiB adapter: 4 MB).
  return trimmed(out);
}
