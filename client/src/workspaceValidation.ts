/**
 * MCP-AQL: Validate Workspace. Problems of files that are not open go to their own collection; it is
 * kept true afterwards: a file opened in an editor leaves it (the live diagnostics take over), and a
 * change on disk re-validates quietly, so a file fixed on disk does not stay red. (Only after a run
 * does the client watch files itself; otherwise the server's watcher is the only one.)
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { ValidateWorkspace, type WorkspaceReport } from '../../server/src/protocol';
import { withExplainLinks } from './clientOptions';
import { send } from './requests';
import { workspaceSummary as summary } from './statusText';

/** The adapter candidates (the server's own watcher uses the same glob). */
const WATCHED_FILES = '**/*.{yaml,yml,json,md}';

export class WorkspaceValidation implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('mcp-aql-workspace');
  private ran = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly subs: vscode.Disposable[];

  private watcher: vscode.FileSystemWatcher | undefined;

  constructor(
    private readonly client: BaseLanguageClient,
    private readonly output: vscode.LogOutputChannel,
  ) {
    this.subs = [
      vscode.workspace.onDidOpenTextDocument(d => this.collection.delete(d.uri)),
      vscode.workspace.onDidCloseTextDocument(() => {
        if (this.ran) this.soon();
      }),
    ];
  }

  /** The command: validate, fill the collection, say what was found (the same counts as the log). */
  async run(): Promise<void> {
    const report = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'MCP-AQL: validating adapter files…', cancellable: false },
      () => this.validate(),
    );
    if (!report) return;
    // Not awaited: the command is done when the problems are shown, not when the message is closed.
    void vscode.window.showInformationMessage(summary(report), 'Show Problems').then(choice => {
      if (choice) void vscode.commands.executeCommand('workbench.actions.view.problems');
    });
  }

  private soon(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.validate(), 500);
  }

  /** Disk changes matter only once there are workspace results to keep true: watch from the first run on. */
  private watch(): void {
    if (this.watcher) return;
    const w = vscode.workspace.createFileSystemWatcher(WATCHED_FILES);
    const onDisk = (uri: vscode.Uri) => {
      if (this.collection.has(uri)) this.collection.delete(uri);
      this.soon();
    };
    this.subs.push(w, w.onDidChange(onDisk), w.onDidCreate(onDisk), w.onDidDelete(onDisk));
    this.watcher = w;
  }

  private async validate(): Promise<WorkspaceReport | undefined> {
    let report: WorkspaceReport;
    try {
      report = await send(this.client, ValidateWorkspace.type);
    } catch (e) {
      this.output.warn(`Validate Workspace failed: ${String(e)}`);
      return undefined;
    }
    this.ran = true;
    this.watch();
    const open = new Set(vscode.workspace.textDocuments.map(d => d.uri.toString()));
    this.collection.clear();
    for (const p of report.problems) {
      if (open.has(p.uri)) continue; // open files already show the live diagnostics
      this.collection.set(
        vscode.Uri.parse(p.uri),
        withExplainLinks(p.diagnostics.map(d => this.client.protocol2CodeConverter.asDiagnostic(d))),
      );
    }
    this.output.info(summary(report));
    return report;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.collection.dispose();
    this.subs.forEach(s => s.dispose());
  }
}
