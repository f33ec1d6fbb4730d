/**
 * The probe run behind "MCP-AQL: Probe a Server…", without vscode: the bundled CLI
 * (`dist/cli.js probe --contract <adapter> --format json --record <transcript> -- <command…>`) in this
 * process's Node (the extension host's, with ELECTRON_RUN_AS_NODE), its JSON report read, and each
 * finding placed on the adapter (probeFindings.ts). The transcript goes to a temporary folder.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { placeOnAdapter, type PlacedFinding, type ReportFinding } from './probeFindings';

/** A probe that runs longer than this is stopped (the CLI bounds each call by its --timeout). */
const BOUND_MS = 10 * 60 * 1000;

export interface ProbeRequest {
  readonly cli: string;
  readonly adapterPath: string;
  readonly adapterText: string;
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly signal?: AbortSignal;
  /** Added to the environment the CLI (and so the server) gets. */
  readonly env?: Readonly<Record<string, string>>;
}

export type ProbeOutcome =
  | {
      readonly ok: true;
      readonly findings: ReportFinding[];
      readonly placed: PlacedFinding[];
      readonly transcript: string;
      readonly stderr: string;
    }
  | { readonly ok: false; readonly error: string; readonly stderr: string; readonly cancelled?: true };

export function runProbe(req: ProbeRequest): Promise<ProbeOutcome> {
  const transcript = join(mkdtempSync(join(tmpdir(), 'mcp-aql-probe-')), 'probe.responses.jsonl');
  const args = [req.cli, 'probe', '--contract', req.adapterPath, '--format', 'json', '--record', transcript, '--', ...req.argv];
  return new Promise(done => {
    // On Cancel the signal ends the CLI with SIGTERM; it stops the server, then itself (cli/probe.ts).
    const p = spawn(process.execPath, args, {
      cwd: req.cwd,
      env: { ...process.env, ...req.env, ELECTRON_RUN_AS_NODE: '1' },
      signal: req.signal,
    });
    let out = '',
      err = '';
    p.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    p.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    const bound = setTimeout(() => p.kill(), BOUND_MS);
    p.on('error', e => {
      if (e.name !== 'AbortError') err += `${e.message}\n`;
    });
    p.on('close', code => {
      clearTimeout(bound);
      // A failed probe leaves no transcript to read: its folder goes (on success the caller owns it).
      const fail = (error: string, cancelled?: true) => {
        rmSync(dirname(transcript), { recursive: true, force: true });
        done({ ok: false, error, stderr: err, ...(cancelled ? { cancelled } : {}) });
      };
      if (req.signal?.aborted) return fail('the probe was cancelled', true);
      if (code !== 0 && code !== 1) {
        const first = err.split('\n').find(l => l.trim()) ?? `exit ${code}`;
        fail(`the probe did not run: ${first.replace(/^mcp-aql-errors( probe)?: /, '')}`);
        return;
      }
      try {
        // The session's hint (the negotiated revision) is no finding: the summary line says it.
        const findings = (JSON.parse(out) as { diagnostics: ReportFinding[] }[])
          .flatMap(f => f.diagnostics)
          .filter(f => f.code !== 'runtime.session');
        const text = readFileSync(transcript, 'utf8');
        done({ ok: true, findings, placed: placeOnAdapter(text, findings, req.adapterText), transcript, stderr: err });
      } catch (e) {
        fail(`cannot read the probe's report: ${(e as Error).message}`);
      }
    });
  });
}
