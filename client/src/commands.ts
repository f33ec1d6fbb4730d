// Small commands (category "MCP-AQL"): Fix All, the walkthrough's example, Enter in front matter.
import * as vscode from 'vscode';
import { FIX_ALL_KIND } from '../../server/src/protocol';
import { frontMatterIndent } from './frontMatterIndent';

export async function fixAll(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return;
  const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
    'vscode.executeCodeActionProvider',
    editor.document.uri,
    new vscode.Range(0, 0, editor.document.lineCount, 0),
    FIX_ALL_KIND,
  );
  const action = actions?.find(a => a.kind?.value === FIX_ALL_KIND && a.edit);
  if (!action?.edit) {
    void vscode.window.showInformationMessage('MCP-AQL: nothing to fix in this file.');
    return;
  }
  await vscode.workspace.applyEdit(action.edit);
}

/**
 * The walkthrough's first step: the bundled example in a new, unsaved editor named
 * `example.adapter.yaml` (an adapter by its name; nothing is written to the workspace until the user
 * saves it).
 */
export async function openExample(root: vscode.Uri): Promise<void> {
  const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(root, 'client', 'media', 'walkthrough', 'example.adapter.yaml'));
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  let uri = vscode.Uri.from({
    scheme: 'untitled',
    path: folder ? vscode.Uri.joinPath(folder, 'example.adapter.yaml').path : '/example.adapter.yaml',
  });
  for (let i = 2; vscode.workspace.textDocuments.some(d => d.uri.toString() === uri.toString()); i++)
    uri = uri.with({ path: uri.path.replace(/(?:-\d+)?\.adapter\.yaml$/, `-${i}.adapter.yaml`) });
  const doc = await vscode.workspace.openTextDocument(uri);
  const edit = new vscode.WorkspaceEdit();
  edit.insert(uri, new vscode.Position(0, 0), new TextDecoder().decode(bytes));
  await vscode.workspace.applyEdit(edit);
  await vscode.window.showTextDocument(doc, { preview: false });
}

/**
 * Enter in an adapter Markdown file (package.json binds it there only): inside the front matter a new
 * line with YAML's indentation (frontMatterIndent), anywhere else the editor's own Enter.
 */
export async function frontMatterEnter(): Promise<void> {
  const ed = vscode.window.activeTextEditor;
  if (ed && ed.selections.length === 1 && ed.selection.isSingleLine) {
    const at = ed.selection.start;
    const lines = Array.from({ length: Math.min(ed.document.lineCount, at.line + 10_000) }, (_, i) => ed.document.lineAt(i).text);
    const indent = frontMatterIndent(lines, at.line, at.character);
    if (indent !== undefined) {
      const ok = await ed.edit(b => b.replace(ed.selection, '\n' + indent));
      if (ok) {
        const p = new vscode.Position(at.line + 1, indent.length);
        ed.selection = new vscode.Selection(p, p);
        ed.revealRange(ed.selection);
        return;
      }
    }
  }
  await vscode.commands.executeCommand('type', { text: '\n' });
}
