// clientOptions: which documents the server sees (design s1) and the middleware that turns each
// diagnostic's documentation link into "Explain rule" (the bundled rule docs, opened in the editor).
// Shared by the Node client (languageClient.ts) and the browser client (browserExtension.ts).
import * as vscode from 'vscode';
import { CloseAction, ErrorAction, type ErrorHandler, type LanguageClientOptions } from 'vscode-languageclient';
import { explainCommandUri } from './docs/ruleDocs';
import { documentSelector, RESPONSE_PATTERNS } from './selector';
import { setting } from './settings';
import { baseName, timeline, timelineOn } from './timeline';
import { ADAPTER_MARKDOWN, mayNeedWordStop, WORD_STOP_LABEL } from './wordFallback';

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
 * The server's completion answer, or — where it offers nothing inside an adapter's front matter — one
 * item the suggest widget never shows, so VS Code does not fall back to the document's words
 * (wordFallback.ts says why). Whether a `.md` file is an adapter is its name (`*-adapter.md`), else the
 * server's word (`mcpAql.files` globs, matched by the server's own glob code).
 */
async function withoutWordFallback(
  doc: vscode.TextDocument,
  at: vscode.Position,
  answer: vscode.CompletionItem[] | vscode.CompletionList | null | undefined,
  isAdapter: (uri: string) => Promise<boolean>,
): Promise<vscode.CompletionItem[] | vscode.CompletionList | null | undefined> {
  const answered = !answer ? 0 : Array.isArray(answer) ? answer.length : answer.items.length;
  if (!mayNeedWordStop(answered, { languageId: doc.languageId, lineAt: i => doc.lineAt(i).text }, at.line)) return answer;
  if (!ADAPTER_MARKDOWN.test(doc.uri.path) && !(await isAdapter(doc.uri.toString()).catch(() => false))) return answer;
  const stop = new vscode.CompletionItem(WORD_STOP_LABEL, vscode.CompletionItemKind.Text);
  stop.insertText = '';
  return new vscode.CompletionList([stop], false);
}

/** The globs beyond YAML, JSON and Markdown the selector must name: mcpAql.files, recorded responses, mcpAql.responseFiles. */
export const selectorPatterns = (): string[] => [...setting('mcpAql.files'), ...RESPONSE_PATTERNS, ...setting('mcpAql.responseFiles')];

/** `ask()` with its asking and its answer (and how many items) on the timeline; just `ask()` when the timeline is off. */
async function timed<T>(
  output: vscode.LogOutputChannel,
  what: string,
  doc: vscode.TextDocument,
  ask: () => vscode.ProviderResult<T>,
): Promise<T | null | undefined> {
  if (!timelineOn()) return ask();
  const name = baseName(doc.uri);
  timeline(output, `client ${what} ${name}`);
  const answer = await ask();
  timeline(output, `client ${what}-answered ${name} ${Array.isArray(answer) ? answer.length : answer ? 1 : 0}`);
  return answer;
}

/** `isAdapter`: the server's answer to `mcpAql/isAdapter` for a document (the word stop asks it). */
export function clientOptions(
  extra: readonly string[],
  output: vscode.LogOutputChannel,
  schemes: readonly string[] | 'any' | undefined,
  isAdapter: (uri: string) => Promise<boolean>,
): LanguageClientOptions {
  return {
    documentSelector: documentSelector(extra, schemes),
    // Settings changes are sent to the server (it compares them and re-scans or re-checks). No client-side file
    // watcher: the server registers one (workspace/didChangeWatchedFiles) itself.
    synchronize: { configurationSection: 'mcpAql' },
    // No settings in `initialize` (the server would take them for the first check instead of asking): tried, the
    // first squiggle came later in code-server, not sooner (bench/NOTES.md, "ninth sitting").
    outputChannel: output,
    traceOutputChannel: output,
    diagnosticCollectionName: 'mcp-aql',
    errorHandler: errorHandler(),
    middleware: {
      // The timeline's hops (timeline.ts; nothing is logged when it is off).
      didOpen: async (doc, next) => {
        timeline(output, `client didOpen ${baseName(doc.uri)}`);
        await next(doc);
        timeline(output, `client didOpen-sent ${baseName(doc.uri)}`);
      },
      workspace: {
        configuration: async (params, token, next) => {
          timeline(output, `client configuration-asked ${params.items.map(i => baseName(i.scopeUri ?? '')).join(',')}`);
          const answer = await next(params, token);
          timeline(output, 'client configuration-answered');
          return answer;
        },
      },
      // The requests VS Code sends for an open document besides diagnostics (outline, breadcrumbs and sticky scroll;
      // CodeLens; the lightbulb at the cursor; hover), on the timeline: what the page does for our other features on
      // open (bench/NOTES.md, "twelfth sitting").
      provideDocumentSymbols: (doc, token, next) => timed(output, 'symbols', doc, () => next(doc, token)),
      provideCodeLenses: (doc, token, next) => timed(output, 'codeLens', doc, () => next(doc, token)),
      provideCodeActions: (doc, range, context, token, next) => timed(output, 'codeActions', doc, () => next(doc, range, context, token)),
      provideHover: (doc, at, token, next) => timed(output, 'hover', doc, () => next(doc, at, token)),
      provideCompletionItem: async (doc, at, context, token, next) =>
        withoutWordFallback(doc, at, await next(doc, at, context, token), isAdapter),
      handleDiagnostics: (uri, ds, next) => next(uri, withExplainLinks(ds)),
      provideDiagnostics: async (doc, previous, token, next) => {
        const name = baseName(doc instanceof vscode.Uri ? doc : doc.uri);
        timeline(output, `client pull ${name}`);
        const report = await next(doc, previous, token);
        timeline(output, `client pull-answered ${name} ${report && report.kind === 'full' ? report.items.length : '-'}`);
        if (report && report.kind === 'full') withExplainLinks(report.items);
        return report;
      },
    },
  };
}
