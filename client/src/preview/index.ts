// Registers the Error Envelope Preview (side bar view and editor panel), its commands, and cursor following.
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { PreviewPanel } from './previewPanel';
import { PreviewView } from './previewView';

type Target = { uri: string; code?: string; offset?: number } | undefined;

/** The file (and code or cursor offset) a preview command is about: its arguments, else the active editor. */
function target(uri?: unknown, at?: { code?: string; offset?: number }): Target {
  const editor = vscode.window.activeTextEditor;
  const t = typeof uri === 'string' ? uri : uri instanceof vscode.Uri ? uri.toString() : editor?.document.uri.toString();
  if (!t) {
    void vscode.window.showInformationMessage('MCP-AQL: open an adapter file to preview its error envelopes.');
    return undefined;
  }
  const offset =
    at?.offset ?? (editor && t === editor.document.uri.toString() ? editor.document.offsetAt(editor.selection.active) : undefined);
  return { uri: t, code: at?.code, offset };
}

export function registerPreview(context: vscode.ExtensionContext, client: BaseLanguageClient): { view: PreviewView; panel: PreviewPanel } {
  const view = new PreviewView(context.extensionUri, client);
  const panel = new PreviewPanel(context.extensionUri, client);
  const sessions = () => [view.session, panel.session].filter(s => s !== undefined);
  const follow = (delay?: number) => {
    for (const s of sessions()) s.followEditor(delay);
  };
  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider(PreviewView.id, view),
    vscode.window.registerWebviewPanelSerializer(PreviewPanel.viewType, panel),
    vscode.window.onDidChangeTextEditorSelection(() => follow()),
    vscode.window.onDidChangeActiveTextEditor(() => follow()),
    vscode.workspace.onDidChangeTextDocument(e => {
      if (e.document === vscode.window.activeTextEditor?.document) follow(300);
    }),
    vscode.commands.registerCommand('mcpAql.previewEnvelope', async (uri?: unknown, at?: { code?: string; offset?: number }) => {
      const t = target(uri, at);
      if (t) await view.show(t.uri, t.code, t.offset);
    }),
    vscode.commands.registerCommand('mcpAql.openPreviewToSide', async (uri?: unknown, at?: { code?: string; offset?: number }) => {
      const t = target(uri, at);
      if (t) await panel.open(t.uri, t.code, t.offset);
    }),
    vscode.commands.registerCommand('mcpAql.refreshPreview', () => Promise.all(sessions().map(s => s.refresh()))),
  );
  return { view, panel };
}
