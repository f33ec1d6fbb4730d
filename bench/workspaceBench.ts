/**
 * The workspace scenarios of `npm run bench` (docs/performance.md): a generated monorepo of N adapter files
 * (bench/genWorkspace.ts). CLI: wall time, CPU time and peak RSS of `check` (all threads). Server:
 * start → every file indexed, the latency of hover and completion requests sent every 50 ms while the
 * scan runs, and an open file's diagnostics (on open and after an edit) during the scan.
 */
import { SERVER_EXEC_ARGV } from '../server/src/protocol';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { brokenAt, fileText, pathOf } from './genWorkspace';

const ROOT = join(__dirname, '..');

export interface CliResult {
  wallMs: number;
  cpuMs: number;
  maxRssMb: number;
  exit: number;
  problems: string[];
}

/** `cli`: the build to run (default this checkout's dist/cli.js). */
export function runCli(dir: string, extra: string[] = [], cli = join(ROOT, 'dist', 'cli.js')): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const p = spawn(process.execPath, ['--require', join(ROOT, 'bench', 'rss.cjs'), cli, 'check', dir, '--format', 'json', ...extra], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '',
      err = '';
    p.stdout.on('data', d => {
      out += d;
    });
    p.stderr.on('data', d => {
      err += d;
    });
    p.on('error', reject);
    p.on('close', code => {
      // A usage or input error (exit 2: a folder behind a symbolic link, a bad flag) measures nothing: stop the run.
      if (code === 2) return reject(new Error(`check ${dir} exited 2, nothing measured: ${err.trim().slice(0, 400)}`));
      const wallMs = performance.now() - t0;
      const m = /BENCH (\{.*\})/.exec(err);
      const u = m ? (JSON.parse(m[1]!) as { maxRssKb: number; cpuMs: number }) : { maxRssKb: NaN, cpuMs: NaN };
      let problems: string[] = [];
      try {
        problems = (JSON.parse(out) as { diagnostics?: { code: string }[]; problems?: { code: string }[] }[]).flatMap(f =>
          (f.diagnostics ?? f.problems ?? []).map(d => d.code),
        );
      } catch {
        problems = [`unparsable output: ${err.slice(0, 200)}`];
      }
      resolve({ wallMs, cpuMs: u.cpuMs, maxRssMb: u.maxRssKb / 1024, exit: code ?? -1, problems: problems.sort() });
    });
  });
}

export interface ServerResult {
  indexMs: number;
  indexedLog: string;
  requestMs: number[];
  openDiagnosticsMs: number;
  changeDiagnosticsMs: number;
  afterScanDiagnosticsMs: number;
  vmHwmMb: number;
}

export async function runServer(dir: string, n: number): Promise<ServerResult> {
  const proc = spawn(process.execPath, [...SERVER_EXEC_ARGV, join(ROOT, 'dist', 'server.js'), '--stdio'], {
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const conn = createProtocolConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
  let indexedAt = 0,
    indexedLog = '';
  const published: { at: number; p: PublishDiagnosticsParams }[] = [];
  conn.onNotification('window/logMessage', (p: { message: string }) => {
    if (/indexed \d+ adapter file/.test(p.message)) {
      indexedAt = performance.now();
      indexedLog = p.message;
    }
  });
  conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    published.push({ at: performance.now(), p });
  });
  conn.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({})));
  conn.onRequest('client/registerCapability', () => null);
  conn.onRequest('window/workDoneProgress/create', () => null);
  conn.listen();
  const waitDiag = (uri: string, version: number, after: number) =>
    new Promise<number>(resolve => {
      const t = setInterval(() => {
        const hit = published.find(x => x.p.uri === uri && x.p.version === version && x.at >= after);
        if (hit) {
          clearInterval(t);
          resolve(hit.at - after);
        }
      }, 2);
      setTimeout(() => {
        clearInterval(t);
        resolve(NaN);
      }, 60_000);
    });
  try {
    await conn.sendRequest('initialize', {
      processId: process.pid,
      rootUri: null,
      workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'ws' }],
      capabilities: {
        textDocument: { publishDiagnostics: {}, hover: { contentFormat: ['markdown'] } },
        workspace: { configuration: true },
      },
    });
    const t0 = performance.now();
    await conn.sendNotification('initialized', {});
    // The broken file, opened while the scan runs: its diagnostics, then after an edit.
    const i = brokenAt(n);
    const uri = pathToFileURL(join(dir, pathOf(i))).href;
    const text = fileText(i, n, true);
    const tOpen = performance.now();
    await conn.sendNotification('textDocument/didOpen', {
      textDocument: {
        uri,
        languageId: pathOf(i).endsWith('.md') ? 'markdown' : pathOf(i).endsWith('.json') ? 'json' : 'yaml',
        version: 1,
        text,
      },
    });
    const openDiagnosticsMs = await waitDiag(uri, 1, tOpen);
    const tChange = performance.now();
    await conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: text + '\n' }] });
    const changeDiagnosticsMs = await waitDiag(uri, 2, tChange);
    const at = text.indexOf('PERMISSION_DENIED');
    const before = text.slice(0, at);
    const position = { line: before.split('\n').length - 1, character: at - before.lastIndexOf('\n') - 1 + 3 };
    const requestMs: number[] = [];
    let k = 0;
    while (!indexedAt && performance.now() - t0 < 300_000) {
      const method = k++ % 2 ? 'textDocument/completion' : 'textDocument/hover';
      const s = performance.now();
      await conn.sendRequest(method, { textDocument: { uri }, position });
      if (!indexedAt) requestMs.push(performance.now() - s);
      await new Promise(r => setTimeout(r, 50));
    }
    const tAfter = performance.now();
    await conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: 3 }, contentChanges: [{ text }] });
    const afterScanDiagnosticsMs = await waitDiag(uri, 3, tAfter);
    const status = await import('node:fs').then(fs => fs.readFileSync(`/proc/${proc.pid}/status`, 'utf8'));
    const vmHwmMb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    await Promise.race([conn.sendRequest('shutdown'), new Promise(r => setTimeout(r, 5000))]);
    return { indexMs: indexedAt - t0, indexedLog, requestMs, openDiagnosticsMs, changeDiagnosticsMs, afterScanDiagnosticsMs, vmHwmMb };
  } finally {
    conn.dispose();
    proc.kill();
  }
}
