/**
 * Where the server's memory goes while typing (bench/NOTES.md, "the text of every keystroke"): the realistic
 * client's session (workspace folder, settings, open, code lens and code action, one-character keystrokes at
 * the three edit sites of lspBench.ts, completion, hover, symbols) over a TCP socket, so the server's stdout is
 * free for `--trace-gc`; VmRSS / VmHWM after each step, and from a preloaded sampler every 5 ms the heap by space
 * (`v8.getHeapSpaceStatistics`) with `process.memoryUsage()`'s external and array buffers. `--live=3,43` also
 * starts the server with `--expose-gc` and logs the live heap after a full collection at those keystrokes:
 * garbage or retained. Investigation only: the collections it forces change what it measures after them.
 * `node --import tsx bench/typingMemory.ts [--codes=10000] [--keys=43] [--server=dist/server.js]
 * [--flags=--max-semi-space-size=4,--trace-gc] [--live=3,43] [--pause=ms] [--burst=n] [--out=bench/work/typing-memory]`; writes
 * `<out>.steps`, `<out>.samples`, `<out>.live`, the server's stdout and stderr beside them; prints a summary.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createProtocolConnection, SocketMessageReader, SocketMessageWriter } from 'vscode-languageserver-protocol/node';
import { SERVER_ENV, SERVER_EXEC_ARGV } from '../server/src/protocol';
import { editOffsets, generate, positionOf } from './gen';

const ROOT = join(__dirname, '..');
const arg = (name: string, def: string) => process.argv.find(a => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? def;
const n = Number(arg('codes', '10000'));
const keys = Number(arg('keys', '43'));
const server = arg('server', join(ROOT, 'dist', 'server.js'));
const live = arg('live', '').split(',').filter(Boolean).map(Number);
const flags = [...arg('flags', SERVER_EXEC_ARGV.join(',')).split(',').filter(Boolean), ...(live.length ? ['--expose-gc'] : [])];
const out = resolve(arg('out', join(ROOT, 'bench', 'work', 'typing-memory')));
/** `--pause=1000`: the client waits that long after hover before it asks the outline (the re-index after a pause, apart). */
const pauseMs = Number(arg('pause', '0'));
/** `--burst=30` (with `--pause=`): the client also pauses that long after every 30 keystrokes, as a user typing in bursts. */
const burst = Number(arg('burst', '0'));

/** The preload: samples every 5 ms; on SIGUSR2, a full collection and the live heap (only with --expose-gc). */
const SAMPLER = `
const v8 = require('node:v8'), fs = require('node:fs');
const out = process.env.TYPING_MEMORY_OUT;
const mb = x => +(x / 1048576).toFixed(1);
const spaces = () => Object.fromEntries(v8.getHeapSpaceStatistics().map(s => [s.space_name.replace('_space', ''), [mb(s.space_used_size), mb(s.space_size)]]));
let buf = [];
const sample = () => {
  const m = process.memoryUsage();
  buf.push(JSON.stringify({ t: Date.now(), rss: mb(m.rss), heapUsed: mb(m.heapUsed), external: mb(m.external), arrayBuffers: mb(m.arrayBuffers), spaces: spaces() }));
};
setInterval(sample, 5).unref();
const flush = () => { if (buf.length) fs.appendFileSync(out + '.samples', buf.join('\\n') + '\\n'); buf = []; };
setInterval(flush, 200).unref();
process.on('exit', () => { sample(); flush(); });
process.on('SIGUSR2', () => {
  if (typeof gc !== 'function') return;
  gc();
  const m = process.memoryUsage();
  fs.appendFileSync(out + '.live', JSON.stringify({ t: Date.now(), heapUsed: mb(m.heapUsed), external: mb(m.external), spaces: spaces() }) + '\\n');
});
`;

const status = (pid: number) => {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? 0) / 1024;
  return { rss: +kb('VmRSS').toFixed(1), hwm: +kb('VmHWM').toFixed(1) };
};

async function main() {
  mkdirSync(dirname(out), { recursive: true });
  for (const ext of ['.steps', '.samples', '.live', '.log']) rmSync(out + ext, { force: true });
  const preload = `${out}.sampler.cjs`;
  writeFileSync(preload, SAMPLER);
  const dir = join(ROOT, 'bench', 'work', `typing-${n}`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `bench-${n}.adapter.yaml`);
  const text = generate(n);
  writeFileSync(file, text);
  const uri = pathToFileURL(file).href;

  const listener = createServer();
  await new Promise<void>(r => listener.listen(0, '127.0.0.1', r));
  const socket = new Promise<Socket>(r => listener.once('connection', r));
  const port = (listener.address() as { port: number }).port;
  const proc = spawn(process.execPath, [...flags, `--require=${preload}`, server, `--socket=${port}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...SERVER_ENV, TYPING_MEMORY_OUT: out },
  });
  proc.stdout!.pipe(createWriteStream(`${out}.stdout`));
  proc.stderr!.pipe(createWriteStream(`${out}.stderr`));
  const died = new Promise<never>((_, reject) =>
    proc.once('exit', code => reject(new Error(`the server exited (${code}) before connecting: see ${out}.stderr`))),
  );
  died.catch(() => undefined); // it exits at the end too
  const sock = await Promise.race([socket, died]);
  const conn = createProtocolConnection(new SocketMessageReader(sock), new SocketMessageWriter(sock));
  let published = 0;
  let waiter: (() => void) | undefined;
  conn.onNotification('textDocument/publishDiagnostics', (p: { uri: string; version?: number }) => {
    if (p.uri !== uri) return;
    published = p.version ?? 0;
    waiter?.();
  });
  conn.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({})));
  conn.onRequest('client/registerCapability', () => null);
  conn.onRequest('window/workDoneProgress/create', () => null);
  const logLines: string[] = [];
  conn.onNotification('window/logMessage', (p: { message: string }) => void logLines.push(`${Date.now()} ${p.message}`));
  conn.listen();
  const steps: string[] = [];
  const step = (what: string) => steps.push(JSON.stringify({ t: Date.now(), what, ...status(proc.pid!) }));
  const diagnosticsOf = (version: number) =>
    new Promise<void>(res => {
      waiter = () => {
        if (published !== version) return;
        waiter = undefined;
        res();
      };
      waiter();
    });
  // --scan=off: the workspace folder is an empty one beside the file's, so no scan reads the file (the open alone).
  const folder = arg('scan', 'on') === 'off' ? join(dir, '..', `typing-${n}-empty`) : dir;
  mkdirSync(folder, { recursive: true });
  const root = pathToFileURL(folder).href;
  try {
    await conn.sendRequest('initialize', {
      processId: process.pid,
      rootUri: root,
      workspaceFolders: [{ uri: root, name: 'bench' }],
      capabilities: {
        workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } },
        textDocument: { publishDiagnostics: { relatedInformation: true } },
      },
    });
    await conn.sendNotification('initialized', {});
    await conn.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    await new Promise(res => setTimeout(res, 300));
    step('before open');
    await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    await diagnosticsOf(1);
    step('open');
    await conn.sendRequest('textDocument/codeLens', { textDocument: { uri } });
    const here = { start: { line: 6, character: 4 }, end: { line: 6, character: 4 } };
    await conn.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: here, context: { diagnostics: [] } });
    step('code lens and action');
    // The keystrokes of lspBench.ts: round after round at the three sites, each one character further.
    const sites = editOffsets(text, n);
    const offsets = Array.from({ length: Math.ceil(keys / sites.length) }, (_, r) => sites.map((o, k) => o + r + k * (r + 1)))
      .flat()
      .slice(0, keys);
    let cur = text;
    for (const [i, off] of offsets.entries()) {
      const pos = positionOf(cur, off);
      cur = cur.slice(0, off) + 'x' + cur.slice(off);
      await conn.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: i + 2 },
        contentChanges: [{ range: { start: pos, end: pos }, text: 'x' }],
      });
      await diagnosticsOf(i + 2);
      step(`keystroke ${i + 1}`);
      if (burst && pauseMs && (i + 1) % burst === 0 && i + 1 < offsets.length) {
        // Typing in bursts: each pause lets the server re-index the document (lsp/indexing.ts).
        await new Promise(res => setTimeout(res, pauseMs));
        step(`paused after keystroke ${i + 1}`);
      }
      if (live.includes(i + 1)) {
        process.kill(proc.pid!, 'SIGUSR2');
        await conn.sendRequest('textDocument/documentSymbol', { textDocument: { uri: 'file:///none.yaml' } }).catch(() => undefined);
      }
    }
    const mid = cur.indexOf('category: VALIDATION', cur.indexOf(`(entry ${Math.floor(n / 2)})`)) + 'category: '.length;
    await conn.sendRequest('textDocument/completion', { textDocument: { uri }, position: positionOf(cur, mid) });
    const codeAt = cur.indexOf('code: VALIDATION_E', cur.indexOf('error_mapping:')) + 'code: VALIDATION_'.length;
    await conn.sendRequest('textDocument/completion', { textDocument: { uri }, position: positionOf(cur, codeAt) });
    await conn.sendRequest('textDocument/hover', { textDocument: { uri }, position: positionOf(cur, codeAt) });
    step('completion and hover');
    if (pauseMs) {
      // A pause in typing: the server re-indexes the document (lsp/indexing.ts) before the outline is asked.
      await new Promise(res => setTimeout(res, pauseMs));
      step(`paused ${pauseMs} ms`);
    }
    await conn.sendRequest('textDocument/documentSymbol', { textDocument: { uri } });
    step('symbols');
    await new Promise(res => setTimeout(res, 1500));
    step('settled');
    await Promise.race([conn.sendRequest('shutdown'), new Promise(res => setTimeout(res, 5000))]);
    await conn.sendNotification('exit');
    await new Promise(res => setTimeout(res, 500));
  } finally {
    conn.dispose();
    proc.kill();
    listener.close();
  }
  writeFileSync(`${out}.steps`, steps.join('\n') + '\n');
  writeFileSync(`${out}.log`, logLines.join('\n') + '\n');
  const shown = new Set([1, 2, 3, 10, 20, 30, 40, keys]);
  for (const s of steps.map(l => JSON.parse(l) as { what: string; rss: number; hwm: number })) {
    const k = /^keystroke (\d+)$/.exec(s.what);
    if (!k || shown.has(Number(k[1]))) process.stdout.write(`${s.what}: VmRSS ${s.rss} MB, VmHWM ${s.hwm} MB\n`);
  }
  process.stdout.write(`heap by space every 5 ms: ${out}.samples${live.length ? `; live heap: ${out}.live` : ''}\n`);
}
main().catch(e => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
