/** Outline (never truncated), CodeLens "Preview envelope", and the declarations for the workspace index. */
import { SymbolKind, type CodeLens, type DocumentSymbol } from 'vscode-languageserver-types';
import type { FeatureContext } from '../model/context';
import type { Span } from '../model/model';
import { unquotedSpan } from '../util/quotes';
import { spanRange } from '../util/ranges';
import { categoryOf } from '../workspace/resolve';
import type { CodeDeclaration } from '../model/workspace';
import { sourceText } from '../util/pieceText';

export const PREVIEW_COMMAND = 'mcpAql.previewEnvelope';

export function documentSymbols(ctx: FeatureContext): DocumentSymbol[] {
  const { doc, model } = ctx;
  const out: DocumentSymbol[] = [];
  const block = (name: string, children: DocumentSymbol[]): DocumentSymbol | undefined => {
    if (!children.length) return undefined;
    const start = Math.min(...children.map(c => doc.offsetAt(c.range.start)));
    const end = Math.max(...children.map(c => doc.offsetAt(c.range.end)));
    const range = spanRange(doc, { start, end });
    return { name, kind: SymbolKind.Namespace, range, selectionRange: { start: range.start, end: range.start }, children };
  };
  const codes = model.codes.map(c => ({
    name: c.name,
    detail: categoryOf(c) ?? '',
    kind: SymbolKind.EnumMember,
    range: spanRange(doc, c.entrySpan),
    selectionRange: spanRange(doc, unquotedSpan(sourceText(model), c.keySpan)),
  }));
  const byStatus = new Map<number, DocumentSymbol>();
  const statuses: DocumentSymbol[] = [];
  for (const m of model.mappings) {
    let s = byStatus.get(m.status.span.start);
    if (!s) {
      const entryEnd = Math.max(m.entrySpan.end, m.status.span.end);
      s = {
        name: m.status.raw.replace(/^(["'])(.*)\1$/, '$2'),
        detail: m.index === null ? (m.code?.value ?? '') : '',
        kind: SymbolKind.Key,
        range: spanRange(doc, { start: m.status.span.start, end: entryEnd }),
        selectionRange: spanRange(doc, m.status.span),
        children: [],
      };
      byStatus.set(m.status.span.start, s);
      statuses.push(s);
    } else s.range = { start: s.range.start, end: spanRange(doc, m.entrySpan).end };
    if (m.index !== null) {
      s.children!.push({
        name: `[${m.index}] ${m.code?.value ?? '?'}`,
        detail: m.condition?.value ?? 'always',
        kind: SymbolKind.Object,
        range: spanRange(doc, m.entrySpan),
        selectionRange: spanRange(doc, m.entrySpan),
      });
    }
  }
  const a = block('error_codes', codes),
    b = block('error_mapping', statuses);
  if (a) out.push(a);
  if (b) out.push(b);
  return out;
}

export function codeLenses(ctx: FeatureContext): CodeLens[] {
  const { doc, model } = ctx;
  const lens = (span: Span, code: string | undefined): CodeLens => ({
    range: spanRange(doc, span),
    command: { title: 'Preview envelope', command: PREVIEW_COMMAND, arguments: [doc.uri, { code, offset: span.start }] },
  });
  const out = model.codes.map(c => lens(c.keySpan, c.name));
  const seen = new Set<number>();
  for (const m of model.mappings) {
    if (m.index === null || !seen.has(m.status.span.start)) {
      if (m.index === null) {
        seen.add(m.status.span.start);
        out.push(lens(m.status.span, m.code?.value));
      } else out.push(lens(m.entrySpan, m.code?.value));
    }
  }
  return out;
}

export function declaredCodes(ctx: FeatureContext): CodeDeclaration[] {
  return ctx.model.codes.map(c => ({
    uri: ctx.doc.uri,
    code: c.name,
    // The text read at the key only (in pieces when the document is: re-indexing after typing makes no whole text).
    range: spanRange(ctx.doc, unquotedSpan(sourceText(ctx.model), c.keySpan)),
    category: categoryOf(c),
    template: c.template?.value,
    description: c.description,
    details: c.details.map(d => ({ name: d.name, type: d.type, required: d.required, description: d.description })),
    mapsFromHttp: c.mapsFromHttp.map(s => s.value),
  }));
}
