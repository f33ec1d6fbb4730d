/**
 * "MCP-AQL: Probe a Server…" (docs/cli.md, "Watching and probing a running server"; Node build only: it
 * starts processes). Asks for the server's command, runs the bundled CLI (`dist/cli.js probe --contract
 * <this adapter> --format json --record <transcript>`) in the extension host's Node, and shows the findings
 * as diagnostics on the adapter's declarations they concern and on the recorded transcript (a
 * `.responses.jsonl` file).
 */
import { join } from 'node:path';
import * as vscode from 'vscode';
import { splitCommand } from './probeFindings';
import { runProbe } from './runProbe';

const LAST = 'mcpAql.probe.lastCommand';

const SEVERITY: Record<string, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

function toDiagnostic(r: vscode.Range, severity: string, code: string, message: string): vscode.Diagnostic {
  const d = new vscode.Diagnostic(r, message, SEVERITY[severity] ?? vscode.DiagnosticSeverity.Error);
  d.source = 'mcp-aql probe';
  d.code = code;
  return d;
}

export function registerProbe(context: vscode.ExtensionContext, output: vscode.LogOutputChannel): void {
  // The command's enablement: where a Node extension host runs us. Not `!isWeb`: a browser workbench
  // (code-server, Codespaces) with a remote Node host is web and can probe (test/e2e/probe.test.ts).
  void vscode.commands.executeCommand('setContext', 'mcpAql.canProbe', true);
  const collection = vscode.languages.createDiagnosticCollection('mcp-aql-probe');
  context.subscriptions.push(
    collection,
    vscode.commands.registerCommand('mcpAql.probeServer', async () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor || editor.document.uri.scheme !== 'file') {
        void vscode.window.showWarningMessage('MCP-AQL: open the adapter file to use as the contract, then probe the server.');
        return;
      }
      const adapter = editor.document;
      const folder = vscode.workspace.getWorkspaceFolder(adapter.uri)?.uri.fsPath ?? join(adapter.uri.fsPath, '..');
      const typed = await vscode.window.showInputBox({
        title: 'MCP-AQL: Probe a Server',
        prompt: `The server's command, run over stdio from ${folder}; only read-only tools are called`,
        placeHolder: 'node dist/server.js',
        value: context.workspaceState.get<string>(LAST) ?? '',
        validateInput: v => {
          const r = splitCommand(v);
          return Array.isArray(r) ? undefined : r.error;
        },
      });
      if (typed === undefined) return;
      const argv = splitCommand(typed);
      if (!Array.isArray(argv)) return;
      await context.workspaceState.update(LAST, typed);
      const cli = vscode.Uri.joinPath(context.extensionUri, 'dist', 'cli.js').fsPath;
      output.info(`probe: ${typed} (contract ${adapter.uri.fsPath})`);
      const r = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `MCP-AQL: probing ${typed}`, cancellable: true },
        (_, token) => {
          const ac = new AbortController();
          token.onCancellationRequested(() => ac.abort());
          return runProbe({ cli, adapterPath: adapter.uri.fsPath, adapterText: adapter.getText(), argv, cwd: folder, signal: ac.signal });
        },
      );
      if (r.stderr) output.info(r.stderr.trimEnd());
      if (!r.ok) {
        // Cancelled: the user knows; the server was stopped with the probe.
        if (r.cancelled) output.info('probe: cancelled');
        else void vscode.window.showErrorMessage(`MCP-AQL: ${r.error}`);
        return;
      }
      const { findings, placed } = r;
      const transcriptUri = vscode.Uri.file(r.transcript);
      collection.clear();
      collection.set(
        adapter.uri,
        placed.map(p => toDiagnostic(new vscode.Range(p.line, p.character, p.endLine, p.endCharacter), p.severity, p.code, p.message)),
      );
      collection.set(
        transcriptUri,
        findings.map(f =>
          toDiagnostic(new vscode.Range(f.line - 1, f.column - 1, f.endLine - 1, f.endColumn - 1), f.severity, f.code, f.message),
        ),
      );
      const summary =
        r.stderr
          .split('\n')
          .find(l => l.startsWith('mcp-aql-errors probe:'))
          ?.slice('mcp-aql-errors '.length) ?? 'probe done';
      const pick = await vscode.window.showInformationMessage(
        `MCP-AQL: ${findings.length} finding${findings.length === 1 ? '' : 's'} (${summary}).`,
        'Open Transcript',
      );
      if (pick) await vscode.window.showTextDocument(transcriptUri);
    }),
  );
}
