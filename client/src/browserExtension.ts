// activate/deactivate of the web extension (vscode.dev, github.dev; package.json "browser"): the same
// client features, with the server (dist/browser-server.js) in a Web Worker. Documents of any scheme
// (vscode-vfs, …) are checked; the server's workspace index holds the open documents only.
import * as vscode from 'vscode';
import { LanguageClient } from 'vscode-languageclient/browser';
import { activateWith } from './activateWith';
import { IsAdapter } from '../../server/src/protocol';
import { clientOptions, selectorPatterns } from './clientOptions';
import { send } from './requests';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  await activateWith(context, async output => {
    const worker = await serverWorker(context.extensionUri);
    const isAdapter = (uri: string) => (client ? send(client, IsAdapter.type, { uri }) : Promise.resolve(false));
    return (client = new LanguageClient(
      'mcpAql',
      'MCP-AQL Error Contracts',
      worker,
      clientOptions(selectorPatterns(), output, 'any', isAdapter),
    ));
  });
}

/**
 * The server's Web Worker. From an https: location (vscode.dev, the Marketplace CDN) by its URL;
 * otherwise (an extension installed on a remote, e.g. code-server with extensionKind "web", whose
 * vscode-remote: URLs the web extension host refuses for workers) from its bytes, read through the
 * workspace file system, as a blob: URL.
 */
async function serverWorker(root: vscode.Uri): Promise<Worker> {
  const script = vscode.Uri.joinPath(root, 'dist', 'browser-server.js');
  if (script.scheme === 'https' || script.scheme === 'http') return new Worker(script.toString(true));
  const bytes = await vscode.workspace.fs.readFile(script);
  return new Worker(URL.createObjectURL(new Blob([new TextDecoder().decode(bytes)], { type: 'text/javascript' })));
}

export function deactivate(): Thenable<void> | undefined {
  return client?.stop();
}
