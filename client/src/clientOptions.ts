// clientOptions: which documents the server sees (design s1) and the middleware that turns each
// diagnostic's documentation link into "Explain rule" (the bundled rule docs, opened in the editor).
// Shared by the Node client (languageClient.ts) and the browser client (browserExtension.ts).
import * as vscode from 'vscode';
import type { LanguageClientOptions } from 'vscode-languageclient';
import { explainCommandUri } from './docs/ruleDocs';
import { documentSelector } from './selector';

/** Point the code link of our diagnostics at the bundled rule documentation. */
export function withExplainLinks(ds: vscode.Diagnostic[]): vscode.Diagnostic[] {
  for (const d of ds) {
    if (d.source !== 'mcp-aql' || !d.code) continue;
    const value = typeof d.code === 'object' ? d.code.value : d.code;
    d.code = { value, target: vscode.Uri.parse(explainCommandUri(String(value))) };
  }
  return ds;
}

export function clientOptions(extra: readonly string[], output: vscode.LogOutputChannel, fileEvents: vscode.FileSystemWatcher | undefined, schemes?: readonly string[]): LanguageClientOptions {
  return {
    documentSelector: documentSelector(extra, schemes),
    synchronize: { configurationSection: 'mcpAql', ...(fileEvents ? { fileEvents } : {}) },
    outputChannel: output,
    traceOutputChannel: output,
    diagnosticCollectionName: 'mcp-aql',
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
