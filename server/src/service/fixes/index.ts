/** Dispatches code actions on the diagnostic's `code` (never on its message). */
import {
  CodeActionKind,
  type CodeAction,
  type CodeActionContext,
  type Diagnostic,
  type Range,
  type TextEdit,
} from 'vscode-languageserver-types';
import { isCode, SOURCE, type Code } from '../codes';
import type { FeatureContext } from '../model/context';
import type { Span } from '../model/model';
import { brokenSpans } from '../parse/brokenText';
import { overlaps } from '../util/ranges';
import { codeNamesFixers } from './codeNameFixes';
import { conditionsFixers } from './conditionFixes';
import { mappingsFixers } from './mappingFixes';
import { schemaFixers } from './schemaFixes';
import { templatesFixers } from './templateFixes';
import { disableForLine } from './disableLine';
import { fixAllAction } from './fixAllPolicy';
import type { Fixer, Fixers } from './types';

const fixers: Fixers = { ...schemaFixers, ...codeNamesFixers, ...templatesFixers, ...mappingsFixers, ...conditionsFixers };

/**
 * The actions of the fixer for `d`'s code. The one place where `Diagnostic.data` (untyped on the
 * wire) meets its type: the code names the payload (codes.ts), the checks emit it by that type.
 */
function actionsFor(ctx: FeatureContext, d: Diagnostic): CodeAction[] {
  if (d.source !== SOURCE || !isCode(d.code)) return [];
  const fixer = fixers[d.code] as Fixer<Code> | undefined;
  if (!fixer || typeof d.data !== 'object' || d.data === null) return [];
  try {
    return fixer(ctx, d, d.data as never);
  } catch {
    return []; /* a failing fixer offers nothing; the diagnostic stays */
  }
}

/**
 * `actions` minus those on broken text (test/service/fixesOnBrokenText.test.ts): an action whose diagnostic or one of whose
 * edits touches a reported syntax error or a malformed placeholder. What such text means is unknown
 * (YAML quote escaping written into a JSON string, quotes around half of `{{x}}`), so nothing is
 * offered there; the syntax error is fixed first.
 */
function awayFromBroken(ctx: FeatureContext, d: Diagnostic, actions: CodeAction[], broken: () => readonly Span[]): CodeAction[] {
  if (!actions.length || !broken().length) return actions;
  const touches = (s: number, e: number) => broken().some(b => s <= b.end && b.start <= e);
  const at = (r: Range): [number, number] => [ctx.doc.offsetAt(r.start), ctx.doc.offsetAt(r.end)];
  if (touches(...at(d.range))) return [];
  return actions.filter(a => {
    const edits: TextEdit[] = [...(a.edit?.changes?.[ctx.doc.uri] ?? [])];
    for (const dc of a.edit?.documentChanges ?? [])
      if ('edits' in dc && dc.textDocument.uri === ctx.doc.uri) edits.push(...(dc.edits as TextEdit[]));
    return !edits.some(e => touches(...at(e.range)));
  });
}

/** The broken spans of the document, computed once and only when asked. */
const lazyBroken = (ctx: FeatureContext): (() => readonly Span[]) => {
  let spans: Span[] | undefined;
  return () => (spans ??= brokenSpans(ctx.model));
};

/** Codes a comment may disable: not the file-level ones, nor a suppression's own report. */
const DISABLEABLE = (c: Code): boolean => c !== 'file.too-large' && c !== 'internal.rule-failure' && c !== 'suppression.unused';

const wantsQuickFix = (only: readonly string[] | undefined): boolean =>
  !only || only.some(k => k === CodeActionKind.QuickFix || CodeActionKind.QuickFix.startsWith(k + '.') || k === '');

export function quickFixes(ctx: FeatureContext, range: Range, context: CodeActionContext): CodeAction[] {
  if (!wantsQuickFix(context.only)) return [];
  const out: CodeAction[] = [];
  const broken = lazyBroken(ctx);
  for (const d of context.diagnostics) {
    if (!overlaps(d.range, range)) continue;
    out.push(...awayFromBroken(ctx, d, actionsFor(ctx, d), broken));
    const disable = d.source === SOURCE && isCode(d.code) && DISABLEABLE(d.code) ? disableForLine(ctx, d, d.code) : undefined;
    if (disable) out.push(...awayFromBroken(ctx, d, [disable], broken));
  }
  return out;
}

/**
 * "Fix all": the edits of every safe fix (fixAllPolicy.ts: quoting, an unambiguous closest key,
 * category, enum value or root) whose edits touch only this document and do not overlap an earlier
 * one, and none on broken text (awayFromBroken). Never renames, removes or inserts into templates. Applying them and re-checking may reveal
 * more; callers may repeat.
 */
export function fixAll(ctx: FeatureContext, diagnostics: readonly Diagnostic[]): TextEdit[] {
  const chosen: TextEdit[] = [];
  const offsetsTaken: [number, number][] = [];
  const broken = lazyBroken(ctx);
  for (const d of diagnostics) {
    if (!isCode(d.code) || typeof d.data !== 'object' || d.data === null) continue;
    const changes = fixAllAction(d.code, awayFromBroken(ctx, d, actionsFor(ctx, d), broken), d.data as never)?.edit?.changes;
    if (!changes || Object.keys(changes).some(u => u !== ctx.doc.uri)) continue;
    const edits = changes[ctx.doc.uri] ?? [];
    const spans = edits.map(e => [ctx.doc.offsetAt(e.range.start), ctx.doc.offsetAt(e.range.end)] as [number, number]);
    const clash = spans.some(([s, e]) =>
      offsetsTaken.some(([ts, te]) => (s < te && ts < e) || (s === e && s >= ts && s <= te) || (ts === te && ts >= s && ts <= e)),
    );
    if (clash) continue;
    offsetsTaken.push(...spans);
    chosen.push(...edits);
  }
  return chosen;
}
