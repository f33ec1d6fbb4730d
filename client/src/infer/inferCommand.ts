/**
 * MCP-AQL: Infer Contract from Transcript… (docs/cli.md, "Inferring a contract"): the transcript is the
 * active `.jsonl` editor or a file picked; `mcpAql/inferContract` gives the adapter's text, opened
 * beside the transcript as an untitled `<transcript>.adapter.yaml` (checked like any adapter, so its
 * diagnostics show; nothing is written until the user saves it).
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { InferContract } from '../../../server/src/protocol';
import { send } from '../requests';
import { adapterNameFor, adapterPathFor } from './inferNames';

const isTranscript = (uri: vscode.Uri) => /\.(?:jsonl|ndjson)$/i.test(uri.path);

export function registerInferContract(context: vscode.ExtensionContext, client: BaseLanguageClient): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('mcpAql.inferContract', async (given?: unknown) => {
      const active = vscode.window.activeTextEditor?.document;
      let uri = given instanceof vscode.Uri ? given : active && isTranscript(active.uri) ? active.uri : undefined;
      if (!uri) {
        const picked = await vscode.window.showOpenDialog({
          title: 'MCP-AQL: Infer Contract from Transcript…',
          canSelectMany: false,
          filters: { 'JSON Lines transcripts': ['jsonl', 'ndjson'] },
        });
        uri = picked?.[0];
      }
      if (!uri) return;
      const open = vscode.workspace.textDocuments.find(d => d.uri.toString() === uri!.toString());
      const text = open ? open.getText() : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      let result;
      try {
        result = await send(client, InferContract.type, { text, name: adapterNameFor(uri.path) });
      } catch (e) {
        return void vscode.window.showErrorMessage(`MCP-AQL: cannot infer a contract: ${(e as Error).message}`);
      }
      if (!result.failures)
        return void vscode.window.showInformationMessage('MCP-AQL: the transcript holds no failed answer: nothing to infer.');
      const target = uri.with({ scheme: 'untitled', path: adapterPathFor(uri.path) });
      const doc = await vscode.workspace.openTextDocument(target);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(target, new vscode.Range(0, 0, doc.lineCount, 0), result.text);
      await vscode.workspace.applyEdit(edit);
      await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false });
      return result;
    }),
  );
}
