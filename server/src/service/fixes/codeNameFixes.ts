/** Fixers for code.*: rename a code everywhere it is written; pick a category. */
import type { TextEdit, WorkspaceEdit } from 'vscode-languageserver-types';
import type { FeatureContext } from '../model/context';
import { spanRange } from '../util/ranges';
import { action, single } from './edits';
import { clearlyBest } from './schemaFixes';
import { replaceScalar, syntaxOf, unquotedSpan, unquotedText } from './syntax';
import type { Fixer, Fixers } from './types';

/** Every place `from` is written as a code in this file and, through the workspace, in others. */
function renameCodeEdit(ctx: FeatureContext, from: string, to: string): WorkspaceEdit {
  const here: TextEdit[] = [];
  for (const c of ctx.model.codes)
    if (c.name === from) here.push({ range: spanRange(ctx.doc, unquotedSpan(ctx.model.text, c.keySpan)), newText: to });
  for (const m of ctx.model.mappings) {
    if (m.code?.value !== from) continue;
    const quoted = m.code.style === 'single' || m.code.style === 'double';
    const s = quoted ? { start: m.code.span.start + 1, end: m.code.span.end - 1 } : m.code.span;
    here.push({ range: spanRange(ctx.doc, s), newText: to });
  }
  const changes: Record<string, TextEdit[]> = { [ctx.doc.uri]: here };
  for (const o of ctx.workspace.occurrences(from, ctx.doc.uri)) {
    if (o.uri === ctx.doc.uri) continue;
    (changes[o.uri] ??= []).push({ range: o.range, newText: to });
  }
  return { changes };
}

/** A rename onto a code this file or the workspace already declares would merge two codes: not offered. */
const taken = (ctx: FeatureContext, name: string): boolean =>
  ctx.model.codes.some(c => c.name === name) || ctx.workspace.declarations(name).some(x => x.uri !== ctx.doc.uri);

const nameFormat: Fixer<'code.name-format'> = (ctx, d, data) => {
  if (unquotedText(ctx.doc, d.range) !== data.name || taken(ctx, data.suggestion)) return [];
  return [action(`Rename to '${data.suggestion}' (every use)`, d, renameCodeEdit(ctx, data.name, data.suggestion), true)];
};

const unknownCategory: Fixer<'code.unknown-category'> = (ctx, d, data) => {
  if (unquotedText(ctx.doc, d.range) !== data.value) return [];
  const best = clearlyBest(data.value, data.suggestions);
  return data.suggestions.map((c, i) =>
    action(`Change category to ${c}`, d, single(ctx.doc, [replaceScalar(ctx.doc, d.range, c, syntaxOf(ctx.model))]), best && i === 0),
  );
};

const categoryPrefix: Fixer<'code.category-prefix'> = (ctx, d, data) => {
  if (unquotedText(ctx.doc, d.range) !== data.name) return [];
  const out = taken(ctx, data.renameTo)
    ? []
    : [action(`Rename to '${data.renameTo}' (every use)`, d, renameCodeEdit(ctx, data.name, data.renameTo), !data.prefixCategory)];
  if (data.prefixCategory) {
    const def = ctx.model.codes.find(c => c.name === data.name && c.keySpan.start === ctx.doc.offsetAt(d.range.start));
    if (def?.category) {
      out.push(
        action(
          `Change category to ${data.prefixCategory}`,
          d,
          single(ctx.doc, [replaceScalar(ctx.doc, spanRange(ctx.doc, def.category.span), data.prefixCategory, syntaxOf(ctx.model))]),
          true,
        ),
      );
    }
  }
  return out;
};

export const codeNamesFixers: Fixers = {
  'code.name-format': nameFormat,
  'code.unknown-category': unknownCategory,
  'code.category-prefix': categoryPrefix,
};
