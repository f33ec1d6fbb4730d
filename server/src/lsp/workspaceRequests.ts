/**
 * Custom requests about the whole workspace: mcpAql/validateWorkspace (every indexed file and every
 * open document, through the shared node/workspacePass path, in slices that yield to other requests,
 * with progress and cancellation) and mcpAql/registry.
 */
import type { CancellationToken, Diagnostic, WorkDoneProgressServerReporter } from 'vscode-languageserver/node';
import { GetRegistry, ValidateWorkspace, type WorkspaceReport } from '../protocol';
import type { ServiceOptions } from '../service';
import { validateFiles } from '../node/workspacePass';
import type { ServerContext } from './context';
import { SLICE_MS } from './workspaceIndexer';

export function registerWorkspaceRequests(ctx: ServerContext): void {
  ctx.connection.onRequest(GetRegistry.type, () => ctx.service.registry);
  ctx.connection.onRequest(ValidateWorkspace.type, token => validateWorkspace(ctx, token));
}

/** Every indexed file and every open document: open ones from their live text, the others from disk. */
export async function validateWorkspace(ctx: ServerContext, token?: CancellationToken): Promise<WorkspaceReport> {
  const { documents, indexer, service } = ctx;
  // Every file, against every declaration: not a report of the part the first scan has read so far.
  await indexer.whenComplete();
  const uris = [...new Set([...indexer.index.uris(), ...documents.all().map(d => d.uri)])];
  const options = new Map<string, ServiceOptions>();
  for (const uri of uris) options.set(uri, await ctx.opts(uri));
  const progress = ctx.features().workDoneProgress
    ? await ctx.connection.window.createWorkDoneProgress().catch(() => undefined)
    : undefined;
  progress?.begin('MCP-AQL: validating the workspace', 0, `0/${uris.length} files`, true);
  const cancelled = () => !!token?.isCancellationRequested || !!progress?.token.isCancellationRequested || ctx.isDown();
  const problems: { uri: string; diagnostics: Diagnostic[] }[] = [];
  let done = 0,
    adapters = 0,
    sliceStart = Date.now(),
    shown = 0;
  try {
    for (const r of validateFiles(
      service,
      uris,
      u => indexer.readText(u, options.get(u)!),
      u => options.get(u)!,
      u => documents.get(u),
    )) {
      done++;
      adapters++; // validateFiles yields adapter files only: an open package.json is not counted
      if (r.diagnostics.length) problems.push({ uri: r.uri, diagnostics: r.diagnostics });
      if (Date.now() - sliceStart >= SLICE_MS) {
        if (Date.now() - shown >= 250) {
          shown = Date.now();
          report(progress, done, uris.length);
        }
        await new Promise(res => setImmediate(res));
        if (cancelled()) break;
        sliceStart = Date.now();
      }
    }
  } finally {
    progress?.done();
  }
  return { files: adapters, problems, ...(cancelled() ? { cancelled: true } : {}) };
}

function report(p: WorkDoneProgressServerReporter | undefined, done: number, total: number): void {
  p?.report(Math.floor((done / Math.max(total, 1)) * 100), `${done}/${total} files`);
}
