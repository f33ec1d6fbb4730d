/**
 * MCP-AQL: Compare Contract with… (docs/contract-diff.md): asks for a git revision (default HEAD), sends
 * `mcpAql/compareContract`, shows the markdown report in a read-only document (`mcp-aql-diff:`) and
 * each breaking change as a diagnostic on the line that made it (cleared by the next comparison).
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { CompareContract } from '../../../server/src/protocol';
import { send } from '../requests';
import { breakingByFile, DIFF_SCHEME, reportPath, revisionOf } from './diffDiagnostics';

export function registerCompareContract(context: vscode.ExtensionContext, client: BaseLanguageClient): void {
  const reports = new Map<string, string>();
  const changed = new vscode.EventEmitter<vscode.Uri>();
  const diagnostics = vscode.languages.createDiagnosticCollection('mcp-aql-contract-diff');
  const provider: vscode.TextDocumentContentProvider = {
    onDidChange: changed.event,
    provideTextDocumentContent: uri => reports.get(uri.path) ?? '',
  };
  context.subscriptions.push(
    changed,
    diagnostics,
    vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, provider),
    vscode.commands.registerCommand('mcpAql.compareContract', async (given?: unknown) => {
      const asked = revisionOf(
        typeof given === 'string'
          ? given
          : await vscode.window.showInputBox({
              title: 'MCP-AQL: Compare Contract with…',
              prompt: 'A git revision: the error contract of the workspace is compared with its files there',
              value: 'HEAD',
            }),
      );
      if (!asked) return;
      if ('error' in asked) return void vscode.window.showErrorMessage(`MCP-AQL: ${asked.error}`);
      let result;
      try {
        result = await send(client, CompareContract.type, { revision: asked.revision });
      } catch (e) {
        return void vscode.window.showErrorMessage(`MCP-AQL: cannot compare with ${asked.revision}: ${(e as Error).message}`);
      }
      diagnostics.clear();
      for (const [uri, list] of breakingByFile(result)) {
        diagnostics.set(
          vscode.Uri.parse(uri),
          list.map(d => {
            const r = d.range;
            const diag = new vscode.Diagnostic(
              new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character),
              d.message,
              vscode.DiagnosticSeverity.Error,
            );
            diag.code = d.code;
            diag.source = 'MCP-AQL diff';
            return diag;
          }),
        );
      }
      const uri = vscode.Uri.from({ scheme: DIFF_SCHEME, path: reportPath(asked.revision) });
      reports.set(uri.path, result.markdown);
      changed.fire(uri);
      // The path ends in .md: VS Code opens it as markdown (and its preview works on it); a content provider's document is read-only.
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc, { preview: false });
      return result;
    }),
  );
}
