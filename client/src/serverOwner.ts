/**
 * What vscode-languageclient does for a server process it forks itself, done for the process the client is handed
 * (languageClient.ts gives it IPC transports, ServerOptions as a function, so the client does not own the process):
 * the server's output to the output channel a line at a time (stdout as info, stderr as errors), its exit logged,
 * and once the client has stopped, the process killed if it has not ended by itself within two seconds (the client
 * sends `exit`, after which the server ends). Each start takes the loader's process while it runs (earlyServer.ts),
 * else forks a fresh one. Node only.
 */
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { takeEarlyServer, type EarlyServer } from './earlyServer';

/** Where the server's output and exit go (the client's log output channel). */
export interface ServerLog {
  info(line: string): void;
  error(line: string): void;
}

/** The grace the client gives a stopped server before it kills it (vscode-languageclient: 2 s). */
export const STOP_GRACE_MS = 2000;

const running = (p: ChildProcess): boolean => p.exitCode === null && p.signalCode === null;

function lines(stream: Readable | null, to: (line: string) => void): void {
  if (stream) createInterface({ input: stream, crlfDelay: Infinity, terminal: false, historySize: 0 }).on('line', to);
}

export class ServerOwner {
  private current: ChildProcess | undefined;

  constructor(
    private readonly log: ServerLog,
    private readonly take: () => EarlyServer | undefined = takeEarlyServer,
    private readonly graceMs = STOP_GRACE_MS,
  ) {}

  /** The process for the client's next start: the loader's (the first start), or `fork()`'s. */
  next(fork: () => ChildProcess): { process: ChildProcess; early?: EarlyServer } {
    // A restart: the previous process had its `exit`; it gets its grace if it is still ending.
    this.stopped();
    const early = this.take();
    const p = early?.process ?? fork();
    this.current = p;
    lines(p.stdout, l => this.log.info(l));
    lines(p.stderr, l => this.log.error(l));
    // The words vscode-languageclient logs for a process of its own.
    p.on('exit', (code, signal) => {
      if (code === 0) this.log.info('Server process exited successfully');
      else if (code !== null) this.log.error(`Server process exited with code ${code}.`);
      if (signal !== null) this.log.error(`Server process exited with signal ${signal}.`);
    });
    return early ? { process: p, early } : { process: p };
  }

  /** The client stopped (or starts again): the current process ends by itself, or is killed after the grace. */
  stopped(): void {
    const p = this.current;
    this.current = undefined;
    if (p && running(p))
      setTimeout(() => {
        if (running(p)) p.kill('SIGKILL');
      }, this.graceMs).unref();
  }
}
