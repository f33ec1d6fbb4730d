/** textDocument/codeAction: quick fixes for the diagnostics in range, and "Fix all" (source.fixAll.mcp-aql). */
import { CodeActionKind, type CodeAction, type CodeActionParams, type Diagnostic } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { FIX_ALL_KIND } from '../protocol';
import type { AdapterService, ServiceOptions } from '../service';
import type { ServerContext } from './context';

export function registerCodeActions(ctx: ServerContext): void {
  ctx.connection.onCodeAction(p => ctx.withDoc(p.textDocument.uri, [] as CodeAction[], (doc, o) => codeActions(ctx.service, doc, p, o)));
}

export function codeActions(service: AdapterService, doc: TextDocument, p: CodeActionParams, o: ServiceOptions): CodeAction[] {
  const only = p.context.only;
  const out: CodeAction[] = [];
  if (!only || only.some(k => k === CodeActionKind.QuickFix || CodeActionKind.QuickFix.startsWith(k + '.') || k === '')) {
    out.push(...service.quickFixes(doc, p.range, { ...p.context, diagnostics: withData(service, doc, p.context.diagnostics, o) }, o));
  }
  if (!only || only.some(k => FIX_ALL_KIND.startsWith(k) && k !== CodeActionKind.QuickFix)) {
    const edits = service.fixAll(doc, o);
    if (edits.length)
      out.push({
        title: `Fix all MCP-AQL problems (${edits.length} edit${edits.length === 1 ? '' : 's'})`,
        kind: FIX_ALL_KIND,
        edit: { changes: { [doc.uri]: edits } },
      });
  }
  return out;
}

/** Without dataSupport the client sends our diagnostics back without `data`: match them to fresh ones. */
function withData(service: AdapterService, doc: TextDocument, diagnostics: Diagnostic[], o: ServiceOptions): Diagnostic[] {
  if (!diagnostics.some(d => d.data === undefined)) return diagnostics;
  const fresh = service.validate(doc, o);
  return diagnostics.map(d => (d.data === undefined ? (fresh.find(f => f.code === d.code && sameRange(f, d)) ?? d) : d));
}

const sameRange = (a: Diagnostic, b: Diagnostic) =>
  a.range.start.line === b.range.start.line &&
  a.range.start.character === b.range.start.character &&
  a.range.end.line === b.range.end.line &&
  a.range.end.character === b.range.end.character;
