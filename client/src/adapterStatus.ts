/**
 * Which editor holds an adapter file (asked of the server: names, sniffing and mcpAql.files all count):
 * sets the context key `mcpAql.isAdapter` (menus and commands appear only there) and drives the
 * language status item, shown on adapter files only, with its problem counts spelled out.
 */
import * as vscode from 'vscode';
import { State, type BaseLanguageClient } from 'vscode-languageclient';
import { IsAdapter } from '../../server/src/protocol';
import { ADAPTER_PATTERNS } from './selector';
import { send } from './requests';
import { statusText } from './statusText';
import { setting } from './settings';
import { baseName, timeline } from './timeline';

const SEVERITY = {
  information: vscode.LanguageStatusSeverity.Information,
  warning: vscode.LanguageStatusSeverity.Warning,
  error: vscode.LanguageStatusSeverity.Error,
};
const escapeGlob = (s: string) => s.replace(/[[\]{}*?]/g, '[$&]');

/** `output`: where the timeline's lines go (timeline.ts; nothing when it is off). */
export function registerAdapterStatus(
  context: vscode.ExtensionContext,
  client: BaseLanguageClient,
  output?: vscode.LogOutputChannel,
): { refresh(): void } {
  const known = new Set<string>();
  const item = vscode.languages.createLanguageStatusItem('mcpAql.status', []);
  item.name = 'MCP-AQL Error Contracts';
  const selector = (): vscode.DocumentFilter[] => [
    ...ADAPTER_PATTERNS.map(pattern => ({ pattern })),
    ...setting('mcpAql.files').map(pattern => ({ pattern })),
    ...[...known].map(u => {
      const uri = vscode.Uri.parse(u);
      return { scheme: uri.scheme, pattern: escapeGlob(uri.fsPath) };
    }),
  ];
  let active: vscode.TextDocument | undefined;
  let isAdapter = false;
  let typing: ReturnType<typeof setTimeout> | undefined;

  const render = () => {
    if (client.state !== State.Running) {
      item.busy = true;
      item.text = 'MCP-AQL: starting';
      item.detail = undefined;
      return;
    }
    item.busy = false;
    const ds = active ? vscode.languages.getDiagnostics(active.uri).filter(d => d.source === 'mcp-aql') : [];
    const s = statusText({
      errors: ds.filter(d => d.severity === vscode.DiagnosticSeverity.Error).length,
      warnings: ds.filter(d => d.severity === vscode.DiagnosticSeverity.Warning).length,
      other: ds.filter(d => d.severity > vscode.DiagnosticSeverity.Warning).length,
    });
    item.text = s.text;
    item.detail = s.detail;
    item.severity = SEVERITY[s.severity];
    item.command = { title: 'Show Problems', command: 'workbench.actions.view.problems' };
  };

  const check = async () => {
    const doc = vscode.window.activeTextEditor?.document;
    active = doc;
    let yes = false;
    const asked = !!doc && client.state === State.Running;
    if (doc && asked) {
      if (output) timeline(output, `client isAdapter ${baseName(doc.uri)}`);
      try {
        yes = await send(client, IsAdapter.type, { uri: doc.uri.toString() });
      } catch {
        yes = false;
      }
    }
    if (doc !== vscode.window.activeTextEditor?.document) return; // the editor changed meanwhile
    isAdapter = yes;
    if (doc) {
      if (yes) known.add(doc.uri.toString());
      else known.delete(doc.uri.toString());
    }
    item.selector = selector();
    await vscode.commands.executeCommand('setContext', 'mcpAql.isAdapter', isAdapter);
    render();
    // The context key (the editor title's preview button) and the language status item are set from the server's
    // answer: both make the page lay out, which the timeline places beside the first squiggle (bench/NOTES.md,
    // "twelfth sitting").
    if (output && doc && asked) timeline(output, `client status-set ${baseName(doc.uri)} ${isAdapter ? 1 : 0}`);
  };

  context.subscriptions.push(
    item,
    vscode.window.onDidChangeActiveTextEditor(() => void check()),
    client.onDidChangeState(() => void check()),
    vscode.languages.onDidChangeDiagnostics(e => {
      if (active && e.uris.some(u => u.toString() === active!.uri.toString())) render();
    }),
    // After the client has sent the change to the server (which compares the settings and re-scans or re-checks).
    vscode.workspace.onDidChangeConfiguration(e => {
      if (e.affectsConfiguration('mcpAql')) setTimeout(() => void check(), 300);
    }),
    // A YAML file becomes an adapter when `error_codes:` is typed into it (sniffed).
    vscode.workspace.onDidChangeTextDocument(e => {
      if (e.document === active && !isAdapter) {
        clearTimeout(typing);
        typing = setTimeout(() => void check(), 500);
      }
    }),
    vscode.workspace.onDidCloseTextDocument(d => known.delete(d.uri.toString())),
  );
  void check();
  return { refresh: () => void check() };
}
