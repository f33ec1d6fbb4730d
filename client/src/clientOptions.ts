// clientOptions: which documents the server sees (design s1) and the middleware that turns each
// diagnostic's documentation link into "Explain rule" (the bundled rule docs, opened in the editor).
// Shared by the Node client (languageClient.ts) and the browser client (browserExtension.ts).
import * as vscode from 'vscode';
import { CloseAction, ErrorAction, type ErrorHandler, type LanguageClientOptions } from 'vscode-languageclient';
import { explainCommandUri } from './docs/ruleDocs';
import { documentSelector, RESPONSE_PATTERNS } from './selector';
import { setting } from './settings';
import { needsWordStop, WORD_STOP_LABEL } from './wordFallback';

/** Point the code link of our diagnostics at the bundled rule documentation. */
export function withExplainLinks(ds: vscode.Diagnostic[]): vscode.Diagnostic[] {
  for (const d of ds) {
    if (d.source !== 'mcp-aql' || !d.code) continue;
    const value = typeof d.code === 'object' ? d.code.value : d.code;
    d.code = { value, target: vscode.Uri.parse(explainCommandUri(String(value))) };
  }
  return ds;
}

/**
 * Keep the server running: a write that fails while a killed server is being noticed is not a reason
 * to shut down (the default handler gives up after three), and a closed connection restarts the
 * server, up to 4 times in 3 minutes.
 */
function errorHandler(now = () => Date.now()): ErrorHandler {
  let closes: number[] = [];
  return {
    error: () => ({ action: ErrorAction.Continue }),
    closed: () => {
      closes = [...closes.filter(t => now() - t < 180_000), now()];
      return closes.length <= 4
        ? { action: CloseAction.Restart }
        : {
            action: CloseAction.DoNotRestart,
            message:
              'The MCP-AQL language server stopped 5 times in 3 minutes and will not be restarted. Run "MCP-AQL: Restart Language Server" to try again.',
          };
    },
  };
}

/**
 * Is this Markdown document an adapter: `*-adapter.md`, or a `mcpAql.files` glob, matched as the server
 * does (the whole path or a suffix after a `/`).
 */
function isAdapterMarkdown(doc: vscode.TextDocument): boolean {
  const globs = ['**/*-adapter.md', ...setting('mcpAql.files', doc.uri)];
  const filters = globs.flatMap(pattern => (/^(\*\*\/|\/)/.test(pattern) ? [{ pattern }] : [{ pattern }, { pattern: `**/${pattern}` }]));
  return vscode.languages.match(filters, doc) > 0;
}

/**
 * The server's completion answer, or — where it offers nothing inside an adapter's front matter — one
 * item the suggest widget never shows, so VS Code does not fall back to the document's words
 * (wordFallback.ts says why).
 */
function withoutWordFallback(
  doc: vscode.TextDocument,
  at: vscode.Position,
  answer: vscode.CompletionItem[] | vscode.CompletionList | null | undefined,
): vscode.CompletionItem[] | vscode.CompletionList | null | undefined {
  const answered = !answer ? 0 : Array.isArray(answer) ? answer.length : answer.items.length;
  const view = {
    languageId: doc.languageId,
    get isAdapter() {
      return isAdapterMarkdown(doc);
    },
    lineAt: (i: number) => doc.lineAt(i).text,
  };
  if (!needsWordStop(answered, view, at.line)) return answer;
  const stop = new vscode.CompletionItem(WORD_STOP_LABEL, vscode.CompletionItemKind.Text);
  stop.insertText = '';
  return new vscode.CompletionList([stop], false);
}

/** The globs beyond YAML, JSON and Markdown the selector must name: mcpAql.files, recorded responses, mcpAql.responseFiles. */
export const selectorPatterns = (): string[] => [...setting('mcpAql.files'), ...RESPONSE_PATTERNS, ...setting('mcpAql.responseFiles')];

export function clientOptions(
  extra: readonly string[],
  output: vscode.LogOutputChannel,
  schemes?: readonly string[] | 'any',
): LanguageClientOptions {
  return {
    documentSelector: documentSelector(extra, schemes),
    // Settings changes are sent to the server (it re-reads them and re-scans). No client-side file
    // watcher: the server registers one (workspace/didChangeWatchedFiles) itself.
    synchronize: { configurationSection: 'mcpAql' },
    outputChannel: output,
    traceOutputChannel: output,
    diagnosticCollectionName: 'mcp-aql',
    errorHandler: errorHandler(),
    middleware: {
      provideCompletionItem: async (doc, at, context, token, next) => withoutWordFallback(doc, at, await next(doc, at, context, token)),
      handleDiagnostics: (uri, ds, next) => next(uri, withExplainLinks(ds)),
      provideDiagnostics: async (doc, previous, token, next) => {
        const report = await next(doc, previous, token);
        if (report && report.kind === 'full') withExplainLinks(report.items);
        return report;
      },
    },
  };
}
