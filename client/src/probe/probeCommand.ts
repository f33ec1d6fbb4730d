/**
 * "MCP-AQL: Probe a Server…" (issue 24 item 5; Node build only: it starts processes). Asks for the
 * server's command, runs the bundled CLI (`dist/cli.js probe --contract <this adapter> --format json
 * --record <transcript>`) in the extension host's Node, and shows the findings as diagnostics on the
 * adapter's declarations they concern and on the recorded transcript (a `.responses.jsonl` file).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { placeOnAdapter, splitCommand, type ReportFinding } from './probeFindings';

const LAST = 'mcpAql.probe.lastCommand';
/** A probe that runs longer than this is stopped (the CLI bounds each call by its --timeout). */
const BOUND_MS = 10 * 60 * 1000;

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

function runCli(
  cli: string,
  args: string[],
  cwd: string,
  token: vscode.CancellationToken,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise(done => {
    const p = spawn(process.execPath, [cli, ...args], { cwd, env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } });
    let out = '',
      err = '';
    p.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    p.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    const bound = setTimeout(() => p.kill(), BOUND_MS);
    const cancel = token.onCancellationRequested(() => p.kill());
    p.on('error', e => (err += e.message));
    p.on('close', code => {
      clearTimeout(bound);
      cancel.dispose();
      done({ code, out, err });
    });
  });
}

export function registerProbe(context: vscode.ExtensionContext, output: vscode.LogOutputChannel): void {
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
      const transcript = join(mkdtempSync(join(tmpdir(), 'mcp-aql-probe-')), 'probe.responses.jsonl');
      const cli = vscode.Uri.joinPath(context.extensionUri, 'dist', 'cli.js').fsPath;
      const args = ['probe', '--contract', adapter.uri.fsPath, '--format', 'json', '--record', transcript, '--', ...argv];
      output.info(`probe: ${args.join(' ')}`);
      const r = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `MCP-AQL: probing ${typed}`, cancellable: true },
        (_, token) => runCli(cli, args, folder, token),
      );
      if (r.err) output.info(r.err.trimEnd());
      if (r.code !== 0 && r.code !== 1) {
        void vscode.window.showErrorMessage(`MCP-AQL: the probe did not run: ${r.err.split('\n')[0] || `exit ${r.code}`}`);
        return;
      }
      let findings: ReportFinding[];
      let text: string;
      try {
        findings = (JSON.parse(r.out) as { diagnostics: ReportFinding[] }[]).flatMap(f => f.diagnostics);
        text = readFileSync(transcript, 'utf8');
      } catch (e) {
        void vscode.window.showErrorMessage(`MCP-AQL: cannot read the probe's report: ${(e as Error).message}`);
        return;
      }
      const transcriptUri = vscode.Uri.file(transcript);
      collection.clear();
      collection.set(
        adapter.uri,
        placeOnAdapter(text, findings, adapter.getText()).map(p =>
          toDiagnostic(new vscode.Range(p.line, p.character, p.endLine, p.endCharacter), p.severity, p.code, p.message),
        ),
      );
      collection.set(
        transcriptUri,
        findings.map(f =>
          toDiagnostic(new vscode.Range(f.line - 1, f.column - 1, f.endLine - 1, f.endColumn - 1), f.severity, f.code, f.message),
        ),
      );
      const summary =
        r.err
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
