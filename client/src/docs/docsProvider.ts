/**
 * Read-only documents in the editor, scheme `mcp-aql-docs`: the bundled rule docs ("Explain rule",
 * the diagnostics' code links) and registry codes (Show Error Registry). Nothing is Untitled, nothing
 * asks to be saved. Opened beside the editor in Markdown's preview editor when it is there (a preview of
 * that document, not one that follows the active editor), else as read-only text.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { GetRegistry, type Registry } from '../../../server/src/protocol';
import { send } from '../requests';
import { registryMarkdown } from './registryDoc';
import { DOCS_SCHEME, parseDocPath, registryDocPath, RULE_DOC_FILES, ruleDocPath, ruleMarkdown, ruleRows } from './ruleDocs';

export class DocsProvider implements vscode.TextDocumentContentProvider {
  private files: Promise<string[]> | undefined;
  private registry: Promise<Registry> | undefined;
  constructor(
    private readonly root: vscode.Uri,
    private readonly client: BaseLanguageClient,
  ) {}

  /** The rule table (docs/rules.md) first, then the in-depth docs; a missing file reads as empty. */
  docs(): Promise<string[]> {
    this.files ??= Promise.all(
      RULE_DOC_FILES.map(f =>
        Promise.resolve(vscode.workspace.fs.readFile(vscode.Uri.joinPath(this.root, f))).then(
          b => new TextDecoder().decode(b),
          () => '',
        ),
      ),
    );
    return this.files;
  }

  getRegistry(): Promise<Registry> {
    this.registry ??= send(this.client, GetRegistry.type).then(
      r => r,
      e => {
        this.registry = undefined;
        throw e;
      },
    );
    return this.registry;
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const p = parseDocPath(uri.path);
    if (!p) return `Unknown document ${uri.toString()}`;
    if (p.kind === 'rule') {
      const [table = '', ...deep] = await this.docs();
      return ruleMarkdown(p.name, table, deep);
    }
    const code = (await this.getRegistry()).codes.find(c => c.code === p.name);
    return code ? registryMarkdown(code) : `# ${p.name}\n\nNot a registry code.\n`;
  }
}

/**
 * `markdown.showPreview` would open a dynamic preview, which follows the active editor: clicking back
 * into a `*-adapter.md` (Markdown too) replaced the rule with a preview of the adapter. Markdown's
 * preview *editor* shows this one document, like a file opened with "Open With… Markdown Preview".
 */
export const MARKDOWN_PREVIEW_EDITOR = 'vscode.markdown.preview.editor';

async function openDoc(uri: vscode.Uri): Promise<void> {
  const options = { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: false };
  try {
    await vscode.commands.executeCommand('vscode.openWith', uri, MARKDOWN_PREVIEW_EDITOR, options);
    return;
  } catch {
    /* no Markdown preview (the built-in Markdown extension disabled) */
  }
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), options);
}

export async function explainRule(docs: DocsProvider, code?: unknown): Promise<void> {
  let name = typeof code === 'string' ? code : Array.isArray(code) && typeof code[0] === 'string' ? code[0] : undefined;
  if (!name) {
    const rows = ruleRows((await docs.docs())[0] ?? '');
    if (!rows.length) {
      void vscode.window.showErrorMessage(`MCP-AQL: the rule documentation (${RULE_DOC_FILES[0]}) is missing from this installation.`);
      return;
    }
    const pick = await vscode.window.showQuickPick(
      rows.map(r => ({ label: r.code, description: r.level, detail: r.meaning })),
      { title: 'MCP-AQL: explain a rule', matchOnDetail: true },
    );
    name = pick?.label;
  }
  if (name) await openDoc(vscode.Uri.from({ scheme: DOCS_SCHEME, path: ruleDocPath(name) }));
}

export async function showRegistry(docs: DocsProvider): Promise<void> {
  const registry = await docs.getRegistry();
  const pick = await vscode.window.showQuickPick(
    registry.codes.map(c => ({
      label: c.code,
      description: `${c.category} · ${c.kind}${c.http_status.length ? ' · HTTP ' + c.http_status.join(',') : ''}`,
      detail: c.message_template ?? c.description,
    })),
    { title: 'MCP-AQL error registry', matchOnDescription: true, matchOnDetail: true },
  );
  if (pick) await openDoc(vscode.Uri.from({ scheme: DOCS_SCHEME, path: registryDocPath(pick.label) }));
}

/** "Explain rule <code>" on each of our diagnostics, beside the quick fixes. */
export class ExplainRuleActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];
  provideCodeActions(_doc: vscode.TextDocument, _range: vscode.Range, ctx: vscode.CodeActionContext): vscode.CodeAction[] {
    const seen = new Set<string>();
    const out: vscode.CodeAction[] = [];
    for (const d of ctx.diagnostics) {
      if (d.source !== 'mcp-aql' || d.code === undefined) continue;
      const code = String(typeof d.code === 'object' ? d.code.value : d.code);
      if (seen.has(code)) continue;
      seen.add(code);
      const a = new vscode.CodeAction(`Explain rule ${code}`, vscode.CodeActionKind.QuickFix);
      a.command = { command: 'mcpAql.explainRule', title: `Explain rule ${code}`, arguments: [code] };
      a.diagnostics = [d];
      out.push(a);
    }
    return out;
  }
}
