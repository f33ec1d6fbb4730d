/** Go to definition, references and rename for custom codes (workspace-wide) and details keys. */
import type { Location, Position, Range, TextEdit, WorkspaceEdit } from 'vscode-languageserver-types';
import type { FeatureContext } from '../model/context';
import { nameSpan, targetAt, type Target } from './cursor';
import type { CodeDef, MappingEntry } from '../model/model';
import { CODE_NAME } from '../util/naming';
import { unquotedSpan } from '../util/quotes';
import { sourceText } from '../util/pieceText';
import { spanRange, toRange } from '../util/ranges';
import type { CodeOccurrence } from '../model/workspace';

export function codeOccurrences(ctx: FeatureContext): CodeOccurrence[] {
  const out: CodeOccurrence[] = [];
  // The text read at each key only (in pieces when the document is: re-indexing after typing makes no whole text).
  const text = sourceText(ctx.model);
  for (const c of ctx.model.codes)
    out.push({ uri: ctx.doc.uri, code: c.name, range: spanRange(ctx.doc, unquotedSpan(text, c.keySpan)), kind: 'declaration' });
  for (const m of ctx.model.mappings)
    if (m.code) out.push({ uri: ctx.doc.uri, code: m.code.value, range: spanRange(ctx.doc, nameSpan(m.code)), kind: 'reference' });
  return out;
}

function codeNameAt(t: Target | undefined): string | undefined {
  return t?.kind === 'codeKey' ? t.def.name : t?.kind === 'codeRef' ? t.name : undefined;
}

function allOccurrences(ctx: FeatureContext, code: string): CodeOccurrence[] {
  return [
    ...codeOccurrences(ctx).filter(o => o.code === code),
    ...ctx.workspace.occurrences(code, ctx.doc.uri).filter(o => o.uri !== ctx.doc.uri),
  ];
}

export function definition(ctx: FeatureContext, at: Position): Location[] {
  const t = targetAt(ctx.model, ctx.doc.offsetAt(at));
  if (t?.kind === 'placeholder') {
    const details = t.owner.kind === 'code' ? t.owner.def.details : t.owner.entry.details;
    const d = details.find(x => x.name === t.placeholder.name);
    if (d) return [{ uri: ctx.doc.uri, range: spanRange(ctx.doc, unquotedSpan(ctx.model.text, d.keySpan)) }];
    const owner = t.owner;
    if (owner.kind === 'mapping' && owner.entry.code) {
      const def = ctx.model.codes.find(c => c.name === owner.entry.code?.value);
      const dd = def?.details.find(x => x.name === t.placeholder.name);
      if (dd) return [{ uri: ctx.doc.uri, range: spanRange(ctx.doc, unquotedSpan(ctx.model.text, dd.keySpan)) }];
    }
    return [];
  }
  const code = codeNameAt(t);
  if (!code) return [];
  return allOccurrences(ctx, code)
    .filter(o => o.kind === 'declaration')
    .map(o => ({ uri: o.uri, range: o.range }));
}

export function references(ctx: FeatureContext, at: Position, includeDeclaration: boolean): Location[] {
  const t = targetAt(ctx.model, ctx.doc.offsetAt(at));
  if (t?.kind === 'detailKey' || t?.kind === 'placeholder') {
    const name = t.kind === 'detailKey' ? t.name : t.placeholder.name;
    return detailUses(ctx, t.owner, name, includeDeclaration).map(r => ({ uri: ctx.doc.uri, range: r }));
  }
  const code = codeNameAt(t);
  if (!code) return [];
  return allOccurrences(ctx, code)
    .filter(o => includeDeclaration || o.kind === 'reference')
    .map(o => ({ uri: o.uri, range: o.range }));
}

export function prepareRename(ctx: FeatureContext, at: Position): { range: Range; placeholder: string } | null {
  const t = targetAt(ctx.model, ctx.doc.offsetAt(at));
  if (!t) return null;
  if (t.kind === 'codeKey' || t.kind === 'codeRef') {
    const code = codeNameAt(t)!;
    const custom = ctx.model.codes.some(c => c.name === code) || ctx.workspace.declarations(code, ctx.doc.uri).length > 0;
    if (!custom) return null;
    return { range: toRange(ctx.doc, t.start, t.end), placeholder: code };
  }
  if (t.kind === 'detailKey') return { range: toRange(ctx.doc, t.start, t.end), placeholder: t.name };
  if (t.kind === 'placeholder') return { range: toRange(ctx.doc, t.start + 1, t.end - 1), placeholder: t.placeholder.name };
  return null;
}

export function rename(ctx: FeatureContext, at: Position, newName: string): WorkspaceEdit | null {
  const t = targetAt(ctx.model, ctx.doc.offsetAt(at));
  if (!t || !prepareRename(ctx, at)) return null;
  if (t.kind === 'codeKey' || t.kind === 'codeRef') {
    if (!CODE_NAME.test(newName)) return null;
    const changes: Record<string, TextEdit[]> = {};
    for (const o of allOccurrences(ctx, codeNameAt(t)!)) (changes[o.uri] ??= []).push({ range: o.range, newText: newName });
    return { changes };
  }
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(newName)) return null;
  if (t.kind !== 'detailKey' && t.kind !== 'placeholder') return null;
  const name = t.kind === 'detailKey' ? t.name : t.placeholder.name;
  const edits: TextEdit[] = [];
  const owner = t.owner;
  const decl = (owner.kind === 'code' ? owner.def.details : owner.entry.details).find(d => d.name === name);
  if (decl) edits.push({ range: spanRange(ctx.doc, unquotedSpan(ctx.model.text, decl.keySpan)), newText: newName });
  for (const p of templatesSeeing(ctx, owner))
    for (const ph of p.placeholders) {
      if (ph.name === name) edits.push({ range: toRange(ctx.doc, ph.span.start + 1, ph.span.end - 1), newText: newName });
    }
  return { changes: { [ctx.doc.uri]: edits } };
}

type Owner = { kind: 'code'; def: CodeDef } | { kind: 'mapping'; entry: MappingEntry };

/** The entry's template, and for a custom code every error_mapping template that targets it. */
function templatesSeeing(ctx: FeatureContext, owner: Owner) {
  const own = owner.kind === 'code' ? owner.def.template : owner.entry.template;
  const out = own ? [own] : [];
  if (owner.kind === 'code')
    for (const m of ctx.model.mappings) if (m.code?.value === owner.def.name && m.template && !m.details.length) out.push(m.template);
  return out;
}

function detailUses(ctx: FeatureContext, owner: Owner, name: string, includeDeclaration: boolean): Range[] {
  const out: Range[] = [];
  const decl = (owner.kind === 'code' ? owner.def.details : owner.entry.details).find(d => d.name === name);
  if (decl && includeDeclaration) out.push(spanRange(ctx.doc, unquotedSpan(ctx.model.text, decl.keySpan)));
  for (const t of templatesSeeing(ctx, owner)) for (const p of t.placeholders) if (p.name === name) out.push(spanRange(ctx.doc, p.span));
  return out;
}
