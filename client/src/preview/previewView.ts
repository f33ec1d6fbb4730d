// The side bar "Error Envelope Preview" view: one PreviewSession in a WebviewView.
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { PreviewSession } from './previewSession';

export class PreviewView implements vscode.WebviewViewProvider {
  static readonly id = 'mcpAql.envelopePreview';
  session: PreviewSession | undefined;

  constructor(
    private readonly root: vscode.Uri,
    private readonly client: BaseLanguageClient,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.session?.dispose();
    const session = new PreviewSession(this.root, this.client, view);
    this.session = session;
    view.onDidChangeVisibility(() => {
      if (view.visible) session.followEditor();
    });
    view.onDidDispose(() => {
      session.dispose();
      if (this.session === session) this.session = undefined;
    });
  }

  /** Reveal the view, then show a file (and a code or offset) in it. */
  async show(uri: string, code?: string, offset?: number): Promise<void> {
    await vscode.commands.executeCommand(`${PreviewView.id}.focus`);
    await this.session?.show(uri, code, offset);
  }
}
