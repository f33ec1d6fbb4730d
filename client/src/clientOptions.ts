// clientOptions: which documents the server sees (design s1) and the middleware that turns each
// diagnostic's documentation link into "Explain rule" (the bundled rule docs, opened in the editor).
// Shared by the Node client (languageClient.ts) and the browser client (browserExtension.ts).
import * as vscode from 'vscode';
import { CloseAction, ErrorAction, type ErrorHandler, type LanguageClientOptions } from 'vscode-languageclient';
import { explainCommandUri } from './docs/ruleDocs';
import { documentSelector, RESPONSE_PATTERNS } from './selector';
import { setting } from './settings';

/** Point the code link of our diagnostics at the bundled rule documentation. */
export function withExplainLinks(ds: vscode.Diagnostic[]): vscode.Diagnostic[] {
  for (const d of ds) {
    if (d.source !== 'mcp-aql' || !d.code) continue;
    const value = typeof d.code === 'object' ? d.code.value : d.code;
    d.code = { value, target: vscode.Uri.parse(explainCommandUri(String(value))) };
  }
  return ds;
}

/**
 * Keep the server running: a write that fails while a killed server is being noticed is not a reason
 * to shut down (the default handler gives up after three), and a closed connection restarts the
 * server, up to 4 times in 3 minutes.
 */
function errorHandler(now = () => Date.now()): ErrorHandler {
  let closes: number[] = [];
  return {
    error: () => ({ action: ErrorAction.Continue }),
    closed: () => {
      closes = [...closes.filter(t => now() - t < 180_000), now()];
      return closes.length <= 4
        ? { action: CloseAction.Restart }
        : {
            action: CloseAction.DoNotRestart,
            message:
              'The MCP-AQL language server stopped 5 times in 3 minutes and will not be restarted. Run "MCP-AQL: Restart Language Server" to try again.',
          };
    },
  };
}

/** The globs beyond YAML, JSON and Markdown the selector must name: mcpAql.files, recorded responses, mcpAql.responseFiles. */
export const selectorPatterns = (): string[] => [...setting('mcpAql.files'), ...RESPONSE_PATTERNS, ...setting('mcpAql.responseFiles')];

export function clientOptions(
  extra: readonly string[],
  output: vscode.LogOutputChannel,
  schemes?: readonly string[] | 'any',
): LanguageClientOptions {
  return {
    documentSelector: documentSelector(extra, schemes),
    // Settings changes are sent to the server (it re-reads them and re-scans). No client-side file
    // watcher: the server registers one (workspace/didChangeWatchedFiles) itself.
    synchronize: { configurationSection: 'mcpAql' },
    outputChannel: output,
    traceOutputChannel: output,
    diagnosticCollectionName: 'mcp-aql',
    errorHandler: errorHandler(),
    middleware: {
      handleDiagnostics: (uri, ds, next) => next(uri, withExplainLinks(ds)),
      provideDiagnostics: async (doc, previous, token, next) => {
        const report = await next(doc, previous, token);
        if (report && report.kind === 'full') withExplainLinks(report.items);
        return report;
      },
    },
  };
}
