/**
 * Moves extracted entries (and their YAML nodes) by `delta` offsets, in place. Used by the chunked
 * parse when a cached chunk lands at another offset after an edit above it. Objects shared between
 * entries (a status key of several list entries) are moved once.
 */
import { isMap, isPair, isSeq, type Node, type Pair } from 'yaml';
import type { CodeDef, MappingEntry, OperationParam, Span } from '../model/model';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export class Shifter {
  private readonly seen = new Set<object>();
  constructor(private readonly delta: number) {}

  span(s: Span | undefined): void {
    if (!s || this.seen.has(s)) return;
    this.seen.add(s);
    const m = s as Mutable<Span>;
    m.start += this.delta;
    m.end += this.delta;
  }

  node(n: Node | null | undefined): void {
    if (!n || this.seen.has(n)) return;
    this.seen.add(n);
    const r = n.range;
    if (r) { r[0] += this.delta; r[1] += this.delta; r[2] += this.delta; }
    if (isMap(n) || isSeq(n)) for (const it of n.items) { if (isPair(it)) this.pair(it); else this.node(it as Node | null); }
  }

  pair(p: Pair): void {
    this.node(p.key as Node | null);
    this.node(p.value as Node | null);
  }

  code(c: CodeDef): void {
    this.span(c.keySpan); this.span(c.entrySpan); this.span(c.category?.span); this.span(c.templateNode?.span);
    this.template(c.template); this.span(c.condition?.span);
    for (const st of c.mapsFromHttp) this.span(st.span);
    for (const d of c.details) { this.span(d.keySpan); this.span(d.pairSpan); }
  }

  mapping(m: MappingEntry): void {
    this.span(m.status.span); this.span(m.entrySpan); this.span(m.code?.span); this.span(m.templateNode?.span);
    this.template(m.template); this.span(m.condition?.span);
    for (const d of m.details) { this.span(d.keySpan); this.span(d.pairSpan); }
  }

  param(p: OperationParam): void { this.span(p.span); }

  private template(t: CodeDef['template']): void {
    if (!t) return;
    this.span(t.span);
    for (const p of t.placeholders) this.span(p.span);
    for (const p of t.malformed) this.span(p.span);
  }
}
