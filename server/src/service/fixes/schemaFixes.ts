/** Fixers for schema.unknown-key (closest allowed key) and schema.enum (closest allowed value). */
import { action, single } from './edits';
import type { Fixers } from './types';

export const schemaFixers: Fixers = {
  'schema.unknown-key': (ctx, d, data) => {
    if (ctx.doc.getText(d.range) !== data.key) return [];
    return data.suggestions.map((k, i) => action(`Change to '${k}'`, d, single(ctx.doc, [{ range: d.range, newText: k }]), i === 0));
  },
  'schema.enum': (ctx, d, data) => {
    if (typeof data.value !== 'string' || !ctx.doc.getText(d.range).includes(data.value)) return [];
    return data.suggestions.map((v, i) => action(`Change to '${v}'`, d, single(ctx.doc, [{ range: d.range, newText: v }]), i === 0));
  },
};
