/**
 * Editor support beyond the standard LSP features: the `mcpAql/isAdapter` request (the client's
 * `mcpAql.isAdapter` context key and language status), and re-indexing the workspace when the
 * settings change (a new `mcpAql.files` glob takes effect without a restart).
 */
import { IsAdapter } from '../protocol';
import type { ServerContext } from './context';
import { toServiceOptions } from './settings';

export function registerEditorSupport(ctx: ServerContext): void {
  ctx.connection.onRequest(IsAdapter.type, p => ctx.withDoc(p.uri, false, (doc, o) => ctx.service.isAdapter(doc, o)));
}

/**
 * After a settings change (once the first scan is complete): scan the folders again with the new options (files that stop matching
 * leave the index, new matches join it) and re-index the open documents. Their cached models are rebuilt
 * only if the options that shape a model changed (mcpAql.files, maxFileSize: the model cache compares them):
 * an editor sends its settings as it starts, and dropping a large file's model then cost a second whole
 * parse and a second first run of the checks right after the open. Returns the number of adapter files in
 * the index — the figure the log and Validate Workspace both report.
 */
export async function reindexWorkspace(ctx: ServerContext): Promise<number> {
  // One scan at a time: an editor sends its settings as it starts, while the first scan runs; this one then
  // finds most files indexed with the same text and options, and skips them (node/workspacePass.ts).
  await ctx.indexer.whenComplete();
  const folders = ctx.folders();
  const editor = toServiceOptions(await ctx.settings.forUri(folders[0] ?? 'file:///'));
  // Like the first scan, it lets the open documents' validations go first.
  await ctx.indexer.scan(folders, uri => ctx.withConfig(uri, editor), { stopped: ctx.isDown, yieldTo: () => ctx.scheduler.idle() });
  for (const doc of ctx.documents.all()) ctx.indexer.updateDocument(doc, await ctx.opts(doc.uri));
  return ctx.indexer.index.size;
}
