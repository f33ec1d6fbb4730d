/**
 * schema.*: the structure of error_codes / error_mapping, from schemas/adapter.schema.json via ajv,
 * each error mapped back to the narrowest node (conventions C4).
 */
import type { ErrorObject } from 'ajv';
import type { Node } from 'yaml';
import { Code } from '../codes';
import { closest } from '../closest';
import type { Section } from '../model';
import { nodeAt } from '../pointer';
import type { Check, Problem } from './types';

export interface UnknownKeyData { readonly key: string; readonly allowed: readonly string[]; readonly suggestions: readonly string[] }
export interface EnumData { readonly value: unknown; readonly allowed: readonly unknown[]; readonly suggestions: readonly string[] }

export const schema: Check = {
  name: 'schema',
  run({ model, validateSchema }, emit) {
    for (const s of model.sections) {
      let js: unknown;
      try { js = s.doc.toJS({ maxAliasCount: 100 }); } catch { continue; } // alias bombs: yaml.alias-limit reports them
      if (!js || typeof js !== 'object' || Array.isArray(js)) continue;
      const o = js as Record<string, unknown>;
      if (o.error_codes === undefined && o.error_mapping === undefined) continue;
      if (validateSchema({ error_codes: o.error_codes, error_mapping: o.error_mapping })) continue;
      const seen = new Set<string>();
      for (const e of validateSchema.errors ?? []) {
        const p = toProblem(s, e);
        if (!p) continue;
        const k = `${p.code}:${p.start}:${p.end}`;
        if (!seen.has(k)) { seen.add(k); emit(p); }
      }
    }
  },
};

const at = (s: Section, n: Node | undefined): { start: number; end: number } | undefined =>
  n?.range ? { start: s.base + n.range[0], end: s.base + n.range[1] } : undefined;

function where(e: ErrorObject): string {
  const parts = e.instancePath.split('/').slice(1).map(x => x.replace(/~1/g, '/').replace(/~0/g, '~'));
  return parts.length ? parts.join('.') : 'the document';
}

function toProblem(s: Section, e: ErrorObject): Problem | undefined {
  if (e.keyword === 'if') return undefined;
  // Undefined blocks (error_codes: absent) were passed as undefined: not an error.
  const hit = nodeAt(s.doc.contents as Node | null, e.instancePath);
  switch (e.keyword) {
    case 'required': {
      const missing = (e.params as { missingProperty: string }).missingProperty;
      const span = at(s, hit.key) ?? at(s, hit.node);
      if (!span) return undefined;
      return { code: Code.SchemaRequired, ...span, message: `Missing required key '${missing}' in ${where(e)}.`, data: { missing } };
    }
    case 'additionalProperties': {
      const key = (e.params as { additionalProperty: string }).additionalProperty;
      const k = nodeAt(s.doc.contents as Node | null, `${e.instancePath}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`).key;
      const span = at(s, k);
      if (!span) return undefined;
      const allowed = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const suggestions = closest(key, allowed, 3);
      return {
        code: Code.SchemaUnknownKey, ...span,
        message: `Unknown key '${key}' in ${where(e)}${allowed.length ? ` (allowed: ${allowed.join(', ')})` : ''}.${suggestions.length ? ` Did you mean '${suggestions[0]}'?` : ''}`,
        data: { key, allowed, suggestions } satisfies UnknownKeyData,
      };
    }
    case 'enum': {
      const span = at(s, hit.node);
      if (!span) return undefined;
      const allowed = ((e.params as { allowedValues: unknown[] }).allowedValues ?? []).filter(v => v !== null);
      const value = e.data;
      const suggestions = typeof value === 'string' ? closest(value, allowed.map(String), 3) : [];
      return {
        code: Code.SchemaEnum, ...span,
        message: `${JSON.stringify(value)} is not allowed in ${where(e)}: one of ${allowed.map(String).join(', ')}.`,
        data: { value, allowed, suggestions } satisfies EnumData,
      };
    }
    default: {
      const span = at(s, hit.node) ?? at(s, hit.key);
      if (!span) return undefined;
      return { code: Code.SchemaType, ...span, message: `${where(e)} ${e.message ?? 'is invalid'}.` };
    }
  }
}
