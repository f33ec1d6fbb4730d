import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isCommandLine, neutralizeCommands } from './format';
import type { WriteFs } from './safeWrite';

/**
 * What standard output carries: our own text (the default), our `github` annotations (the only
 * workflow commands we write), or bytes that are not ours to change (a file's fixed text, a diff).
 */
export type OutKind = 'text' | 'annotations' | 'raw';

/** What the CLI touches of the outside world, injectable for tests. */
export interface Io {
  readonly cwd: string;
  readonly color: boolean;
  stdout(s: string, kind?: OutKind): void;
  /** Bytes to standard output as they are (--stdin --fix on input that is not UTF-8); else decoded through `stdout`. */
  stdoutBytes?(b: Uint8Array): void;
  stderr(s: string): void;
  /** All of standard input (`check --stdin`). */
  readStdin?(): Uint8Array;
  /** The environment (GITHUB_ACTIONS, FORCE_COLOR, NO_COLOR); default none. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The file system --fix writes through (tests make a disk fail with it). */
  readonly writeFs?: Partial<WriteFs>;
}

/**
 * A reader that stops early (`mcp-aql-errors docs … | head -1`) closes standard output: the next write
 * fails with EPIPE. That ends the run there, quietly and with exit 0, as other command-line tools do
 * (Node ignores SIGPIPE, so without this the failure is an uncaught error event and a stack trace).
 * A closed standard error is ignored: the run goes on with its output. Any other error is rethrown.
 */
export function endOnClosedOutput(
  out: Pick<NodeJS.WriteStream, 'on'> = process.stdout,
  err: Pick<NodeJS.WriteStream, 'on'> = process.stderr,
  exit: (code: number) => void = code => process.exit(code),
): void {
  out.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    exit(0);
  });
  err.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
  });
}

export const processIo = (): Io => ({
  cwd: process.cwd(),
  color: !!process.stdout.isTTY && !process.env.NO_COLOR,
  stdout: s => void process.stdout.write(s),
  stdoutBytes: b => void process.stdout.write(b),
  stderr: s => void process.stderr.write(s),
  readStdin: () => readFileSync(0),
  env: process.env,
});

/**
 * The one way out (docs/robustness.md, "CLI output that a checkout cannot forge or hide"): every line written to standard output or standard error is made
 * harmless to the GitHub runner (format/commands.ts) unless it is one of our annotations. Raw bytes
 * (a fixed file's text, a diff) are written unchanged; under GitHub Actions, when they hold a line the
 * runner would read as a command, they are bracketed by `::stop-commands::` with a random token.
 */
export function guardIo(io: Io): Io {
  const atStart = { out: true, err: true };
  const ends = (s: string) => (s.length ? /[\r\n]$/.test(s) : undefined);
  return {
    ...io,
    stdout(s, kind = 'text') {
      if (kind === 'raw') {
        const lines = s.split(/\r\n|\r|\n/);
        if (io.env?.GITHUB_ACTIONS === 'true' && lines.some(isCommandLine)) {
          const token = randomUUID();
          io.stdout(`${atStart.out ? '' : '\n'}::stop-commands::${token}\n`);
          io.stdout(s + (/[\r\n]$/.test(s) || !s ? '' : '\n'));
          io.stdout(`::${token}::\n`);
          atStart.out = true;
          return;
        }
        io.stdout(s);
      } else io.stdout(neutralizeCommands(s, 'text', { own: kind === 'annotations', atLineStart: atStart.out }));
      atStart.out = ends(s) ?? atStart.out;
    },
    stderr(s) {
      io.stderr(neutralizeCommands(s, 'text', { atLineStart: atStart.err }));
      atStart.err = ends(s) ?? atStart.err;
    },
  };
}
