// One function per contributed command (category "MCP-AQL").
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { FIX_ALL_KIND, GetRegistry, ValidateWorkspace, type Registry, type WorkspaceReport } from '../../server/src/protocol';

export async function validateWorkspace(client: LanguageClient, collection: vscode.DiagnosticCollection): Promise<void> {
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'MCP-AQL: validating adapter files…', cancellable: false }, async () => {
    const report = await client.sendRequest<WorkspaceReport>(ValidateWorkspace.method);
    collection.clear();
    const open = new Set(vscode.workspace.textDocuments.map(d => d.uri.toString()));
    let problems = 0;
    for (const p of report.problems) {
      problems += p.diagnostics.length;
      if (open.has(p.uri)) continue; // open files already show the live diagnostics
      collection.set(vscode.Uri.parse(p.uri), p.diagnostics.map(d => client.protocol2CodeConverter.asDiagnostic(d)));
    }
    const choice = await vscode.window.showInformationMessage(
      `MCP-AQL: ${problems} problem(s) in ${report.problems.length} of ${report.files} adapter file(s).`, 'Show Problems');
    if (choice) await vscode.commands.executeCommand('workbench.actions.view.problems');
  });
}

export async function showRegistry(client: LanguageClient): Promise<void> {
  const registry = await client.sendRequest<Registry>(GetRegistry.method);
  const pick = await vscode.window.showQuickPick(registry.codes.map(c => ({
    label: c.code, description: `${c.category} · ${c.kind}${c.http_status.length ? ' · HTTP ' + c.http_status.join(',') : ''}`,
    detail: c.message_template ?? c.description, code: c,
  })), { title: 'MCP-AQL error registry', matchOnDescription: true, matchOnDetail: true });
  if (!pick) return;
  const c = pick.code;
  const lines = [`# ${c.code}`, '', `${c.description}`, '', `- category: ${c.category}`, `- kind: ${c.kind} (${c.phase})`,
    `- HTTP: ${c.http_status.join(', ') || '—'}`, `- template: \`${c.message_template ?? '—'}\``, '', '| details key | type | required |', '|---|---|---|',
    ...Object.entries(c.details ?? {}).map(([k, d]) => `| ${k} | ${d.type} | ${d.required ? 'yes' : 'no'} |`)];
  if (c.recovery) lines.push('', `Recovery: ${c.recovery.text} (${c.recovery.source})`);
  const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: lines.join('\n') + '\n' });
  await vscode.window.showTextDocument(doc, { preview: true });
}

export async function fixAll(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return;
  const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', editor.document.uri,
    new vscode.Range(0, 0, editor.document.lineCount, 0), FIX_ALL_KIND);
  const action = actions?.find(a => a.kind?.value === FIX_ALL_KIND && a.edit);
  if (!action?.edit) { void vscode.window.showInformationMessage('MCP-AQL: nothing to fix in this file.'); return; }
  await vscode.workspace.applyEdit(action.edit);
}
