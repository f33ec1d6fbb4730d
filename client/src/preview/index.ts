// Registers the Error Envelope Preview view, its commands, and cursor following.
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import type { LanguageClient } from 'vscode-languageclient/node';
import { PreviewView } from './previewView';

export function registerPreview(context: vscode.ExtensionContext, client: BaseLanguageClient): PreviewView {
  const view = new PreviewView(context.extensionUri, client as LanguageClient);
  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider(PreviewView.id, view),
    vscode.window.onDidChangeTextEditorSelection(() => view.followEditor()),
    vscode.window.onDidChangeActiveTextEditor(() => view.followEditor()),
    vscode.workspace.onDidChangeTextDocument(e => { if (e.document === vscode.window.activeTextEditor?.document) view.followEditor(300); }),
    vscode.commands.registerCommand('mcpAql.previewEnvelope', async (uri?: string, at?: { code?: string; offset?: number }) => {
      const editor = vscode.window.activeTextEditor;
      const target = typeof uri === 'string' ? uri : editor?.document.uri.toString();
      if (!target) { void vscode.window.showInformationMessage('MCP-AQL: open an adapter file to preview its error envelopes.'); return; }
      await view.show(target, at?.code, at?.offset ?? (editor && target === editor.document.uri.toString() ? editor.document.offsetAt(editor.selection.active) : undefined));
    }),
    vscode.commands.registerCommand('mcpAql.refreshPreview', () => view.refresh()),
  );
  return view;
}
