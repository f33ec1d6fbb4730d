// Extension-host tests of the editor polish: explain links, the
// read-only docs, Validate Workspace kept true after a fix on disk, mcpAql.files and the CodeLens
// setting taking effect without a restart.
import * as assert from 'node:assert';
import * as vscode from 'vscode';

async function until<T>(what: string, f: () => T | undefined | false | Promise<T | undefined | false>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 100));
  }
}
const codeOf = (d: vscode.Diagnostic) => (typeof d.code === 'object' ? String(d.code.value) : String(d.code));
const ours = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter(d => d.source === 'mcp-aql');
const write = (uri: vscode.Uri, text: string) => vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));

suite('MCP-AQL editor polish', () => {
  const folder = () => vscode.workspace.workspaceFolders![0]!.uri;

  test('the new commands are contributed', async () => {
    const cmds = await vscode.commands.getCommands(true);
    for (const c of ['mcpAql.openPreviewToSide', 'mcpAql.explainRule', 'mcpAql.openExample']) assert.ok(cmds.includes(c), c);
  });

  test("the walkthrough's example opens unsaved, is checked, and its fix is offered", async () => {
    await vscode.commands.executeCommand('mcpAql.openExample');
    const doc = await until('the example editor', () => {
      const d = vscode.window.activeTextEditor?.document;
      return d?.getText().includes('name: github-example') ? d : undefined;
    });
    assert.ok(doc.isUntitled);
    assert.match(doc.uri.path, /\/example\.adapter\.yaml$/);
    assert.strictEqual(doc.languageId, 'yaml');
    const ph = await until('its diagnostics', () => ours(doc.uri).find(d => codeOf(d) === 'template.unknown-placeholder'));
    assert.strictEqual(doc.getText(ph.range), '{repos}');
    // The two mistakes the walkthrough promises, and no other squiggle (the unused `repo` is a faded hint).
    const squiggles = await until('both mistakes', () => {
      const d = ours(doc.uri).filter(x => x.severity !== vscode.DiagnosticSeverity.Hint);
      return d.length >= 2 ? d : undefined;
    });
    assert.deepStrictEqual(
      squiggles.map(d => [codeOf(d), doc.getText(d.range)]),
      [
        ['template.unknown-placeholder', '{repos}'],
        ['mapping.unknown-code', 'PERMISSION_DENIE'],
      ],
    );
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      doc.uri,
      ph.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    assert.ok(
      actions.some(a => a.title === "Change to '{repo}'"),
      actions.map(a => a.title).join(' | '),
    );
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  test('a diagnostic links to Explain rule, which opens the bundled rule doc read-only; a code action offers it too', async () => {
    const uri = vscode.Uri.joinPath(folder(), 'explain.adapter.yaml');
    await write(uri, 'error_mapping:\n  404:\n    code: NOT_FOUND_NOPE\n');
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const d = await until('a diagnostic', () => ours(uri).find(x => codeOf(x) === 'mapping.unknown-code'));
    const target = (d.code as { target: vscode.Uri }).target;
    assert.strictEqual(target.scheme, 'command');
    assert.strictEqual(target.path, 'mcpAql.explainRule');
    assert.deepStrictEqual(JSON.parse(target.query), ['mapping.unknown-code']);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      uri,
      d.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    assert.ok(
      actions.some(a => a.title === 'Explain rule mapping.unknown-code'),
      actions.map(a => a.title).join(' | '),
    );
    await vscode.commands.executeCommand('mcpAql.explainRule', 'mapping.unknown-code');
    const rule = await until('the rule document', () =>
      vscode.workspace.textDocuments.find(t => t.uri.scheme === 'mcp-aql-docs' && t.uri.path === '/rules/mapping.unknown-code.md'),
    );
    assert.ok(!rule.isUntitled);
    assert.match(rule.getText(), /^# `mapping\.unknown-code`\n\nDefault level: \*\*error\*\*/);
    assert.match(rule.getText(), /\*\*Quick fixes:\*\* closest code/);
    // Shown in Markdown's preview editor (this document only), not a preview that follows the active editor.
    const tab = await until('the rule tab', () =>
      vscode.window.tabGroups.all
        .flatMap(g => g.tabs)
        .find(t => t.input instanceof vscode.TabInputCustom && t.input.uri.path === '/rules/mapping.unknown-code.md'),
    );
    assert.strictEqual((tab.input as vscode.TabInputCustom).viewType, 'vscode.markdown.preview.editor');
  });

  test('a registry code opens as a read-only document, not an Untitled one', async () => {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse('mcp-aql-docs:/registry/RATE_LIMIT_EXCEEDED.md'));
    assert.ok(!doc.isUntitled);
    assert.match(doc.getText(), /^# RATE_LIMIT_EXCEEDED\n/);
    assert.match(doc.getText(), /- category: RATE_LIMIT/);
    assert.ok(
      !vscode.workspace.textDocuments.some(t => t.isUntitled && t.getText().includes('RATE_LIMIT_EXCEEDED')),
      'no Untitled registry document',
    );
  });

  test('after Validate Workspace, a file fixed on disk does not stay red', async () => {
    const uri = vscode.Uri.joinPath(folder(), 'on-disk.adapter.yaml');
    await write(uri, 'error_mapping:\n  404:\n    code: NOT_FOUND_ON_DISK\n');
    await vscode.commands.executeCommand('mcpAql.validateWorkspace');
    await until('the workspace diagnostic of a closed file', () => ours(uri).some(d => codeOf(d) === 'mapping.unknown-code'));
    await write(uri, 'error_mapping:\n  404:\n    code: NOT_FOUND\n');
    await until('the fixed file to be clean', () => ours(uri).length === 0);
  });

  test('a new mcpAql.files glob takes effect without a restart', async () => {
    const uri = vscode.Uri.joinPath(folder(), 'contracts', 'errors.md');
    await write(uri, '---\nerror_mapping:\n  404:\n    code: NOT_FOUND_BY_GLOB\n---\n# Errors\n');
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    await new Promise(r => setTimeout(r, 1500));
    assert.deepStrictEqual(ours(uri).map(codeOf), [], 'not an adapter yet');
    const config = vscode.workspace.getConfiguration('mcpAql');
    await config.update('files', ['**/contracts/errors.md'], vscode.ConfigurationTarget.Workspace);
    try {
      await until('diagnostics of the file the glob adds', () => ours(uri).some(d => codeOf(d) === 'mapping.unknown-code'));
    } finally {
      await config.update('files', undefined, vscode.ConfigurationTarget.Workspace);
    }
    await until('the file to leave again when the glob goes', () => ours(uri).length === 0);
  });

  test('mcpAql.codeLens.enabled turns the CodeLens off and on', async () => {
    const uri = vscode.Uri.joinPath(folder(), 'lens.adapter.yaml');
    await write(uri, 'error_codes:\n  NOT_FOUND_LENS:\n    category: NOT_FOUND\n');
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const lenses = () => vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
    await until('CodeLens', async () => (await lenses()).length > 0);
    const config = vscode.workspace.getConfiguration('mcpAql');
    await config.update('codeLens.enabled', false, vscode.ConfigurationTarget.Workspace);
    try {
      await until('no CodeLens', async () => (await lenses()).length === 0);
    } finally {
      await config.update('codeLens.enabled', undefined, vscode.ConfigurationTarget.Workspace);
    }
    await until('CodeLens again', async () => (await lenses()).length > 0);
  });
});
