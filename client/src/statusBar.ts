// A status-bar item: the server's state, and the problem count of the active adapter file.
import * as vscode from 'vscode';
import { State, type LanguageClient } from 'vscode-languageclient/node';

export function createStatusBar(context: vscode.ExtensionContext, client: LanguageClient): vscode.StatusBarItem {
  const item = vscode.window.createStatusBarItem('mcpAql.status', vscode.StatusBarAlignment.Right, 100);
  item.name = 'MCP-AQL';
  item.command = 'workbench.actions.view.problems';
  const update = () => {
    const editor = vscode.window.activeTextEditor;
    if (client.state !== State.Running) { item.text = '$(sync~spin) MCP-AQL'; item.tooltip = 'MCP-AQL language server is starting or stopped'; item.show(); return; }
    const ds = editor ? vscode.languages.getDiagnostics(editor.document.uri).filter(d => d.source === 'mcp-aql') : [];
    const errors = ds.filter(d => d.severity === vscode.DiagnosticSeverity.Error).length;
    item.text = ds.length ? `$(error) MCP-AQL ${errors}/${ds.length}` : '$(check) MCP-AQL';
    item.tooltip = `MCP-AQL: ${errors} error(s), ${ds.length} problem(s) in this file`;
    item.show();
  };
  context.subscriptions.push(item, client.onDidChangeState(update), vscode.languages.onDidChangeDiagnostics(update), vscode.window.onDidChangeActiveTextEditor(update));
  update();
  return item;
}
