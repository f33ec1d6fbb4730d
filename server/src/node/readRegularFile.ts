/**
 * Read a file only if it is a regular file (docs/robustness.md, "Hostile repositories"): opened non-blocking,
 * so a FIFO cannot hang the open, then checked with fstat on the open descriptor, so a file swapped after
 * listing is judged by what is actually read. Shared by the CLI and the language server; reads, never writes.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, statSync, type Stats } from 'node:fs';
import { fsPath } from './bytePaths';

/** Why a file was not read. */
export type ReadFailure = {
  readonly ok: false;
  readonly reason: 'missing' | 'not-regular' | 'too-large' | 'error';
  readonly message: string;
};

export type ReadResult = { readonly ok: true; readonly bytes: Buffer } | ReadFailure;

/** What a non-regular file is, in words. */
export function fileKind(st: Stats): string {
  return st.isFIFO()
    ? 'a FIFO (named pipe)'
    : st.isSocket()
      ? 'a socket'
      : st.isCharacterDevice()
        ? 'a character device'
        : st.isBlockDevice()
          ? 'a block device'
          : st.isDirectory()
            ? 'a directory'
            : st.isSymbolicLink()
              ? 'a symbolic link'
              : 'not a regular file';
}

export const NONBLOCK = constants.O_NONBLOCK ?? 0;

/** A project config file is at most this many bytes (1 MiB): checked before it is read. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * A regular file opened for reading, or why not: looked at before opening (opening a device can have
 * effects of its own) and again through the descriptor (it may have been swapped meanwhile). The caller
 * closes `fd`.
 */
export function openRegularFile(path: string): { readonly ok: true; readonly fd: number; readonly size: number } | ReadFailure {
  let fd: number;
  try {
    const pre = statSync(fsPath(path));
    if (!pre.isFile()) return { ok: false, reason: 'not-regular', message: `${fileKind(pre)}, not a regular file` };
    fd = openSync(fsPath(path), constants.O_RDONLY | NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, reason: 'missing', message: 'no such file (deleted after it was listed?)' };
    return { ok: false, reason: 'error', message: code === 'EACCES' ? 'permission denied' : (e as Error).message };
  }
  try {
    const st = fstatSync(fd);
    if (st.isFile()) return { ok: true, fd, size: st.size };
    closeSync(fd);
    return { ok: false, reason: 'not-regular', message: `${fileKind(st)}, not a regular file` };
  } catch (e) {
    closeSync(fd);
    return { ok: false, reason: 'error', message: (e as Error).message };
  }
}

export function readRegularFile(path: string, maxBytes = Infinity): ReadResult {
  const opened = openRegularFile(path);
  if (!opened.ok) return opened;
  try {
    if (opened.size > maxBytes) return { ok: false, reason: 'too-large', message: `${opened.size} bytes, more than ${maxBytes}` };
    return { ok: true, bytes: readFileSync(opened.fd) };
  } catch (e) {
    return { ok: false, reason: 'error', message: (e as Error).message };
  } finally {
    closeSync(opened.fd);
  }
}
