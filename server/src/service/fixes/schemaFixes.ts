/** Fixers for schema.unknown-key (closest allowed key) and schema.enum (closest allowed value). */
import type { EnumData, UnknownKeyData } from '../checks/schemaChecks';
import { action, single } from './edits';
import type { Fixer } from './types';

export const schemaFixers: Record<string, Fixer> = {
  'schema.unknown-key': (ctx, d) => {
    const data = d.data as UnknownKeyData | undefined;
    if (!data || ctx.doc.getText(d.range) !== data.key) return [];
    return data.suggestions.map((k, i) => action(`Change to '${k}'`, d, single(ctx.doc, [{ range: d.range, newText: k }]), i === 0));
  },
  'schema.enum': (ctx, d) => {
    const data = d.data as EnumData | undefined;
    if (!data || typeof data.value !== 'string' || !ctx.doc.getText(d.range).includes(data.value)) return [];
    return data.suggestions.map((v, i) => action(`Change to '${v}'`, d, single(ctx.doc, [{ range: d.range, newText: v }]), i === 0));
  },
};
