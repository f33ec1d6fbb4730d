/** Fixers for condition.unknown-root: the closest root (`request.body` → `response.body`). */
import { action, single } from './edits';
import { clearlyBest } from './schemaFixes';
import type { Fixers } from './types';

export const conditionsFixers: Fixers = {
  'condition.unknown-root': (ctx, d, data) => {
    if (ctx.doc.getText(d.range) !== data.root) return [];
    // `request.body` → `response.body` is read from the path's shape, not guessed from spelling.
    const best = (data.suggestions.length === 1 && data.suggestions[0] === 'response') || clearlyBest(data.root, data.suggestions);
    return data.suggestions.map((r, i) =>
      action(`Change to '${r}'`, d, single(ctx.doc, [{ range: d.range, newText: r }]), best && i === 0),
    );
  },
};
