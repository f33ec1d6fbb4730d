// serverOptions and clientOptions: which files the server sees (design s1), and how it runs.
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';

export const ADAPTER_PATTERNS = ['**/*-adapter.md', '**/*.adapter.{yaml,yml,json}', '**/*-adapter.{yaml,yml}'];

export function createClient(context: vscode.ExtensionContext, output: vscode.LogOutputChannel): LanguageClient {
  const module = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6029'] } },
  };
  const extra = vscode.workspace.getConfiguration('mcpAql').get<string[]>('files', []);
  const clientOptions: LanguageClientOptions = {
    // YAML and JSON files of any name: the server sniffs their content and answers an empty list for
    // files that are not adapters. Markdown only by the adapter name (and mcpAql.files).
    documentSelector: [
      { scheme: 'file', language: 'yaml' }, { scheme: 'untitled', language: 'yaml' },
      { scheme: 'file', language: 'json' },
      { scheme: 'file', language: 'markdown', pattern: '**/*-adapter.md' },
      ...extra.map(pattern => ({ scheme: 'file', pattern })),
      // Recorded responses checked live against the adapters (verify): JSON Lines and mcpAql.responseFiles.
      ...['**/*.responses.jsonl', ...vscode.workspace.getConfiguration('mcpAql').get<string[]>('responseFiles', [])].map(pattern => ({ scheme: 'file', pattern })),
    ],
    // No client-side file watcher: the server registers one (workspace/didChangeWatchedFiles) itself.
    outputChannel: output,
    traceOutputChannel: output,
    diagnosticCollectionName: 'mcp-aql',
  };
  return new LanguageClient('mcpAql', 'MCP-AQL Error Contracts', serverOptions, clientOptions);
}
