// The Node client: the server runs as a Node process over IPC.
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type ServerOptions } from 'vscode-languageclient/node';
import { clientOptions, selectorPatterns } from './clientOptions';

export function createClient(context: vscode.ExtensionContext, output: vscode.LogOutputChannel): LanguageClient {
  const module = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6029'] } },
  };
  return new LanguageClient('mcpAql', 'MCP-AQL Error Contracts', serverOptions, clientOptions(selectorPatterns(), output));
}
