// What both builds (Node and browser) register around their LanguageClient: commands, the language
// status, the rule and registry documents, Validate Workspace and the preview.
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { registerAdapterStatus } from './adapterStatus';
import { clientCodeCache } from './clientCodeCache';
import { selectorPatterns } from './clientOptions';
import { uncoveredPatterns } from './selector';
import { fixAll, frontMatterEnter, openExample } from './commands';
import { DocsProvider, explainRule, ExplainRuleActions, showRegistry } from './docs/docsProvider';
import { DOCS_SCHEME } from './docs/ruleDocs';
import { registerCompareContract } from './contractDiff/compareCommand';
import { registerInferContract } from './infer/inferCommand';
import { registerPreview } from './preview';
import { baseName, timeline, timelineOn } from './timeline';
import { WorkspaceValidation } from './workspaceValidation';

export async function activateWith(
  context: vscode.ExtensionContext,
  create: (output: vscode.LogOutputChannel) => BaseLanguageClient | Promise<BaseLanguageClient>,
): Promise<BaseLanguageClient> {
  const calledAt = Date.now();
  const output = vscode.window.createOutputChannel('MCP-AQL', { log: true });
  // When the bundle's evaluation started and ended (esbuild.js, clientLoadTimes), for the activation's parts.
  const load = (globalThis as Record<symbol, number[] | undefined>)[Symbol.for('mcp-aql.clientLoad')];
  // The Node build's loader (loadClient.ts): whether the bundle came with its code cache, and how long it compiled.
  const cache = clientCodeCache();
  const compiled = cache ? `, compiled in ${cache.compiled - cache.started} ms (code cache: ${cache.state})` : '';
  if (load?.length === 2)
    output.info(
      `activating: the bundle evaluated in ${load[1]! - load[0]!} ms${compiled}, activate called ${calledAt - load[1]!} ms after`,
    );
  const loader = cache ? ` loader=${cache.started}-${cache.compiled} cache=${cache.state}` : '';
  timeline(output, `client activate bundle=${load?.join('-') ?? ''}${loader} called=${calledAt}`);
  if (timelineOn())
    context.subscriptions.push(vscode.workspace.onDidOpenTextDocument(d => timeline(output, `client opened ${baseName(d.uri)}`)));
  const client = await create(output);
  // The server starts first: its process start and first check (the first squiggle of the file whose open
  // activated the extension) run while the rest registers. Timestamped in the output channel's log, so
  // activation, the server's start and its scan can be told apart (test/e2e/firstDiagnostics.test.ts).
  output.info('starting the language server');
  timeline(output, 'client start');
  const started = client.start().then(() => {
    output.info('language server started');
    timeline(output, 'client started');
  });
  const docs = new DocsProvider(context.extensionUri, client);
  const validation = new WorkspaceValidation(client, output);
  const status = registerAdapterStatus(context, client, output);
  let uncovered = uncoveredPatterns(selectorPatterns()).join('\n');
  context.subscriptions.push(
    output,
    validation,
    vscode.workspace.registerTextDocumentContentProvider(DOCS_SCHEME, docs),
    vscode.languages.registerCodeActionsProvider(
      [{ language: 'yaml' }, { language: 'json' }, { language: 'markdown' }],
      new ExplainRuleActions(),
      { providedCodeActionKinds: ExplainRuleActions.kinds },
    ),
    vscode.commands.registerCommand('mcpAql.validateWorkspace', () => validation.run()),
    vscode.commands.registerCommand('mcpAql.showRegistry', () => showRegistry(docs)),
    vscode.commands.registerCommand('mcpAql.explainRule', (code?: unknown) => explainRule(docs, code)),
    vscode.commands.registerCommand('mcpAql.fixAll', () => fixAll()),
    vscode.commands.registerCommand('mcpAql.frontMatterEnter', () => frontMatterEnter()),
    vscode.commands.registerCommand('mcpAql.openExample', () => openExample(context.extensionUri)),
    vscode.commands.registerCommand('mcpAql.restartServer', async () => {
      await client.stop().catch(() => undefined);
      await client.start();
      output.info('language server restarted');
    }),
    vscode.workspace.onDidChangeConfiguration(async e => {
      if (!e.affectsConfiguration('mcpAql.files') && !e.affectsConfiguration('mcpAql.responseFiles')) return;
      // YAML, JSON and Markdown globs take effect in the server at once (it compares its settings and
      // re-scans); a glob on another kind of file changes which documents the client sends.
      const next = uncoveredPatterns(selectorPatterns()).join('\n');
      if (next === uncovered) return;
      uncovered = next;
      output.info(
        'mcpAql.files or mcpAql.responseFiles names files other than YAML, JSON or Markdown: the editor sends them to the server after a reload',
      );
      const c = await vscode.window.showInformationMessage(
        'MCP-AQL: mcpAql.files or mcpAql.responseFiles now names files other than YAML, JSON or Markdown; reload the window to check them.',
        'Reload Window',
      );
      if (c) await vscode.commands.executeCommand('workbench.action.reloadWindow');
    }),
  );
  registerPreview(context, client);
  registerCompareContract(context, client);
  registerInferContract(context, client);
  // Not awaited: activation ends here, while the server process starts. VS Code activates the extensions
  // waiting for `onStartupFinished` once every eager one (ours, by `workspaceContains`) has returned from
  // `activate`; awaited, that wave ran in the extension host just as the server's first diagnostics came
  // back through it (bench/NOTES.md, "eighth sitting"). Requests sent meanwhile wait for the start.
  void started.then(
    () => status.refresh(),
    (e: unknown) => output.error(`the language server did not start: ${e instanceof Error ? e.message : String(e)}`),
  );
  return client;
}
