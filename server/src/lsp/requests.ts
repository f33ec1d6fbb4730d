/** Editor features on one open document: one line each, the service does the work. */
import { PreviewEnvelope, Simulate } from '../protocol';
import type { ServerContext } from './context';

export function registerRequests(ctx: ServerContext): void {
  const { connection: c, service: s, withDoc } = ctx;
  const f = () => ctx.features();
  c.onCompletion(p =>
    withDoc(p.textDocument.uri, { isIncomplete: false, items: [] }, (doc, o) =>
      s.completeList(doc, p.position, o, { snippets: f().snippets, markdown: f().markdownCompletion }),
    ),
  );
  c.onHover(p => withDoc(p.textDocument.uri, null, (doc, o) => s.hover(doc, p.position, o, { markdown: f().markdownHover })));
  c.onDefinition(p => withDoc(p.textDocument.uri, [], (doc, o) => s.definition(doc, p.position, o)));
  c.onReferences(p => withDoc(p.textDocument.uri, [], (doc, o) => s.references(doc, p.position, p.context.includeDeclaration, o)));
  c.onPrepareRename(p => withDoc(p.textDocument.uri, null, (doc, o) => s.prepareRename(doc, p.position, o)));
  c.onRenameRequest(p => withDoc(p.textDocument.uri, null, (doc, o) => s.rename(doc, p.position, p.newName, o)));
  c.onDocumentSymbol(p => withDoc(p.textDocument.uri, [], (doc, o) => s.documentSymbols(doc, o)));
  c.onCodeLens(async p =>
    (await ctx.settings.forUri(p.textDocument.uri)).codeLens.enabled
      ? withDoc(p.textDocument.uri, [], (doc, o) => s.codeLenses(doc, o))
      : [],
  );
  c.onRequest(PreviewEnvelope.type, p =>
    withDoc(
      p.uri,
      null,
      (doc, o) =>
        s.preview(doc, { position: p.position, code: p.code, samples: p.samples, mirrorConfirmation: p.mirrorConfirmation }, o) ?? null,
    ),
  );
  c.onRequest(Simulate.type, p =>
    withDoc(p.uri, null, (doc, o) =>
      s.simulate(
        doc,
        {
          status: p.status,
          position: validPosition(p.position),
          body: p.body,
          headers: p.headers,
          params: p.params,
          samples: p.samples,
          mirrorConfirmation: p.mirrorConfirmation,
        },
        o,
      ),
    ),
  );
}

/** A position from the wire, or undefined when it is not two non-negative integers. */
function validPosition(p: unknown): { line: number; character: number } | undefined {
  const o = p as { line?: unknown; character?: unknown } | null | undefined;
  return o && Number.isInteger(o.line) && Number.isInteger(o.character) && (o.line as number) >= 0 && (o.character as number) >= 0
    ? { line: o.line as number, character: o.character as number }
    : undefined;
}
