/**
 * Where the language server's memory goes on a big file (docs/performance.md, "Big files"; bench/NOTES.md, "eighth
 * sitting"): one server started as the editor starts it (node IPC, SERVER_EXEC_ARGV, SERVER_ENV), one generated
 * adapter opened with `maxFileSize` at its ceiling; prints CPU and VmHWM from didOpen to its diagnostics, the
 * server's `--trace-gc` lines (each collection's heap before and after), and with `--snapshot=<file>` writes a heap
 * snapshot taken after the diagnostics (the live heap: what the server keeps).
 *
 *   node --import tsx bench/bigFileServerMemory.ts [--mib=14.4] [--dist=<a build's dist/>] [--flags=<V8 flags, comma-separated>]
 *     [--snapshot=<file.heapsnapshot>] [--trace-gc] [--stream] [--out=<diagnostics.json>] [--settle=<ms>] [--exit]
 *
 * `--exit`: the server asked to shut down and exit at the end (a `--cpu-prof` among --flags is then written).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createClientPipeTransport,
  createProtocolConnection,
  generateRandomPipeName,
  IPCMessageReader,
  IPCMessageWriter,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { answerAsEditor } from './answerAsEditor';
import { generate } from './gen';
import { SERVER_ENV, SERVER_EXEC_ARGV } from '../server/src/protocol';

const ROOT = join(__dirname, '..');
const CEILING = 16 * 1024 * 1024;
const arg = (name: string) => process.argv.find(a => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const mib = Number(arg('mib') ?? 14.4);
const dist = arg('dist') ?? join(ROOT, 'dist');
const flags = arg('flags') !== undefined ? arg('flags')!.split(',').filter(Boolean) : [...SERVER_EXEC_ARGV];
const snapshot = arg('snapshot');
const traceGc = process.argv.includes('--trace-gc');
const stream = process.argv.includes('--stream');
/** `--out=<file>`: the diagnostics published for the open, as JSON (to compare two builds' answers). */
const outFile = arg('out');

function cpuS(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`))
    ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
  return ns / 1e9;
}
const status = (pid: number, k: string) =>
  Number(new RegExp(`${k}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function main(): Promise<void> {
  const dir = join(ROOT, 'bench', 'work', 'big', `${mib}mib`);
  const file = join(dir, 'big.adapter.yaml');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, generate(Math.round(mib * 4687.5)));
  }
  // The limit raised beside the file too, as bench/bigFileBench.ts does for `check` (the server reads it).
  writeFileSync(join(dir, '.mcp-aql.yaml'), `maxFileSize: ${16 * 1024 * 1024}\n`);
  const args = [...flags, ...(traceGc ? ['--trace-gc'] : []), ...(snapshot ? ['--heapsnapshot-signal=SIGUSR2'] : [])];
  // A stream (`--stream`: a named pipe, read as stdio is, by vscode-jsonrpc's stream reader) or node IPC (VS Code's client).
  const pipe = stream ? generateRandomPipeName() : undefined;
  const transport = pipe ? await createClientPipeTransport(pipe) : undefined;
  const proc = spawn(process.execPath, [...args, join(dist, 'server.js'), pipe ? `--pipe=${pipe}` : '--node-ipc'], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    env: { ...process.env, ...SERVER_ENV },
    cwd: snapshot ? join(snapshot, '..') : undefined,
  });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const conn = transport
    ? createProtocolConnection(...(await transport.onConnected()))
    : createProtocolConnection(new IPCMessageReader(proc), new IPCMessageWriter(proc));
  const uri = pathToFileURL(file).href;
  const settings = { maxFileSize: CEILING };
  let got: ((p: PublishDiagnosticsParams) => void) | undefined;
  conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    if (p.uri === uri && p.version === 1) got?.(p);
  });
  answerAsEditor(conn, settings);
  conn.listen();
  await conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: null,
    workspaceFolders: null,
    capabilities: { workspace: { configuration: true }, textDocument: { publishDiagnostics: {} } },
  });
  await conn.sendNotification('initialized', {});
  await new Promise(res => setTimeout(res, 300));
  const text = readFileSync(file, 'utf8');
  const before = { cpu: cpuS(proc.pid!), hwm: status(proc.pid!, 'VmHWM') };
  const diagnostics = new Promise<PublishDiagnosticsParams>(res => (got = res));
  const t0 = performance.now();
  const mark = out.length;
  await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
  const p = await diagnostics;
  const wall = (performance.now() - t0) / 1000;
  const cpu = cpuS(proc.pid!) - before.cpu;
  const hwm = status(proc.pid!, 'VmHWM');
  const rss = status(proc.pid!, 'VmRSS');
  // `--settle=<ms>`: what the open does after its diagnostics (the open file indexed from its model) counted too.
  const settle = Number(arg('settle') ?? 0);
  let settled = '';
  if (settle > 0) {
    await new Promise(res => setTimeout(res, settle));
    settled = `; ${settle} ms later cpu ${(cpuS(proc.pid!) - before.cpu).toFixed(2)} s VmHWM ${status(proc.pid!, 'VmHWM').toFixed(0)} MB`;
  }
  if (outFile) writeFileSync(outFile, JSON.stringify(p.diagnostics, null, 1));
  if (snapshot) {
    // Written by the server as it runs (--heapsnapshot-signal): done when its size stops growing.
    const dir = join(snapshot, '..');
    const had = new Set(snapshots(dir));
    proc.kill('SIGUSR2');
    let name: string | undefined;
    for (let last = -1, i = 0; i < 1200; i++) {
      await new Promise(res => setTimeout(res, 500));
      name ??= snapshots(dir).find(f => !had.has(f));
      const size = name ? statSync(join(dir, name)).size : -1;
      if (size > 0 && size === last) break;
      last = size;
    }
    if (name) renameSync(join(dir, name), snapshot);
  }
  if (process.argv.includes('--exit')) {
    // Asked to shut down and exit (as an editor does), so that a `--cpu-prof` in --flags is written.
    await conn.sendRequest('shutdown');
    await conn.sendNotification('exit');
    await new Promise(res => (proc.exitCode !== null ? res(undefined) : proc.once('exit', res)));
  }
  conn.dispose();
  proc.kill();
  if (traceGc) console.log(out.slice(mark));
  console.log(
    `${mib} MiB, ${stream ? 'stream' : 'ipc'}, ${flags.join(' ') || '(default flags)'}, ${dist}: cpu ${cpu.toFixed(2)} s wall ${wall.toFixed(2)} s VmHWM ${hwm.toFixed(0)} MB ` +
      `(before the open ${before.hwm.toFixed(0)}), VmRSS after ${rss.toFixed(0)} MB, ${p.diagnostics.length} diagnostics${settled}, load ${loadavg()[0]!.toFixed(1)}`,
  );
}
const snapshots = (d: string) => readdirSync(d).filter(f => f.endsWith('.heapsnapshot'));

void main();
