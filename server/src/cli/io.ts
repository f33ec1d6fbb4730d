import { readFileSync } from 'node:fs';

/** What the CLI touches of the outside world, injectable for tests. */
export interface Io {
  readonly cwd: string;
  readonly color: boolean;
  stdout(s: string): void;
  stderr(s: string): void;
  /** All of standard input (`check --stdin`). */
  readStdin?(): Uint8Array;
}

export const processIo = (): Io => ({
  cwd: process.cwd(),
  color: !!process.stdout.isTTY && !process.env.NO_COLOR,
  stdout: s => void process.stdout.write(s),
  stderr: s => void process.stderr.write(s),
  readStdin: () => readFileSync(0),
});
