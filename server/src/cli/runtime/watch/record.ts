/**
 * `watch --record`'s file, as the judging thread writes it (cli/runtime/watch/lines.ts): opened on the
 * first response, appended to, and followed across a rotation. A log rotator renames the file away (and
 * may create a new one at the path): writes through the old descriptor would go on into the renamed
 * file, so before each batch the path is checked (one `lstat`, once per poll) and, when it no longer
 * names the file being written, a file is opened at the path again — appending, created if absent,
 * never through a symbolic link (O_NOFOLLOW), never anything but a regular file (a FIFO planted there
 * would block or swallow the lines). A path that cannot be reopened that way is said once and the
 * recording goes on in the file it was going to. A truncation in place (copytruncate) needs nothing:
 * the file is opened for appending.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync } from 'node:fs';
import { openForAppend } from '../../safeWrite';

const REOPEN = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

export class RecordFile {
  private said = false;

  constructor(
    /** The working directory (a folder link leading out of it is refused, as for every file written). */
    private readonly cwd: string,
    private readonly path: string,
    /** The path as given (for messages). */
    private readonly name: string,
    private readonly log: (s: string) => void,
  ) {}

  /** The first open, on the first response: by the one writer's rules (no link, no FIFO, no folder). */
  open(): number {
    return openForAppend(this.cwd, this.path);
  }

  /** The descriptor to write the next batch to: `fd`, or a new one at the path if the file was rotated (then `fd` is closed). */
  current(fd: number): number {
    let at;
    try {
      at = lstatSync(this.path, { bigint: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return fd; // cannot tell: keep writing where we were
    }
    if (at) {
      const now = fstatSync(fd, { bigint: true });
      if (at.ino === now.ino && at.dev === now.dev) return fd;
      if (!at.isFile())
        return this.keep(fd, at.isSymbolicLink() ? 'its path is now a symbolic link, not followed' : 'its path is now not a regular file');
    }
    let next: number;
    try {
      next = openSync(this.path, REOPEN, 0o666);
    } catch (e) {
      const link = (e as NodeJS.ErrnoException).code === 'ELOOP';
      return this.keep(
        fd,
        link ? 'its path is now a symbolic link, not followed' : `it cannot be opened again at its path: ${(e as Error).message}`,
      );
    }
    if (!fstatSync(next).isFile()) {
      closeSync(next);
      return this.keep(fd, 'its path is now not a regular file');
    }
    closeSync(fd);
    return next;
  }

  private keep(fd: number, why: string): number {
    if (!this.said) {
      this.said = true;
      this.log(`--record '${this.name}' was moved away and ${why}; recording goes on in the file it was`);
    }
    return fd;
  }
}
