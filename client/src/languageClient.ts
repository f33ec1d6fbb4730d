// The Node client: the server runs as a Node process over IPC.
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type ServerOptions } from 'vscode-languageclient/node';
import { IsAdapter, SERVER_ENV, SERVER_EXEC_ARGV } from '../../server/src/protocol';
import { clientOptions, selectorPatterns } from './clientOptions';
import { send } from './requests';

export function createClient(context: vscode.ExtensionContext, output: vscode.LogOutputChannel): LanguageClient {
  const module = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    // The client merges `env` into its own environment.
    run: { module, transport: TransportKind.ipc, options: { execArgv: [...SERVER_EXEC_ARGV], env: { ...SERVER_ENV } } },
    debug: {
      module,
      transport: TransportKind.ipc,
      options: { execArgv: [...SERVER_EXEC_ARGV, '--nolazy', '--inspect=6029'], env: { ...SERVER_ENV } },
    },
  };
  const client: LanguageClient = new LanguageClient(
    'mcpAql',
    'MCP-AQL Error Contracts',
    serverOptions,
    clientOptions(selectorPatterns(), output, undefined, uri => send(client, IsAdapter.type, { uri })),
  );
  return client;
}
