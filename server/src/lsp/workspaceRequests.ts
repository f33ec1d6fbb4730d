/** Custom requests about the whole workspace: mcpAql/validateWorkspace and mcpAql/registry. */
import type { Diagnostic } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { GetRegistry, ValidateWorkspace, type WorkspaceReport } from '../protocol';
import type { ServerContext } from './context';

export function registerWorkspaceRequests(ctx: ServerContext): void {
  ctx.connection.onRequest(GetRegistry.type, () => ctx.service.registry);
  ctx.connection.onRequest(ValidateWorkspace.type, () => validateWorkspace(ctx));
}

/** Every indexed file and every open document: open ones from their live text, the others from disk. */
export async function validateWorkspace(ctx: ServerContext): Promise<WorkspaceReport> {
  const { documents, indexer, service } = ctx;
  const problems: { uri: string; diagnostics: Diagnostic[] }[] = [];
  const uris = new Set([...indexer.index.uris(), ...documents.all().map(d => d.uri)]);
  for (const uri of uris) {
    const open = documents.get(uri);
    const o = await ctx.opts(uri);
    let doc = open;
    if (!doc) {
      const text = indexer.readText(uri, o);
      if (text === undefined) continue;
      doc = TextDocument.create(uri, 'yaml', 0, text);
    }
    if (!service.isAdapter(doc, o)) continue;
    const diagnostics = service.validate(doc, o, indexer.index.except(uri));
    if (diagnostics.length) problems.push({ uri, diagnostics });
    if (!open) service.forget(uri);
  }
  return { files: uris.size, problems };
}
