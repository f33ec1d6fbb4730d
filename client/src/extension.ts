// activate/deactivate: start the LanguageClient, register commands, the status bar and the preview view.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { fixAll, showRegistry, validateWorkspace } from './commands';
import { createClient } from './languageClient';
import { registerPreview } from './preview';
import { createStatusBar } from './statusBar';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('MCP-AQL', { log: true });
  const collection = vscode.languages.createDiagnosticCollection('mcp-aql-workspace');
  client = createClient(context, output);
  const c = client;
  context.subscriptions.push(
    output, collection,
    vscode.commands.registerCommand('mcpAql.validateWorkspace', () => validateWorkspace(c, collection)),
    vscode.commands.registerCommand('mcpAql.showRegistry', () => showRegistry(c)),
    vscode.commands.registerCommand('mcpAql.fixAll', () => fixAll()),
    vscode.commands.registerCommand('mcpAql.restartServer', async () => { await c.restart(); output.info('language server restarted'); }),
  );
  createStatusBar(context, c);
  registerPreview(context, c);
  await c.start();
}

export function deactivate(): Thenable<void> | undefined {
  return client?.stop();
}
