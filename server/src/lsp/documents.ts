/** Open documents: each event feeds the diagnostics scheduler and the indexing, in that order. */
import type { ServerContext } from './context';
import type { DocumentIndexing } from './indexing';
import { baseName, timeline } from './timeline';

export function registerDocuments(ctx: ServerContext, indexing: DocumentIndexing): void {
  const { documents, scheduler, service } = ctx;
  documents.onDidOpen(e => {
    timeline(ctx.log, `server didOpen ${baseName(e.document.uri)}`);
    indexing.opened(e.document);
    scheduler.schedule(e.document.uri, true);
  });
  documents.onDidChangeContent(e => {
    scheduler.schedule(e.document.uri);
    indexing.changed(e.document);
  });
  documents.onDidClose(e => {
    scheduler.closed(e.document.uri);
    service.forget(e.document.uri);
    indexing.closed(e.document.uri);
  });
  ctx.connection.languages.diagnostics.on(async p => {
    timeline(ctx.log, `server pull ${baseName(p.textDocument.uri)}`);
    const items = await scheduler.pull(p.textDocument.uri);
    timeline(ctx.log, `server pull-answered ${baseName(p.textDocument.uri)} ${items.length}`);
    return { kind: 'full', items };
  });
}
