// Makes the two V8 code caches of a production build: the server's (makeCodeCache) and the client's (makeClientCodeCache, below).
// Makes dist/server-main.cache, the V8 code cache server/src/loadServer.ts loads the server's bundle with:
// runs the built server once as the editor's client starts it (the same Node, SERVER_EXEC_ARGV's flags:
// V8 refuses a cache made under other flags) through what a first squiggle takes — initialize, a folder's
// scan, an adapter opened and its diagnostics pulled and pushed — and has it write the cache as it exits.
// Run by `node esbuild.js --production` (the .vsix build); a run that fails leaves no cache (the server then
// compiles its bundle as usual) and says so.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ADAPTER = [
  'name: warm',
  'type: adapter',
  'error_codes:',
  '  NOT_FOUND_ITEM:',
  '    category: NOT_FOUND',
  `    message_template: "Item '{item_id}' not found"`,
  '    details: { item_id: string }',
  '  WARM_OWN_ERROR:',
  '    category: BOGUS',
  '    message_template: "x"',
  'error_mapping:',
  '  404:',
  '    code: NOT_FOUND_ITEM',
  '  409:',
  '    code: DECLARED_ELSEWHERE_E1',
  '',
].join('\n');
const OTHER = [
  'name: other',
  'type: adapter',
  'error_codes:',
  '  DECLARED_ELSEWHERE_E1:',
  '    category: CONFLICT',
  '    message_template: "y"',
  '',
].join('\n');

const frame = o => {
  const s = JSON.stringify(o);
  return `Content-Length: ${Buffer.byteLength(s)}\r\n\r\n${s}`;
};

/** Run `server` (dist/server.js) under `execArgv` and write its code cache to `out`; resolves to the cache's size. */
export function makeCodeCache(server, execArgv, out, timeoutMs = 60_000) {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-aql-code-cache-'));
  writeFileSync(join(dir, 'warm.adapter.yaml'), ADAPTER);
  writeFileSync(join(dir, 'other.adapter.yaml'), OTHER);
  const folder = pathToFileURL(dir).href;
  const uri = `${folder}/warm.adapter.yaml`;
  rmSync(out, { force: true });
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [...execArgv, server, '--stdio'], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, MCP_AQL_WRITE_CODE_CACHE: out },
    });
    const timer = setTimeout(() => p.kill(), timeoutMs);
    const send = o => p.stdin.write(frame(o));
    let buf = Buffer.alloc(0);
    let edited = false,
      scanned = false,
      ended = false;
    const end = () => {
      if (ended || !edited || !scanned) return;
      ended = true;
      send({ jsonrpc: '2.0', id: 3, method: 'shutdown' });
    };
    p.stdout.on('data', d => {
      buf = Buffer.concat([buf, d]);
      for (;;) {
        const h = buf.indexOf('\r\n\r\n');
        if (h < 0) return;
        const len = Number(/Content-Length: (\d+)/i.exec(buf.subarray(0, h).toString())?.[1]);
        if (buf.length < h + 4 + len) return;
        const m = JSON.parse(buf.subarray(h + 4, h + 4 + len).toString());
        buf = buf.subarray(h + 4 + len);
        if (m.id === 1 && !m.method) {
          send({ jsonrpc: '2.0', method: 'initialized', params: {} });
          send({
            jsonrpc: '2.0',
            method: 'textDocument/didOpen',
            params: { textDocument: { uri, languageId: 'yaml', version: 1, text: ADAPTER } },
          });
          send({ jsonrpc: '2.0', id: 2, method: 'textDocument/diagnostic', params: { textDocument: { uri } } });
        } else if (m.id === 2 && !m.method) {
          // A keystroke, as the editor sends it (an incremental change), and its diagnostics.
          const at = { line: 1, character: 13 };
          send({
            jsonrpc: '2.0',
            method: 'textDocument/didChange',
            params: { textDocument: { uri, version: 2 }, contentChanges: [{ range: { start: at, end: at }, text: 's' }] },
          });
          send({ jsonrpc: '2.0', id: 4, method: 'textDocument/diagnostic', params: { textDocument: { uri } } });
        } else if (m.id === 4 && !m.method) {
          edited = true;
          end();
        } else if (m.id === 3 && !m.method) send({ jsonrpc: '2.0', method: 'exit' });
        else if (m.method === 'workspace/configuration') send({ jsonrpc: '2.0', id: m.id, result: m.params.items.map(() => null) });
        else if (m.method && m.id !== undefined) send({ jsonrpc: '2.0', id: m.id, result: null });
        else if (m.method === 'window/logMessage' && /indexed \d+ adapter file/.test(m.params.message)) {
          scanned = true;
          end();
        }
      }
    });
    p.on('error', reject);
    p.on('exit', code => {
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
      let size = 0;
      try {
        size = statSync(out).size;
      } catch {
        /* none written */
      }
      if (code === 0 && ended && size > 0) resolve(size);
      else {
        rmSync(out, { force: true });
        reject(new Error(`the server's warm-up run ended with ${code}${ended ? '' : ' before its first diagnostics'}: no code cache`));
      }
    });
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        processId: process.pid,
        rootUri: folder,
        workspaceFolders: [{ uri: folder, name: 'warm' }],
        capabilities: {
          workspace: { configuration: true, didChangeWatchedFiles: { dynamicRegistration: true }, diagnostics: { refreshSupport: true } },
          window: { workDoneProgress: true },
          textDocument: {
            diagnostic: { dynamicRegistration: true },
            publishDiagnostics: { relatedInformation: true, codeDescriptionSupport: true },
          },
        },
      },
    });
  });
}

// The client's run (makeClientCodeCache): VSCODE_STAND_IN makes `vscode` a stand-in that answers every name with another stand-in (a
// function that can be called, constructed, extended and read from), so the bundle's top level runs whole — every
// module's body, the classes that extend the API's — and the functions it compiled go into the cache. Nothing of
// it is called later: `activate` is not run.
export const VSCODE_STAND_IN = `{
const Module = require('node:module');
const stub = () => {
  const own = new Map();
  const p = new Proxy(function () {}, {
    get(t, k) {
      if (k === 'prototype') return t.prototype;
      if (k === 'then' || typeof k === 'symbol') return undefined;
      if (!own.has(k)) own.set(k, stub());
      return own.get(k);
    },
    apply: () => stub(),
    construct: () => stub(),
    // esbuild's __toESM copies a module's own names onto an object whose prototype is the module's: names read
    // from that copy fall through to here.
    getPrototypeOf: () => new Proxy({}, { get: (_, k) => p[k] }),
  });
  return p;
};
const vscode = stub();
const load = Module._load;
Module._load = function (request, ...rest) {
  return request === 'vscode' ? vscode : load.call(this, request, ...rest);
};
}`;
const CLIENT_RUN = `${VSCODE_STAND_IN}
const ext = require(process.argv[1]);
if (typeof ext.activate !== 'function') throw new Error('the client bundle exports no activate()');
`;

/** Run the client's loader (`loader`, dist/client.js) once as the build's stand-in extension host and write the bundle's code cache to `out`; resolves to its size. */
export function makeClientCodeCache(loader, out, timeoutMs = 60_000) {
  rmSync(out, { force: true });
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['-e', CLIENT_RUN, loader], {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, MCP_AQL_WRITE_CODE_CACHE: out },
    });
    const timer = setTimeout(() => p.kill(), timeoutMs);
    p.on('error', reject);
    p.on('exit', code => {
      clearTimeout(timer);
      let size = 0;
      try {
        size = statSync(out).size;
      } catch {
        /* none written */
      }
      if (code === 0 && size > 0) resolve(size);
      else {
        rmSync(out, { force: true });
        reject(new Error(`the client's warm-up run ended with ${code}: no client code cache`));
      }
    });
  });
}
