/**
 * Editor support beyond the standard LSP features: the `mcpAql/isAdapter` request (the client's
 * `mcpAql.isAdapter` context key and language status), and re-indexing the workspace when the
 * settings change (a new `mcpAql.files` glob takes effect without a restart).
 */
import type { Connection, TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { IsAdapter } from '../protocol';
import type { AdapterService, ServiceOptions } from '../service';
import type { WorkspaceIndexer } from './workspaceIndexer';

export interface EditorSupportDeps {
  readonly connection: Connection;
  readonly service: AdapterService;
  readonly documents: TextDocuments<TextDocument>;
  readonly indexer: WorkspaceIndexer;
  readonly opts: (uri: string) => Promise<ServiceOptions>;
}

export function registerEditorSupport(d: EditorSupportDeps): void {
  d.connection.onRequest(IsAdapter.type, async p => {
    const doc = d.documents.get(p.uri);
    if (!doc) return false;
    try { return d.service.isAdapter(doc, await d.opts(p.uri)); } catch { return false; }
  });
}

/**
 * After a settings change: scan the folders again with the new options (files that stop matching
 * leave the index, new matches join it), drop the open documents' cached models and re-index them. Returns the number of
 * adapter files in the index — the figure the log and Validate Workspace both report.
 */
export async function reindexWorkspace(d: EditorSupportDeps, folders: readonly string[]): Promise<number> {
  d.indexer.scan(folders, await d.opts(folders[0] ?? 'file:///'));
  for (const doc of d.documents.all()) {
    d.service.forget(doc.uri); // the cached model was built with the old options (mcpAql.files, maxFileSize)
    d.indexer.updateDocument(doc, await d.opts(doc.uri));
  }
  return d.indexer.index.uris().length;
}
