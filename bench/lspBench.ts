/**
 * An LSP client over stdio that measures one fresh server process on one generated file: initialize,
 * didOpen → diagnostics, one-character didChange → diagnostics at several positions, completion,
 * hover, document symbols, and peak memory (VmHWM). Both servers are asked to *push* diagnostics
 * (the client declares no pull capability), so they are measured the same way.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { editOffsets, positionOf } from './gen';

export interface ServerSpec {
  readonly name: string;
  readonly command: string[];
  readonly settings: (section?: string) => unknown;
  readonly initOptions?: unknown;
  /** Added to the environment (ours: SERVER_ENV, as the editor's client adds it). */
  readonly env?: Readonly<Record<string, string>>;
}

export interface RunResult {
  initialize: number;
  open: number;
  openDiagnostics: number;
  /** The cold keystrokes: the first ones after didOpen (one per edit site and round), in order; change[0] is the first keystroke of the session. */
  change: number[];
  /** Keystrokes after the cold ones and a warm-up (`ClientProfile.warmup`), once the incremental path has run: what typing in an open file costs. */
  warm: number[];
  warmCpu: number[];
  /** CPU time the server spent (all its threads) from each didOpen / didChange to its diagnostics: unlike wall time, not inflated by other load. */
  openCpu: number;
  changeCpu: number[];
  completionCategory: number;
  completionCode: number;
  completionItems: number;
  hover: number;
  symbols: number;
  vmHwmMb: number;
  timeouts: string[];
  /** Diagnostics published for the awaited version with another count than expected (a wrong answer, not a slow one). */
  wrong: string[];
  /** The 1-minute load average when the process started (the machine is shared). */
  load: number;
}

const TIMEOUT = 60_000;

/** CPU time of every thread of a process so far, in ms (/proc/<pid>/task/<tid>/schedstat: ns on the CPU). */
function cpuMs(pid: number): number {
  let ns = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`))
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return NaN;
  }
  return ns / 1e6;
}

/**
 * How the client behaves. `realistic` (the default) is what an editor does: the file's folder is the
 * workspace folder, and the server lives on after the last request (VmHWM is read once deferred work,
 * such as indexing the open file for other files, has run). `bare`: no workspace folder, VmHWM read at once.
 */
export interface ClientProfile {
  readonly workspaceFolder: boolean;
  readonly settleMs: number;
  readonly pull?: boolean;
  readonly fullSync?: boolean;
  readonly rounds?: number;
  readonly burst?: boolean;
  readonly editorRequests?: boolean;
  /** Keystrokes typed after the cold ones and not measured (the incremental path's JIT warm-up), then `warm` measured ones; the same sites in turn. */
  readonly warmup?: number;
  readonly warm?: number;
  /** How long the client waits after the open (and its editor requests) before the first keystroke: a user reading first. */
  readonly pauseMs?: number;
}
/** An editor also asks, after opening a file, for its code lenses and the code actions at the cursor. */
export const REALISTIC: ClientProfile = { workspaceFolder: true, settleMs: 1500, editorRequests: true };
export const BARE: ClientProfile = { workspaceFolder: false, settleMs: 0 };

export async function runOnce(
  server: ServerSpec,
  file: string,
  text: string,
  n: number,
  profile: ClientProfile = REALISTIC,
): Promise<RunResult> {
  const proc = spawn(server.command[0]!, server.command.slice(1), {
    stdio: ['pipe', 'pipe', 'ignore'],
    env: { ...process.env, ...server.env },
  });
  const conn = createProtocolConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
  const uri = pathToFileURL(file).href;
  let last: { at: number; params: PublishDiagnosticsParams } | undefined;
  let waiter: (() => void) | undefined;
  conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    if (p.uri === uri) {
      last = { at: performance.now(), params: p };
      waiter?.();
    }
  });
  conn.onRequest('workspace/configuration', (p: { items: { section?: string }[] }) => p.items.map(i => server.settings(i.section)));
  conn.onRequest('client/registerCapability', () => null);
  conn.onRequest('window/workDoneProgress/create', () => null);
  conn.onNotification('window/logMessage', () => undefined);
  conn.listen();
  const timeouts: string[] = [];
  /** Publications for the awaited version whose count was not the expected one. */
  const wrong: string[] = [];
  const pullDiagnostics = async (after: number, want: number, what: string): Promise<number> => {
    const rep = (await conn.sendRequest('textDocument/diagnostic', { textDocument: { uri } })) as { items?: unknown[] };
    if ((rep.items?.length ?? -1) !== want) {
      timeouts.push(what);
      return NaN;
    }
    return performance.now() - after;
  };
  /**
   * The publishDiagnostics for `version` (a server that sends no version: the first one after `after` with
   * `want` diagnostics); NaN after TIMEOUT. Also checks the count, so a run that says something else is seen.
   */
  const waitDiagnostics = (after: number, want: number, what: string, version: number) =>
    profile.pull
      ? pullDiagnostics(after, want, what)
      : new Promise<number>(resolve => {
          const t = setTimeout(() => {
            timeouts.push(what);
            waiter = undefined;
            resolve(NaN);
          }, TIMEOUT);
          const check = () => {
            if (!last || last.at < after) return;
            const v = last.params.version;
            if (v === undefined ? last.params.diagnostics.length !== want : v !== version) return;
            clearTimeout(t);
            waiter = undefined;
            if (last.params.diagnostics.length !== want) wrong.push(`${what}: ${last.params.diagnostics.length} diagnostics`);
            resolve(last.at - after);
          };
          waiter = check;
          check();
        });
  const timed = async <T>(f: () => Promise<T>): Promise<[number, T]> => {
    const t0 = performance.now();
    const r = await f();
    return [performance.now() - t0, r];
  };
  const r: RunResult = {
    initialize: 0,
    open: 0,
    openDiagnostics: 0,
    change: [],
    warm: [],
    warmCpu: [],
    openCpu: 0,
    changeCpu: [],
    completionCategory: 0,
    completionCode: 0,
    completionItems: 0,
    hover: 0,
    symbols: 0,
    vmHwmMb: 0,
    timeouts,
    wrong,
    load: loadavg()[0]!,
  };
  try {
    [r.initialize] = await timed(() =>
      conn.sendRequest('initialize', {
        processId: process.pid,
        initializationOptions: server.initOptions,
        rootUri: profile.workspaceFolder ? pathToFileURL(dirname(file)).href : null,
        workspaceFolders: profile.workspaceFolder ? [{ uri: pathToFileURL(dirname(file)).href, name: 'bench' }] : null,
        capabilities: {
          workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } },
          textDocument: {
            publishDiagnostics: { relatedInformation: true },
            ...(profile.pull ? { diagnostic: { dynamicRegistration: false } } : {}),
            completion: { completionItem: { documentationFormat: ['markdown'] } },
            hover: { contentFormat: ['markdown'] },
          },
        },
      }),
    );
    await conn.sendNotification('initialized', {});
    await conn.sendNotification('workspace/didChangeConfiguration', { settings: server.settings() });
    await new Promise(res => setTimeout(res, 300)); // let both servers read their settings
    const t0 = performance.now();
    const c0 = cpuMs(proc.pid!);
    await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    r.open = await waitDiagnostics(t0, 2, 'open', 1);
    r.openCpu = cpuMs(proc.pid!) - c0;
    if (profile.editorRequests) {
      await conn.sendRequest('textDocument/codeLens', { textDocument: { uri } });
      const here = { start: { line: 6, character: 4 }, end: { line: 6, character: 4 } };
      await conn.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: here, context: { diagnostics: [] } });
    }
    r.openDiagnostics = last?.params.diagnostics.length ?? 0;
    if (profile.pauseMs) await new Promise(res => setTimeout(res, profile.pauseMs));
    let version = 1;
    let cur = text;
    // Round r's k-th edit (of the edits in text order) lands after the r + 1 'x's already typed at each
    // earlier edit site and the r typed at its own: the same template character, one further each round.
    // The warm-up and warm keystrokes go on round after round; a partial last round is cut off, which
    // leaves every earlier offset right (each depends only on the edits typed before it).
    const sites = editOffsets(text, n);
    const cold = sites.length * (profile.rounds ?? 1);
    const warmFrom = cold + (profile.warmup ?? 0);
    const total = warmFrom + (profile.warm ?? 0);
    const offsets = Array.from({ length: Math.ceil(total / sites.length) }, (_, r) => sites.map((o, k) => o + r + k * (r + 1)))
      .flat()
      .slice(0, total);
    for (const [i, off] of offsets.entries()) {
      const pos = positionOf(cur, off);
      cur = cur.slice(0, off) + 'x' + cur.slice(off);
      const t = performance.now();
      const c = cpuMs(proc.pid!);
      await conn.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: ++version },
        contentChanges: [profile.fullSync ? { text: cur } : { range: { start: pos, end: pos }, text: 'x' }],
      });
      if (!profile.burst) {
        const wall = await waitDiagnostics(t, 2, `change@${pos.line}`, version);
        const cpu = cpuMs(proc.pid!) - c;
        if (i < cold) {
          r.change.push(wall);
          r.changeCpu.push(cpu);
        } else if (i >= warmFrom) {
          r.warm.push(wall);
          r.warmCpu.push(cpu);
        }
      } else await new Promise(res => setTimeout(res, 15));
    }
    const mid = cur.indexOf('category: VALIDATION', cur.indexOf(`(entry ${Math.floor(n / 2)})`)) + 'category: '.length;
    let items: unknown;
    [r.completionCategory, items] = await timed(() =>
      conn.sendRequest('textDocument/completion', { textDocument: { uri }, position: positionOf(cur, mid) }),
    );
    r.completionItems = Array.isArray(items) ? items.length : ((items as { items?: unknown[] })?.items?.length ?? 0);
    const codeAt = cur.indexOf('code: VALIDATION_E', cur.indexOf('error_mapping:')) + 'code: VALIDATION_'.length;
    [r.completionCode] = await timed(() =>
      conn.sendRequest('textDocument/completion', { textDocument: { uri }, position: positionOf(cur, codeAt) }),
    );
    [r.hover] = await timed(() => conn.sendRequest('textDocument/hover', { textDocument: { uri }, position: positionOf(cur, codeAt) }));
    [r.symbols] = await timed(() => conn.sendRequest('textDocument/documentSymbol', { textDocument: { uri } }));
    if (profile.settleMs) await new Promise(res => setTimeout(res, profile.settleMs));
    const status = readFileSync(`/proc/${proc.pid}/status`, 'utf8');
    r.vmHwmMb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    await Promise.race([conn.sendRequest('shutdown'), new Promise(res => setTimeout(res, 5000))]);
    await conn.sendNotification('exit');
    await new Promise(res => {
      const t = setTimeout(res, 1000);
      proc.once('exit', () => {
        clearTimeout(t);
        res(undefined);
      });
    });
  } finally {
    conn.dispose();
    proc.kill();
  }
  return r;
}
