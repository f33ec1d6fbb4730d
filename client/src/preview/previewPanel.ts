// The preview beside the editor: a WebviewPanel (wide, with the same page and tabs as the side bar
// view), one at a time, restored after a reload by its serializer.
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { PreviewSession } from './previewSession';

export class PreviewPanel implements vscode.WebviewPanelSerializer {
  static readonly viewType = 'mcpAql.previewPanel';
  private panel: vscode.WebviewPanel | undefined;
  session: PreviewSession | undefined;

  constructor(
    private readonly root: vscode.Uri,
    private readonly client: BaseLanguageClient,
  ) {}

  /** Open (or reveal) the panel beside the active editor and show a file in it. */
  async open(uri: string, code?: string, offset?: number): Promise<void> {
    if (this.panel) this.panel.reveal(vscode.ViewColumn.Beside, true);
    else
      this.adopt(
        vscode.window.createWebviewPanel(
          PreviewPanel.viewType,
          'Error Envelope Preview',
          { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
          {
            enableScripts: true,
            retainContextWhenHidden: false,
            localResourceRoots: [vscode.Uri.joinPath(this.root, 'dist'), vscode.Uri.joinPath(this.root, 'client', 'media')],
          },
        ),
      );
    await this.session?.show(uri, code, offset);
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel): Promise<void> {
    this.adopt(panel);
    this.session?.followEditor(0);
  }

  private adopt(panel: vscode.WebviewPanel): void {
    this.panel?.dispose();
    this.panel = panel;
    panel.iconPath = vscode.Uri.joinPath(this.root, 'client', 'media', 'icon.svg');
    const session = new PreviewSession(this.root, this.client, panel);
    this.session = session;
    panel.onDidChangeViewState(() => {
      if (panel.visible) session.followEditor();
    });
    panel.onDidDispose(() => {
      session.dispose();
      if (this.panel === panel) {
        this.panel = undefined;
        this.session = undefined;
      }
    });
  }
}
