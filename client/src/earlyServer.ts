/**
 * The language server's process, forked by the client's loader (loadClient.ts, dist/client.js) as its very first act,
 * before it reads and compiles the client's bundle: the server's Node boot and top level (100–300 ms) then overlap the
 * bundle's load and VS Code's wait before it calls `activate`, which were ahead of the server's start when opening a
 * file is what activates the extension (bench/NOTES.md, "eleventh sitting"). The client's first start takes this
 * process (languageClient.ts, `takeEarlyServer`); a restart, a process that is gone, or none forked → a fresh fork the
 * same way (`forkServer`). Under a debugger nothing is forked here: the client starts its debug server as before.
 *
 * The loader and the bundle are two scripts, each with its own copy of this file: the process is handed over through
 * a global slot. The server sends nothing before the client's `initialize` (LSP), so a process held until the client
 * listens loses no message. Node built-ins and serverProcess.ts only: it is part of the loader, which is not cached.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_ENV, SERVER_EXEC_ARGV } from '../../server/src/serverProcess';

/** A process forked early, and when (Date.now()). */
export interface EarlyServer {
  readonly process: ChildProcess;
  readonly forkedAt: number;
}

interface Held extends EarlyServer {
  failed: boolean;
  timer: NodeJS.Timeout;
}

const KEY = Symbol.for('mcp-aql.earlyServer');
const slot = globalThis as { [KEY]?: Held };

/** How long a process forked early waits for the client before it is ended (the client never came: no orphan). */
export const EARLY_SERVER_WAIT_MS = 60_000;

/** Whether the extension host runs under a debugger: vscode-languageclient's own test, which then starts `debug`. */
export const debugging = (execArgv: readonly string[] = process.execArgv): boolean =>
  execArgv.some(a => /^--(?:debug|debug-brk|inspect|inspect-brk)(?:=|$)/.test(a));

/**
 * The server (`module`: dist/server.js) forked as vscode-languageclient forks a Node module over IPC: the flags and
 * environment of serverProcess.ts, ELECTRON_RUN_AS_NODE (under Electron, process.execPath is Electron), the
 * arguments `--node-ipc --clientProcessId=<this process>` (the server ends when this process is gone), its output
 * piped. `cwd`: the client's fork runs in the first workspace folder; the loader's, which cannot know it, in the
 * extension host's (the server reads only absolute paths).
 */
export function forkServer(module: string, cwd?: string): ChildProcess {
  return fork(module, ['--node-ipc', `--clientProcessId=${process.pid}`], {
    execArgv: [...SERVER_EXEC_ARGV],
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', ELECTRON_NO_ASAR: '1', ...SERVER_ENV },
    cwd,
    silent: true,
  });
}

const alive = (p: ChildProcess): boolean => p.pid !== undefined && p.exitCode === null && p.signalCode === null && p.connected;

/**
 * The loader's first act: fork `dir`/server.js and hold it for the client. Not under a debugger, not in the build's
 * run of the bundle (MCP_AQL_WRITE_CODE_CACHE), not when no server.js lies beside the loader; a fork that throws
 * leaves nothing held (the client forks its own). Returns what it forked.
 */
export function startEarlyServer(
  dir: string,
  execArgv: readonly string[] = process.execArgv,
  waitMs = EARLY_SERVER_WAIT_MS,
): EarlyServer | undefined {
  if (slot[KEY] || debugging(execArgv) || process.env.MCP_AQL_WRITE_CODE_CACHE) return undefined;
  const module = join(dir, 'server.js');
  try {
    if (!existsSync(module)) return undefined;
    const child = forkServer(module);
    const forkedAt = Date.now();
    // Never taken (the extension's activation failed before the client started): ended, not left to the end of
    // the extension host. Unreferenced, as the process and its channel are while held: a Node process that loads
    // the loader without starting the client may end.
    const timer = setTimeout(() => {
      if (slot[KEY]?.process === child) {
        slot[KEY] = undefined;
        child.kill();
      }
    }, waitMs).unref();
    const held: Held = { process: child, forkedAt, failed: false, timer };
    // A failed spawn emits 'error' (and no 'exit'); the client then forks its own.
    child.once('error', () => (held.failed = true));
    child.unref();
    (child.channel as { unref?: () => void } | null | undefined)?.unref?.();
    slot[KEY] = held;
    return held;
  } catch {
    return undefined;
  }
}

/**
 * The process the loader forked, once, if it is still running and connected; undefined otherwise (none forked, taken
 * already, failed, exited). Taken, it is referenced again, as a process the client forks is.
 */
export function takeEarlyServer(): EarlyServer | undefined {
  const held = slot[KEY];
  slot[KEY] = undefined;
  if (!held) return undefined;
  clearTimeout(held.timer);
  const p = held.process;
  if (held.failed || !alive(p)) {
    if (p.exitCode === null && p.signalCode === null) p.kill();
    return undefined;
  }
  p.ref();
  (p.channel as { ref?: () => void } | null | undefined)?.ref?.();
  return { process: p, forkedAt: held.forkedAt };
}
