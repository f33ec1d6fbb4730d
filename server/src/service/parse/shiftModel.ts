/**
 * What moves when a cached chunk lands at another offset after an edit above it: every node range of
 * its pairs and every span of what was extracted from it, each once (a status key's span is shared by
 * the entries of its list). Collected once per chunk, so moving a chunk is one loop over numbers.
 */
import { isMap, isPair, isSeq, type Node, type Pair } from 'yaml';
import type { Span } from '../model/model';
import type { Extracted } from './extract';

export function collectRanges(pairs: readonly Pair[]): number[][] {
  const out: number[][] = [];
  const seen = new Set<object>();
  const node = (n: Node | null | undefined): void => {
    if (!n || seen.has(n)) return;
    seen.add(n);
    if (n.range) out.push(n.range as unknown as number[]);
    if (isMap(n) || isSeq(n))
      for (const it of n.items) {
        if (isPair(it)) pair(it);
        else node(it as Node | null);
      }
  };
  const pair = (p: Pair): void => {
    node(p.key as Node | null);
    node(p.value as Node | null);
  };
  for (const p of pairs) pair(p);
  return out;
}

export function collectSpans(x: Extracted): Span[] {
  const out: Span[] = [];
  const seen = new Set<Span>();
  const span = (s: Span | undefined) => {
    if (s && !seen.has(s)) {
      seen.add(s);
      out.push(s);
    }
  };
  const template = (t: { span: Span; placeholders: readonly { span: Span }[]; malformed: readonly { span: Span }[] } | undefined) => {
    if (!t) return;
    span(t.span);
    for (const p of t.placeholders) span(p.span);
    for (const p of t.malformed) span(p.span);
  };
  for (const c of x.codes) {
    span(c.keySpan);
    span(c.entrySpan);
    span(c.category?.span);
    span(c.templateNode?.span);
    template(c.template);
    span(c.condition?.span);
    for (const st of c.mapsFromHttp) span(st.span);
    for (const d of c.details) {
      span(d.keySpan);
      span(d.pairSpan);
    }
  }
  for (const m of x.mappings) {
    span(m.status.span);
    span(m.entrySpan);
    span(m.code?.span);
    span(m.templateNode?.span);
    template(m.template);
    span(m.condition?.span);
    for (const d of m.details) {
      span(d.keySpan);
      span(d.pairSpan);
    }
  }
  for (const p of x.params) span(p.span);
  return out;
}
