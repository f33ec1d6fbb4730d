/**
 * What is at an offset, for hover, navigation and the envelope previews: the code key, code value,
 * category, placeholder, status or condition under it (`targetAt`), and the entry that holds it
 * (`entryAt`). What completion completes there is slot.ts.
 */
import type { AdapterModel, CodeDef, MappingEntry, Placeholder, StatusRef } from '../model/model';
import { unquotedSpan } from '../util/quotes';

export type Target =
  | { readonly kind: 'codeKey'; readonly def: CodeDef; readonly start: number; readonly end: number }
  | { readonly kind: 'codeRef'; readonly entry: MappingEntry; readonly name: string; readonly start: number; readonly end: number }
  | { readonly kind: 'category'; readonly def: CodeDef; readonly start: number; readonly end: number }
  | {
      readonly kind: 'placeholder';
      readonly owner: { kind: 'code'; def: CodeDef } | { kind: 'mapping'; entry: MappingEntry };
      readonly placeholder: Placeholder;
      readonly start: number;
      readonly end: number;
    }
  | {
      readonly kind: 'detailKey';
      readonly owner: { kind: 'code'; def: CodeDef } | { kind: 'mapping'; entry: MappingEntry };
      readonly name: string;
      readonly start: number;
      readonly end: number;
    }
  | {
      readonly kind: 'status';
      readonly status: StatusRef;
      readonly owner: CodeDef | MappingEntry;
      readonly start: number;
      readonly end: number;
    };

const inSpan = (s: { start: number; end: number }, o: number) => o >= s.start && o <= s.end;

/** Strip quotes from a code value's span so ranges cover the name only. */
export function nameSpan(v: { span: { start: number; end: number }; style: string }): { start: number; end: number } {
  return v.style === 'single' || v.style === 'double' ? { start: v.span.start + 1, end: v.span.end - 1 } : v.span;
}

export function targetAt(model: AdapterModel, offset: number): Target | undefined {
  for (const def of model.codes) {
    if (!inSpan(def.entrySpan, offset)) continue;
    if (inSpan(def.keySpan, offset)) return { kind: 'codeKey', def, ...unquotedSpan(model.text, def.keySpan) };
    if (def.category && inSpan(def.category.span, offset)) return { kind: 'category', def, ...def.category.span };
    for (const p of def.template?.placeholders ?? [])
      if (inSpan(p.span, offset)) return { kind: 'placeholder', owner: { kind: 'code', def }, placeholder: p, ...p.span };
    for (const d of def.details)
      if (inSpan(d.keySpan, offset))
        return { kind: 'detailKey', owner: { kind: 'code', def }, name: d.name, ...unquotedSpan(model.text, d.keySpan) };
    for (const s of def.mapsFromHttp) if (inSpan(s.span, offset)) return { kind: 'status', status: s, owner: def, ...s.span };
  }
  for (const entry of model.mappings) {
    if (inSpan(entry.status.span, offset)) return { kind: 'status', status: entry.status, owner: entry, ...entry.status.span };
    if (!inSpan(entry.entrySpan, offset)) continue;
    if (entry.code && inSpan(entry.code.span, offset)) return { kind: 'codeRef', entry, name: entry.code.value, ...nameSpan(entry.code) };
    for (const p of entry.template?.placeholders ?? [])
      if (inSpan(p.span, offset)) return { kind: 'placeholder', owner: { kind: 'mapping', entry }, placeholder: p, ...p.span };
    for (const d of entry.details)
      if (inSpan(d.keySpan, offset))
        return { kind: 'detailKey', owner: { kind: 'mapping', entry }, name: d.name, ...unquotedSpan(model.text, d.keySpan) };
  }
  return undefined;
}

/** The error_codes entry or error_mapping entry whose span holds the offset. */
export function entryAt(
  model: AdapterModel,
  offset: number,
): { kind: 'code'; def: CodeDef } | { kind: 'mapping'; entry: MappingEntry } | undefined {
  let best: { kind: 'code'; def: CodeDef } | { kind: 'mapping'; entry: MappingEntry } | undefined;
  let size = Infinity;
  for (const def of model.codes)
    if (inSpan(def.entrySpan, offset) && def.entrySpan.end - def.entrySpan.start < size) {
      best = { kind: 'code', def };
      size = def.entrySpan.end - def.entrySpan.start;
    }
  for (const entry of model.mappings)
    if (inSpan(entry.entrySpan, offset) && entry.entrySpan.end - entry.entrySpan.start < size) {
      best = { kind: 'mapping', entry };
      size = entry.entrySpan.end - entry.entrySpan.start;
    }
  return best;
}
