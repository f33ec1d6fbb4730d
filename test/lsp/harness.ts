/**
 * In-memory LSP client ↔ the real server wiring (conventions C9), and a stdio client for dist/server.js.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ClientCapabilities,
  type Diagnostic,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { startServer } from '../../server/src/lsp/startServer';

export const ROOT = join(__dirname, '..', '..');
export const fixture = (name: string) => readFileSync(join(ROOT, 'test', 'fixtures', name), 'utf8');
export const deps = () => ({
  registry: JSON.parse(readFileSync(join(ROOT, 'schemas/error-registry.json'), 'utf8')),
  schema: JSON.parse(readFileSync(join(ROOT, 'schemas/adapter.schema.json'), 'utf8')),
});

/** VS Code-like capabilities (pull diagnostics, markdown, snippets, data). */
export const RICH: ClientCapabilities = {
  textDocument: {
    diagnostic: { dynamicRegistration: false },
    publishDiagnostics: { relatedInformation: true, codeDescriptionSupport: true, dataSupport: true, tagSupport: { valueSet: [1, 2] } },
    hover: { contentFormat: ['markdown', 'plaintext'] },
    completion: { completionItem: { snippetSupport: true, documentationFormat: ['markdown', 'plaintext'] } },
    codeAction: { dataSupport: true },
    rename: { prepareSupport: true },
  },
  workspace: { configuration: true, diagnostics: { refreshSupport: true } },
};
/** A plain client, like Neovim 0.7: push diagnostics, plaintext, no snippets, no data. */
export const PLAIN: ClientCapabilities = {
  textDocument: { publishDiagnostics: {}, hover: { contentFormat: ['plaintext'] }, completion: { completionItem: {} } },
};

export interface Client {
  readonly conn: ProtocolConnection;
  readonly published: Map<string, PublishDiagnosticsParams>;
  /** Every publication, in order of arrival. */
  readonly publications: PublishDiagnosticsParams[];
  waitForDiagnostics(uri: string, pred?: (d: Diagnostic[]) => boolean, timeoutMs?: number): Promise<Diagnostic[]>;
  open(uri: string, text: string, languageId?: string): Promise<void>;
  close(): Promise<void>;
}

function wire(conn: ProtocolConnection, settings: Record<string, unknown>, onClose: () => void): Client {
  const shutdown = async () => {
    try {
      await Promise.race([conn.sendRequest('shutdown'), new Promise(r => setTimeout(r, 2000))]);
    } catch {
      /* already gone */
    }
    await new Promise(r => setTimeout(r, 20));
    onClose();
  };
  const published = new Map<string, PublishDiagnosticsParams>();
  const publications: PublishDiagnosticsParams[] = [];
  const waiters: (() => void)[] = [];
  conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    published.set(p.uri, p);
    publications.push(p);
    waiters.splice(0).forEach(w => w());
  });
  conn.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => settings));
  conn.onRequest('client/registerCapability', () => null);
  conn.onRequest('workspace/diagnostic/refresh', () => null);
  conn.onNotification('window/logMessage', () => undefined);
  conn.listen();
  return {
    conn,
    published,
    publications,
    waitForDiagnostics(uri, pred = () => true, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri} within ${timeoutMs} ms`)), timeoutMs);
        const check = () => {
          const p = published.get(uri);
          if (p && pred(p.diagnostics)) {
            clearTimeout(timer);
            resolve(p.diagnostics);
          } else waiters.push(check);
        };
        check();
      });
    },
    async open(uri, text, languageId = 'yaml') {
      await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
    },
    close: shutdown,
  };
}

export async function inMemory(
  capabilities: ClientCapabilities,
  settings: Record<string, unknown> = {},
  folders: string[] = [],
): Promise<Client> {
  const up = new PassThrough(),
    down = new PassThrough();
  const serverConn = createConnection(ProposedFeatures.all, new StreamMessageReader(up), new StreamMessageWriter(down));
  startServer(serverConn, deps());
  const conn = createProtocolConnection(new StreamMessageReader(down), new StreamMessageWriter(up));
  const client = wire(conn, settings, () => {
    conn.dispose();
    serverConn.dispose();
    up.destroy();
    down.destroy();
  });
  await conn.sendRequest('initialize', {
    processId: null,
    rootUri: null,
    capabilities,
    workspaceFolders: folders.map(f => ({ uri: f, name: 'ws' })),
  });
  await conn.sendNotification('initialized', {});
  return client;
}

export async function overStdio(
  capabilities: ClientCapabilities,
  settings: Record<string, unknown> = {},
  folders: string[] = [],
): Promise<Client & { proc: ChildProcess }> {
  const proc = spawn(process.execPath, [join(ROOT, 'dist', 'server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = createProtocolConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
  const client = wire(conn, settings, () => {
    conn.dispose();
    proc.kill();
  });
  await conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: null,
    capabilities,
    workspaceFolders: folders.length ? folders.map(f => ({ uri: f, name: 'ws' })) : null,
  });
  await conn.sendNotification('initialized', {});
  return { ...client, proc };
}
