/** Typed sample values for details keys: deterministic, from the declared type, enum or example. */
import type { DetailField } from './types';

export const DEFAULT_NOW = '2026-01-01T00:00:00.000Z';

export interface DetailSpecLike { readonly name: string; readonly type?: string; readonly required?: boolean; readonly example?: unknown; readonly enum?: readonly unknown[]; readonly format?: string }

export function sampleValue(spec: DetailSpecLike, now: string): { value: unknown; from: DetailField['from'] } {
  if (spec.example !== undefined) return { value: spec.example, from: 'example' };
  if (spec.enum?.length) return { value: spec.enum[0], from: 'enum' };
  const n = spec.name;
  const t = (spec.type ?? 'string').toLowerCase();
  if (spec.format === 'date-time' || /(_at|_time|^timestamp)$/.test(n)) return { value: /expires?_at/.test(n) ? addMinutes(now, 5) : now, from: 'sample' };
  if (/token$/.test(n)) return { value: 'conf_example123', from: 'sample' };
  if (t === 'integer' || t === 'number') return { value: /status/.test(n) ? 404 : /seconds|retry/.test(n) ? 60 : /limit|threshold/.test(n) ? 100 : 3, from: 'sample' };
  if (t === 'boolean') return { value: true, from: 'sample' };
  if (t.endsWith('[]') || t === 'array') return { value: t.startsWith('object') ? [{}] : [`example_${singular(n)}_1`, `example_${singular(n)}_2`], from: 'sample' };
  if (t === 'object') return { value: {}, from: 'sample' };
  return { value: `example_${n}`, from: 'sample' };
}

const singular = (n: string) => n.replace(/s$/, '');

function addMinutes(iso: string, m: number): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : new Date(t + m * 60_000).toISOString();
}

/** A value as it appears in a rendered message. */
export function display(v: unknown, join = ', '): string {
  if (v === undefined || v === null) return '';
  if (Array.isArray(v)) return v.map(x => display(x)).join(join);
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}
