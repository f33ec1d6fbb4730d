/** Dispatches code actions on the diagnostic's `code` (never on its message). */
import { CodeActionKind, type CodeAction, type CodeActionContext, type Diagnostic, type Range, type TextEdit } from 'vscode-languageserver-types';
import { SOURCE } from '../codes';
import type { FeatureContext } from '../model/context';
import { overlaps } from '../util/ranges';
import { codeNamesFixers } from './codeNameFixes';
import { conditionsFixers } from './conditionFixes';
import { mappingsFixers } from './mappingFixes';
import { schemaFixers } from './schemaFixes';
import { templatesFixers } from './templateFixes';
import type { Fixer } from './types';

const fixers: Record<string, Fixer> = { ...schemaFixers, ...codeNamesFixers, ...templatesFixers, ...mappingsFixers, ...conditionsFixers };

const wantsQuickFix = (only: readonly string[] | undefined): boolean =>
  !only || only.some(k => k === CodeActionKind.QuickFix || CodeActionKind.QuickFix.startsWith(k + '.') || k === '');

export function quickFixes(ctx: FeatureContext, range: Range, context: CodeActionContext): CodeAction[] {
  if (!wantsQuickFix(context.only)) return [];
  const out: CodeAction[] = [];
  for (const d of context.diagnostics) {
    if (d.source !== SOURCE || !overlaps(d.range, range) || typeof d.code !== 'string') continue;
    const fixer = fixers[d.code];
    if (!fixer) continue;
    try { out.push(...fixer(ctx, d)); } catch { /* a failing fixer offers nothing; the diagnostic stays */ }
  }
  return out;
}

/**
 * The edits of every preferred fix whose edits touch only this document and do not overlap an
 * earlier one ("Fix all"). Applying them and re-checking may reveal more; callers may repeat.
 */
export function fixAll(ctx: FeatureContext, diagnostics: readonly Diagnostic[]): TextEdit[] {
  const chosen: TextEdit[] = [];
  const offsetsTaken: [number, number][] = [];
  for (const d of diagnostics) {
    const fixer = typeof d.code === 'string' ? fixers[d.code] : undefined;
    if (!fixer) continue;
    let actions: CodeAction[] = [];
    try { actions = fixer(ctx, d); } catch { continue; }
    const preferred = actions.find(a => a.isPreferred);
    const changes = preferred?.edit?.changes;
    if (!changes || Object.keys(changes).some(u => u !== ctx.doc.uri)) continue;
    const edits = changes[ctx.doc.uri] ?? [];
    const spans = edits.map(e => [ctx.doc.offsetAt(e.range.start), ctx.doc.offsetAt(e.range.end)] as [number, number]);
    const clash = spans.some(([s, e]) => offsetsTaken.some(([ts, te]) => s < te && ts < e || (s === e && s >= ts && s <= te) || (ts === te && ts >= s && ts <= e)));
    if (clash) continue;
    offsetsTaken.push(...spans);
    chosen.push(...edits);
  }
  return chosen;
}
