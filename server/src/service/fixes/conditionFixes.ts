/** Fixers for condition.unknown-root: the closest root (`request.body` → `response.body`). */
import type { UnknownRootData } from '../checks/conditionChecks';
import { action, single } from './edits';
import { clearlyBest } from './schemaFixes';
import type { Fixer } from './types';

export const conditionsFixers: Record<string, Fixer> = {
  'condition.unknown-root': (ctx, d) => {
    const data = d.data as UnknownRootData | undefined;
    if (!data || ctx.doc.getText(d.range) !== data.root) return [];
    // `request.body` → `response.body` is read from the path's shape, not guessed from spelling.
    const best = data.suggestions.length === 1 && data.suggestions[0] === 'response' || clearlyBest(data.root, data.suggestions);
    return data.suggestions.map((r, i) => action(`Change to '${r}'`, d, single(ctx.doc, [{ range: d.range, newText: r }]), best && i === 0));
  },
};
