import { readFileSync } from 'node:fs';
import type { WriteFs } from './fixWrite';

/** What the CLI touches of the outside world, injectable for tests. */
export interface Io {
  readonly cwd: string;
  readonly color: boolean;
  stdout(s: string): void;
  /** Bytes to standard output as they are (--stdin --fix on input that is not UTF-8); else decoded through `stdout`. */
  stdoutBytes?(b: Uint8Array): void;
  stderr(s: string): void;
  /** All of standard input (`check --stdin`). */
  readStdin?(): Uint8Array;
  /** The file system --fix writes through (tests make a disk fail with it). */
  readonly writeFs?: Partial<WriteFs>;
}

export const processIo = (): Io => ({
  cwd: process.cwd(),
  color: !!process.stdout.isTTY && !process.env.NO_COLOR,
  stdout: s => void process.stdout.write(s),
  stdoutBytes: b => void process.stdout.write(b),
  stderr: s => void process.stderr.write(s),
  readStdin: () => readFileSync(0),
});
