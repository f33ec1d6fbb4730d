/** Fixers for condition.unknown-root: the closest root. */
import { action, single } from './edits';
import type { Fixers } from './types';

export const conditionsFixers: Fixers = {
  'condition.unknown-root': (ctx, d, data) => {
    if (ctx.doc.getText(d.range) !== data.root) return [];
    return data.suggestions.map((r, i) => action(`Change to '${r}'`, d, single(ctx.doc, [{ range: d.range, newText: r }]), i === 0));
  },
};
