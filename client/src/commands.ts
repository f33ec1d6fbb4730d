// Small commands (category "MCP-AQL"): Fix All and the walkthrough's example.
import * as vscode from 'vscode';
import { FIX_ALL_KIND } from '../../server/src/protocol';

export async function fixAll(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return;
  const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', editor.document.uri,
    new vscode.Range(0, 0, editor.document.lineCount, 0), FIX_ALL_KIND);
  const action = actions?.find(a => a.kind?.value === FIX_ALL_KIND && a.edit);
  if (!action?.edit) { void vscode.window.showInformationMessage('MCP-AQL: nothing to fix in this file.'); return; }
  await vscode.workspace.applyEdit(action.edit);
}

/** The walkthrough's first step: the bundled example in a new, unsaved YAML editor (nothing written to the workspace). */
export async function openExample(root: vscode.Uri): Promise<void> {
  const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(root, 'client', 'media', 'walkthrough', 'example.adapter.yaml'));
  const doc = await vscode.workspace.openTextDocument({ language: 'yaml', content: new TextDecoder().decode(bytes) });
  await vscode.window.showTextDocument(doc, { preview: false });
}
