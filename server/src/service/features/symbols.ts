/** Outline (never truncated), CodeLens "Preview envelope", and the declarations for the workspace index. */
import { SymbolKind, type CodeLens, type DocumentSymbol } from 'vscode-languageserver-types';
import type { FeatureContext } from '../model/context';
import type { CodeDef, Span } from '../model/model';
import { unquotedSpan } from '../util/quotes';
import { spanRange } from '../util/ranges';
import { categoryOf } from '../workspace/resolve';
import type { CodeDeclaration } from '../model/workspace';
import { sourceText } from '../util/pieceText';

export const PREVIEW_COMMAND = 'mcpAql.previewEnvelope';

export function documentSymbols(ctx: FeatureContext): DocumentSymbol[] {
  return outline(ctx, false);
}

/**
 * The outline as it goes on the wire: what `documentSymbols` answers once serialised (JSON.stringify), with each
 * code's symbol made only when it is serialised (its `toJSON`), so the 10,000 symbols of a large file (about 4 MB
 * of objects, promoted to old space while the answer is written) never live all at once: each is young garbage as
 * soon as it is written (bench/NOTES.md, "eighth sitting"). Not for reading in-process: the codes' entries hold
 * only `toJSON`. test/service/symbolsOnWire.test.ts compares the two.
 */
export function documentSymbolsOnWire(ctx: FeatureContext): DocumentSymbol[] {
  return outline(ctx, true);
}

/** A code's outline symbol, made when serialised (documentSymbolsOnWire). */
class CodeSymbolOnWire {
  constructor(
    private readonly ctx: FeatureContext,
    private readonly c: CodeDef,
  ) {}
  toJSON(): DocumentSymbol {
    return codeSymbol(this.ctx, this.c);
  }
}

function codeSymbol({ doc, model }: FeatureContext, c: CodeDef): DocumentSymbol {
  return {
    name: c.name,
    detail: categoryOf(c) ?? '',
    kind: SymbolKind.EnumMember,
    range: spanRange(doc, c.entrySpan),
    selectionRange: spanRange(doc, unquotedSpan(sourceText(model), c.keySpan)),
  };
}

function outline(ctx: FeatureContext, onWire: boolean): DocumentSymbol[] {
  const { doc, model } = ctx;
  const out: DocumentSymbol[] = [];
  /** `children` spanning [start, end] (offsets of their ranges' ends, as the document reads them back). */
  const block = (name: string, children: DocumentSymbol[], start: number, end: number): DocumentSymbol | undefined => {
    if (!children.length) return undefined;
    const range = spanRange(doc, { start, end });
    return { name, kind: SymbolKind.Namespace, range, selectionRange: { start: range.start, end: range.start }, children };
  };
  /** An offset as the document gives it back from its position (a range's end read with offsetAt). */
  const roundTrip = (offset: number) => doc.offsetAt(doc.positionAt(offset));
  let codesStart = Infinity,
    codesEnd = -Infinity;
  const codes: DocumentSymbol[] = [];
  for (const c of model.codes) {
    codesStart = Math.min(codesStart, roundTrip(c.entrySpan.start));
    codesEnd = Math.max(codesEnd, roundTrip(c.entrySpan.end));
    codes.push(onWire ? (new CodeSymbolOnWire(ctx, c) as unknown as DocumentSymbol) : codeSymbol(ctx, c));
  }
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
  const a = block('error_codes', codes, codesStart, codesEnd),
    b = block(
      'error_mapping',
      statuses,
      Math.min(...statuses.map(c => doc.offsetAt(c.range.start))),
      Math.max(...statuses.map(c => doc.offsetAt(c.range.end))),
    );
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
