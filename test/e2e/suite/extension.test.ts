// Extension-host API tests (mocha TDD, run inside VS Code's extension host against the real extension).
import * as assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';

const EXT = 'mcp-aql.mcp-aql-errors';

async function until<T>(what: string, f: () => T | undefined | false, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 100));
  }
}

suite('MCP-AQL extension host', () => {
  let doc: vscode.TextDocument;

  suiteSetup(async () => {
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder, 'broken-github-adapter.md'));
    await vscode.window.showTextDocument(doc);
  });

  test('the extension activates on an adapter file and contributes its commands', async () => {
    const ext = vscode.extensions.getExtension(EXT)!;
    await until('activation', () => ext.isActive);
    const cmds = await vscode.commands.getCommands(true);
    for (const c of ['mcpAql.previewEnvelope', 'mcpAql.validateWorkspace', 'mcpAql.showRegistry', 'mcpAql.fixAll', 'mcpAql.restartServer'])
      assert.ok(cmds.includes(c), c);
  });

  test('diagnostics arrive with source, code and range', async () => {
    const ds = await until('diagnostics', () => {
      const d = vscode.languages.getDiagnostics(doc.uri).filter(x => x.source === 'mcp-aql');
      return d.length >= 2 ? d : undefined;
    });
    const placeholder = ds.find(d => (d.code as { value: string }).value === 'template.unknown-placeholder')!;
    assert.strictEqual(doc.getText(placeholder.range), '{repos}');
  });

  test('completion, hover and code actions through the vscode API', async () => {
    const line = doc
      .getText()
      .split('\n')
      .findIndex(l => l.includes('code: PERMISSION_DENIE'));
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      new vscode.Position(line, 26),
    );
    assert.ok(list.items.some(i => (typeof i.label === 'string' ? i.label : i.label.label) === 'PERMISSION_DENIED'));
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      doc.uri,
      new vscode.Position(line, 14),
    );
    assert.ok(hovers.length > 0);
    const d = vscode.languages.getDiagnostics(doc.uri).find(x => (x.code as { value: string }).value === 'mapping.unknown-code')!;
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      doc.uri,
      d.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    assert.ok(
      actions.some(a => a.title === 'Change to PERMISSION_DENIED'),
      actions.map(a => a.title).join(' | '),
    );
  });

  test('Fix All applies the safe fixes only: the placeholder typo goes, the unknown code stays for a person', async () => {
    await vscode.commands.executeCommand('mcpAql.fixAll');
    await until('fixed text', () => doc.getText().includes("'{owner}/{repo}'"));
    assert.ok(doc.getText().includes('code: PERMISSION_DENIE\n'), 'mapping.unknown-code is not fixed by Fix All');
    await until(
      'only the unknown code left as an error',
      () =>
        vscode.languages
          .getDiagnostics(doc.uri)
          .filter(x => x.source === 'mcp-aql' && x.severity === vscode.DiagnosticSeverity.Error)
          .map(x => (x.code as { value: string }).value)
          .join() === 'mapping.unknown-code',
    );
  });

  test('Restart Language Server brings diagnostics back', async () => {
    await vscode.commands.executeCommand('mcpAql.restartServer');
    const edit = new vscode.WorkspaceEdit();
    const line = doc
      .getText()
      .split('\n')
      .findIndex(l => l.includes('code: PERMISSION_DENIE'));
    edit.replace(doc.uri, new vscode.Range(line, 10, line, 26), 'NOPE_NOT_A_CODE');
    await vscode.workspace.applyEdit(edit);
    await until('a diagnostic from the restarted server', () =>
      vscode.languages
        .getDiagnostics(doc.uri)
        .some(x => (x.code as { value: string }).value === 'mapping.unknown-code' && doc.getText(x.range) === 'NOPE_NOT_A_CODE'),
    );
  });

  test('a killed server is restarted by the client, and diagnostics come back', async () => {
    const serverPids = () =>
      execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
        .split('\n')
        .filter(l => l.includes('dist/server.js') && l.includes(`--clientProcessId=${process.pid}`))
        .map(l => Number(l.trim().split(/\s+/)[0]));
    const [pid] = await until('the server process', () => {
      const p = serverPids();
      return p.length ? p : undefined;
    });
    process.kill(pid!, 'SIGKILL');
    await until('a new server process', () => serverPids().some(p => p !== pid), 60_000);
    const line = doc
      .getText()
      .split('\n')
      .findIndex(l => l.includes('code: NOPE_NOT_A_CODE'));
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(line, 10, line, 25), 'STILL_NOT_A_CODE');
    await vscode.workspace.applyEdit(edit);
    await until(
      'diagnostics from the restarted server',
      () => vscode.languages.getDiagnostics(doc.uri).some(x => x.source === 'mcp-aql' && doc.getText(x.range) === 'STILL_NOT_A_CODE'),
      60_000,
    );
  });
});
