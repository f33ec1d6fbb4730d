/** Typed sample values for details keys: deterministic, from the declared type, enum or example. */
import type { DetailField } from './types';

export const DEFAULT_NOW = '2026-01-01T00:00:00.000Z';

export interface DetailSpecLike {
  readonly name: string;
  readonly type?: string;
  readonly required?: boolean;
  readonly example?: unknown;
  readonly enum?: readonly unknown[];
  readonly format?: string;
}

export function sampleValue(spec: DetailSpecLike, now: string): { value: unknown; from: DetailField['from'] } {
  if (spec.example !== undefined) return { value: spec.example, from: 'example' };
  if (spec.enum?.length) return { value: spec.enum[0], from: 'enum' };
  const n = spec.name;
  const t = (spec.type ?? 'string').toLowerCase();
  if (spec.format === 'date-time' || /(_at|_time|^timestamp)$/.test(n))
    return { value: /expires?_at/.test(n) ? addMinutes(now, 5) : now, from: 'sample' };
  if (/token$/.test(n)) return { value: 'conf_example123', from: 'sample' };
  if (t === 'integer' || t === 'number')
    return { value: /status/.test(n) ? 404 : /seconds|retry/.test(n) ? 60 : /limit|threshold/.test(n) ? 100 : 3, from: 'sample' };
  if (t === 'boolean') return { value: true, from: 'sample' };
  if (t.endsWith('[]') || t === 'array')
    return { value: t.startsWith('object') ? [{}] : [`example_${singular(n)}_1`, `example_${singular(n)}_2`], from: 'sample' };
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

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function ofType(v: unknown, t: string): boolean {
  switch (t) {
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'object':
      return isObject(v);
    case 'array':
      return Array.isArray(v);
    default:
      if (t.endsWith('[]')) return Array.isArray(v) && v.every(x => ofType(x, t.slice(0, -2)));
      return true; // 'unknown', or a type the schema check already reports
  }
}

const article = (t: string) => (/^[aeiou]/.test(t) ? 'an' : 'a');
const shown = (v: unknown): string => {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? s.slice(0, 57) + '…' : s;
};

/**
 * Why a sample value does not fit its details key's declaration (type, then enum), or undefined when
 * it fits. A missing value is a problem only for a key declared `required: true`.
 */
export function sampleProblem(spec: DetailSpecLike, value: unknown): string | undefined {
  if (value === undefined || value === null) return spec.required ? `${spec.name} is required but has no value` : undefined;
  const t = (spec.type ?? 'unknown').toLowerCase();
  if (!ofType(value, t)) {
    const what = t.endsWith('[]') ? `a list of ${t.slice(0, -2)} values` : `${article(t)} ${t}`;
    return `${spec.name} is declared ${t}: ${shown(value)} is not ${what}`;
  }
  if (spec.enum?.length && !spec.enum.some(e => JSON.stringify(e) === JSON.stringify(value))) {
    return `${spec.name} must be one of ${spec.enum.map(shown).join(', ')}: got ${shown(value)}`;
  }
  return undefined;
}

/** A text value (an HTTP header, a form field) read as the declared type when it parses as one. */
export function coerce(text: string, type: string | undefined): unknown {
  const t = (type ?? 'string').toLowerCase();
  const s = text.trim();
  if ((t === 'integer' || t === 'number') && /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(s)) return Number(s);
  if (t === 'boolean' && (s === 'true' || s === 'false')) return s === 'true';
  return text;
}
