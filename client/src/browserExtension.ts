// activate/deactivate of the web extension (vscode.dev, github.dev; package.json "browser"): the same
// client features, with the server (dist/browser-server.js) in a Web Worker. Documents of any scheme
// (vscode-vfs, …) are checked; the server's workspace index holds the open documents only.
import * as vscode from 'vscode';
import { LanguageClient } from 'vscode-languageclient/browser';
import { activateWith } from './activateWith';
import { clientOptions } from './clientOptions';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  await activateWith(context, (output, watcher) => {
    const worker = new Worker(vscode.Uri.joinPath(context.extensionUri, 'dist', 'browser-server.js').toString(true));
    const extra = vscode.workspace.getConfiguration('mcpAql').get<string[]>('files', []);
    return (client = new LanguageClient('mcpAql', 'MCP-AQL Error Contracts', worker, clientOptions(extra, output, watcher, 'any')));
  });
}

export function deactivate(): Thenable<void> | undefined {
  return client?.stop();
}
