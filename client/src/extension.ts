// activate/deactivate (Node): start the LanguageClient and register everything else (activateWith).
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { activateWith } from './activateWith';
import { createClient } from './languageClient';
import { registerProbe } from './probe/probeCommand';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  await activateWith(context, output => {
    registerProbe(context, output); // Node only: it starts the bundled CLI and the server
    return (client = createClient(context, output));
  });
}

export function deactivate(): Thenable<void> | undefined {
  return client?.stop();
}
