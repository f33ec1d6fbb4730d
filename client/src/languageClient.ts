// The Node client: the server runs as a Node process over IPC, forked by the client's loader before the bundle loaded
// (earlyServer.ts), or by the client's start (a restart, a process gone, none forked).
import { statSync } from 'node:fs';
import * as vscode from 'vscode';
import { IPCMessageReader, IPCMessageWriter, LanguageClient, State, TransportKind, type ServerOptions } from 'vscode-languageclient/node';
import { IsAdapter, SERVER_ENV, SERVER_EXEC_ARGV } from '../../server/src/protocol';
import { clientOptions, selectorPatterns } from './clientOptions';
import { debugging, forkServer } from './earlyServer';
import { send } from './requests';
import { ServerOwner } from './serverOwner';
import { timeline } from './timeline';

/** Where vscode-languageclient runs a server it forks: the first workspace folder, when it is a folder on disk. */
function workingFolder(): string | undefined {
  const uri = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (uri?.scheme !== 'file') return undefined;
  return statSync(uri.fsPath, { throwIfNoEntry: false })?.isDirectory() ? uri.fsPath : undefined;
}

export function createClient(context: vscode.ExtensionContext, output: vscode.LogOutputChannel): LanguageClient {
  const module = context.asAbsolutePath('dist/server.js');
  const owner = new ServerOwner(output);
  // Under a debugger (the loader forked nothing): the client forks the debug server itself, as it always did.
  const serverOptions: ServerOptions = debugging()
    ? {
        // The client merges `env` into its own environment.
        run: { module, transport: TransportKind.ipc, options: { execArgv: [...SERVER_EXEC_ARGV], env: { ...SERVER_ENV } } },
        debug: {
          module,
          transport: TransportKind.ipc,
          options: { execArgv: [...SERVER_EXEC_ARGV, '--nolazy', '--inspect=6029'], env: { ...SERVER_ENV } },
        },
      }
    : () => {
        const { process: server, early } = owner.next(() => forkServer(module, workingFolder()));
        if (early) {
          output.info(
            `the language server's process was forked by the loader, ${Date.now() - early.forkedAt} ms before the client's start`,
          );
          timeline(output, `client server-taken forked=${early.forkedAt}`);
        }
        return Promise.resolve({ reader: new IPCMessageReader(server), writer: new IPCMessageWriter(server) });
      };
  const client: LanguageClient = new LanguageClient(
    'mcpAql',
    'MCP-AQL Error Contracts',
    serverOptions,
    clientOptions(selectorPatterns(), output, undefined, uri => send(client, IsAdapter.type, { uri })),
  );
  client.onDidChangeState(e => {
    if (e.newState === State.Stopped) owner.stopped();
  });
  return client;
}
