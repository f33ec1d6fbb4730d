/**
 * The first-diagnostics scenario, shared by bench/firstDiagnosticsBench.ts and the LSP-boundary test
 * (test/lsp/firstDiagnostics.test.ts): a folder of large generated adapters plus one small adapter, and a
 * client over stdio that opens the small one right after `initialized` (as an editor restoring an open
 * file does) and records, apart, the server's start, the opened file's first diagnostics, the scan's end
 * (its "indexed …" log line) and every publication, in order of arrival.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type Diagnostic,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { SERVER_ENV } from '../server/src/protocol';
import { CATEGORY_LINE, generate } from './gen';

/** The code the small adapter maps to, declared only in the last big file (the scan reaches it last, or late). */
export const FAR_CODE = 'VALIDATION_FAR_E000000';

/** One big adapter's text: `codes` codes named after file `k`, so no two files declare the same name. */
export function bigAdapter(k: number, codes: number): string {
  return generate(codes).replaceAll('VALIDATION_E', `VALIDATION_F${String(k).padStart(3, '0')}_E`);
}

/** A code no file declares: its mapping.unknown-code is true, and must come once the scan is complete. */
export const NOWHERE_CODE = 'VALIDATION_NOWHERE_E000000';

/**
 * The small adapter: its own mistake (an unknown category, found without any other file), a mapping to a
 * code only the last big file declares (never an unknown code), one to a code no file declares (an unknown
 * code, once the scan says so), and a registry code.
 */
export const SMALL_ADAPTER = [
  'name: small',
  'type: adapter',
  'error_codes:',
  '  SMALL_OWN_ERROR:',
  '    category: BOGUS',
  `    message_template: "Small '{id}'"`,
  '    details: { id: string }',
  'error_mapping:',
  '  403:',
  '    code: PERMISSION_DENIED',
  '  404:',
  `    code: ${NOWHERE_CODE}`,
  '  422:',
  `    code: ${FAR_CODE}`,
  '',
].join('\n');

export interface Workspace {
  readonly dir: string;
  readonly smallUri: string;
  readonly bytes: number;
}

/**
 * Write `files` big adapters of `codes` codes each (about 250 bytes a code) under `dir`, the far code
 * declared in the last of them (`z-last/`, sorted after the others), and the small adapter in `open/`.
 */
export function writeFirstDiagnosticsWorkspace(dir: string, files: number, codes: number): Workspace {
  let bytes = 0;
  for (let k = 0; k < files; k++) {
    const folder = join(dir, k === files - 1 ? 'z-last' : `pkg${String(k).padStart(3, '0')}`);
    mkdirSync(folder, { recursive: true });
    let text = bigAdapter(k, codes);
    if (k === files - 1)
      text = text.replace(
        'error_codes:\n',
        `error_codes:\n  ${FAR_CODE}:\n${CATEGORY_LINE}\n    message_template: "Far"\n    maps_from_http: [422]\n`,
      );
    writeFileSync(join(folder, `big${k}.adapter.yaml`), text);
    bytes += Buffer.byteLength(text);
  }
  mkdirSync(join(dir, 'open'), { recursive: true });
  const small = join(dir, 'open', 'small.adapter.yaml');
  writeFileSync(small, SMALL_ADAPTER);
  return { dir, smallUri: pathToFileURL(small).href, bytes: bytes + SMALL_ADAPTER.length };
}

/** How long to wait, after the scan's log line, for the open file to be checked again. */
const AFTER_SCAN_MS = 3000;

export type Event =
  | { readonly at: number; readonly kind: 'publish'; readonly uri: string; readonly diagnostics: Diagnostic[] }
  | { readonly at: number; readonly kind: 'log'; readonly message: string }
  | { readonly at: number; readonly kind: 'progress'; readonly value: { kind: string; message?: string; title?: string } };

export interface FirstDiagnosticsRun {
  /** spawn → the initialize answer (ms). */
  readonly serverStart: number;
  /** didOpen → the first publication for the small file that holds its own mistake (ms). */
  readonly firstCheck: number;
  /** initialized → the scan's "indexed …" log line (ms). */
  readonly scan: number;
  /** didOpen → the last publication for the small file: the cross-file result, after the scan's log line (ms). */
  readonly complete: number;
  /** Everything the client received, in order (times from didOpen). */
  readonly events: Event[];
}

/** Does a publication hold the opened file's own mistake (its unknown category)? */
export const ownMistake = (ds: readonly Diagnostic[]) => ds.some(d => d.code === 'code.unknown-category');
/** Is it the scan's "indexed …" log line? */
export const isScanLine = (e: Event) => e.kind === 'log' && /indexed \d+ adapter file/.test(e.message);

/**
 * One fresh server (`command`) on the workspace: initialize with the folder, `initialized`, and
 * `didOpen` of the small adapter — `open` 'at-once' (an editor restoring an open file) or 'mid-scan'
 * (once the server has reported the scan's progress: a file opened while the scan runs) — then wait until
 * the scan is logged and a publication after it arrived.
 */
export async function runFirstDiagnostics(
  command: readonly string[],
  ws: Workspace,
  open: 'at-once' | 'mid-scan' = 'at-once',
  timeoutMs = 120_000,
): Promise<FirstDiagnosticsRun> {
  const spawned = performance.now();
  // The environment the editor's client gives the server (protocol.ts SERVER_ENV).
  const proc = spawn(command[0]!, command.slice(1), { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...SERVER_ENV } });
  const conn = createProtocolConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
  // Times are taken from the spawn here and made relative to the didOpen at the end.
  const events: Event[] = [];
  let wake: (() => void) | undefined;
  const add = (e: Event) => {
    events.push(e);
    wake?.();
  };
  conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) =>
    add({ at: performance.now(), kind: 'publish', uri: p.uri, diagnostics: p.diagnostics }),
  );
  conn.onNotification('$/progress', (p: { value: { kind: string; message?: string; title?: string } }) =>
    add({ at: performance.now(), kind: 'progress', value: p.value }),
  );
  conn.onNotification('window/logMessage', (p: { message: string }) => add({ at: performance.now(), kind: 'log', message: p.message }));
  conn.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({})));
  conn.onRequest('client/registerCapability', () => null);
  conn.onRequest('window/workDoneProgress/create', () => null);
  conn.listen();
  const until = async (what: string, ok: () => boolean) => {
    const deadline = performance.now() + timeoutMs;
    while (!ok()) {
      if (performance.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms: ${JSON.stringify(events)}`);
      await new Promise<void>(r => {
        const t = setTimeout(r, 200);
        wake = () => {
          clearTimeout(t);
          r();
        };
      });
    }
  };
  const folder = pathToFileURL(ws.dir).href;
  try {
    await conn.sendRequest('initialize', {
      processId: process.pid,
      rootUri: folder,
      workspaceFolders: [{ uri: folder, name: 'ws' }],
      capabilities: {
        workspace: { configuration: true, didChangeWatchedFiles: { dynamicRegistration: true } },
        window: { workDoneProgress: true },
        textDocument: { publishDiagnostics: { relatedInformation: true } },
      },
    });
    const serverStart = performance.now() - spawned;
    await conn.sendNotification('initialized', {});
    const initialized = performance.now();
    if (open === 'mid-scan') await until('scan progress', () => events.some(e => e.kind === 'progress' && e.value.kind === 'report'));
    const opened = performance.now();
    await conn.sendNotification('textDocument/didOpen', {
      textDocument: { uri: ws.smallUri, languageId: 'yaml', version: 1, text: SMALL_ADAPTER },
    });
    const scanLine = () => events.find(isScanLine);
    const finalPublish = () => {
      const s = scanLine();
      return s && events.find(e => e.kind === 'publish' && e.uri === ws.smallUri && e.at >= s.at);
    };
    await until('the scan', () => !!scanLine());
    // A build that does not check the open file again after its scan (the one before this bench) publishes nothing more.
    await until('diagnostics after the scan', () => !!finalPublish() || performance.now() > scanLine()!.at + AFTER_SCAN_MS);
    for (const e of events) (e as { at: number }).at -= opened;
    const first = events.find(e => e.kind === 'publish' && e.uri === ws.smallUri && ownMistake(e.diagnostics));
    const last = events.filter(e => e.kind === 'publish' && e.uri === ws.smallUri).at(-1);
    return {
      serverStart,
      firstCheck: first?.at ?? NaN,
      scan: scanLine()!.at + (opened - initialized),
      complete: last?.at ?? NaN,
      events,
    };
  } finally {
    await Promise.race([conn.sendRequest('shutdown').catch(() => undefined), new Promise(r => setTimeout(r, 2000))]);
    conn.dispose();
    proc.kill();
  }
}
