/**
 * How `--fix` replaces a file it fixed (docs/robustness.md). The file is compared with the text the
 * fixes were computed from just before it is replaced (an edit made meanwhile is never lost); a
 * symbolic link is kept and its target fixed when that lies inside the checked folder (else skipped);
 * a read-only file is refused; a file with several hard links is rewritten in place (every name sees
 * the fix); otherwise a new file beside it, with the same mode, owner and group, is renamed over it
 * (atomic). A file whose owner or group we cannot give a new file is rewritten in place too. Every failure is one line;
 * nothing else is touched. The file system is injectable, so tests can make a disk fail.
 */
import * as nodeFs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import { fsPath, nameFromBytes } from '../node/bytePaths';
import { fileKind } from '../node/readRegularFile';
import { isInside } from '../node/walkTree';

export type WriteFs = Pick<
  typeof nodeFs,
  | 'lstatSync'
  | 'statSync'
  | 'realpathSync'
  | 'readFileSync'
  | 'openSync'
  | 'writeSync'
  | 'fsyncSync'
  | 'ftruncateSync'
  | 'closeSync'
  | 'fchownSync'
  | 'fchmodSync'
  | 'renameSync'
  | 'unlinkSync'
>;

export interface WriteOutcome {
  readonly written: boolean;
  /** A write that was due and failed (the run then exits 2); a skip for a good reason is not a failure. */
  readonly failed: boolean;
  readonly note?: string;
}

const ERRNO: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EIO: 'input/output error',
  EFBIG: 'file too large',
  EMFILE: 'too many open files',
  EBUSY: 'resource busy',
  ETXTBSY: 'text file busy',
};

/** An error as one short phrase: `no space left on device (ENOSPC)`. */
export function describeError(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code && ERRNO[code]) return `${ERRNO[code]} (${code})`;
  return code ? `${code}` : String((e as Error).message ?? e).split('\n')[0]!;
}

const skip = (note: string): WriteOutcome => ({ written: false, failed: false, note });
const fail = (note: string): WriteOutcome => ({ written: false, failed: true, note });
const decoder = new TextDecoder('utf-8', { fatal: true });
const BOM = [0xef, 0xbb, 0xbf];

/** The file's text now, or why it is no longer the text the fixes were made from. */
function stillSame(fs: WriteFs, path: string, before: string): { bom: boolean } | { why: string } {
  const st = fs.statSync(path);
  if (!st.isFile()) return { why: `changed since it was read (now ${fileKind(st)}); not fixed` };
  const bytes = fs.readFileSync(path);
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return { why: 'not valid UTF-8; not fixed' };
  }
  return text === before ? { bom: BOM.every((b, i) => bytes[i] === b) } : { why: 'changed since it was read; not fixed' };
}

/** Whether `path`, as written inside `root`, really lies inside it (no link leading out). */
function insideRoot(fs: WriteFs, target: string, path: string, root: string): boolean {
  const rel = relative(root, path);
  const base = !rel.startsWith('..') && !isAbsolute(rel) ? root : dirname(path);
  return isInside(target, fs.realpathSync(base));
}

/** The same calls, a path holding bytes that are not UTF-8 passed as those bytes (node/bytePaths.ts). */
function bytePathFs(fs: WriteFs): WriteFs {
  const any = fs as unknown as Record<string, (...a: unknown[]) => unknown>;
  const on =
    (name: string) =>
    (p: unknown, ...rest: unknown[]) =>
      any[name]!(typeof p === 'string' ? fsPath(p) : p, ...rest);
  return {
    ...fs,
    lstatSync: on('lstatSync'),
    statSync: on('statSync'),
    readFileSync: on('readFileSync'),
    openSync: on('openSync'),
    unlinkSync: on('unlinkSync'),
    renameSync: (a: unknown, b: unknown) => any.renameSync!(typeof a === 'string' ? fsPath(a) : a, typeof b === 'string' ? fsPath(b) : b),
    // The JavaScript realpathSync decodes a Buffer path as UTF-8 (losing its bytes); the native one does not.
    realpathSync: (p: unknown) => {
      const real = (any.realpathSync as { native?: (...a: unknown[]) => unknown }).native ?? any.realpathSync!;
      return nameFromBytes(real(typeof p === 'string' ? fsPath(p) : p, { encoding: 'buffer' }) as Buffer);
    },
  } as unknown as WriteFs;
}

/**
 * Replace `path` (whose text was `before` when the fixes were computed) with `text`, keeping its
 * byte-order mark. `root` is the checked folder: a link's target outside it is never written.
 */
export function writeFixed(path: string, before: string, text: string, root: string, over: Partial<WriteFs> = {}): WriteOutcome {
  const fs = bytePathFs({ ...nodeFs, ...over });
  let target: string;
  try {
    target = fs.realpathSync(path);
    if (!insideRoot(fs, target, path, root)) return skip(`a symbolic link to a file outside the checked folder; not fixed`);
    const first = stillSame(fs, target, before);
    if ('why' in first) return skip(first.why);
    const st = fs.statSync(target);
    if ((st.mode & 0o222) === 0) return fail('read-only; not fixed');
    const bytes = Buffer.from((first.bom && !text.startsWith('\ufeff') ? '\ufeff' : '') + text, 'utf8');
    if (st.nlink > 1) return inPlace(fs, target, before, bytes);
    return replace(fs, target, before, bytes, st);
  } catch (e) {
    return fail(`cannot write: ${describeError(e)}; not fixed`);
  }
}

function writeAll(fs: WriteFs, fd: number, bytes: Buffer): void {
  for (let off = 0; off < bytes.length;) off += fs.writeSync(fd, bytes, off, bytes.length - off);
}

/** Over the same inode (hard links, or an owner we could not give a new file). */
function inPlace(fs: WriteFs, path: string, before: string, bytes: Buffer): WriteOutcome {
  const again = stillSame(fs, path, before);
  if ('why' in again) return skip(again.why);
  const fd = fs.openSync(path, nodeFs.constants.O_WRONLY | (nodeFs.constants.O_NOFOLLOW ?? 0));
  try {
    writeAll(fs, fd, bytes);
    fs.ftruncateSync(fd, bytes.length);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return { written: true, failed: false };
}

/** A new file beside the old one, with its mode, owner and group, renamed over it once the old one is seen unchanged. */
function replace(fs: WriteFs, path: string, before: string, bytes: Buffer, st: nodeFs.Stats): WriteOutcome {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.mcp-aql-tmp`);
  const { O_WRONLY, O_CREAT, O_EXCL } = nodeFs.constants;
  let created = false;
  try {
    const fd = fs.openSync(tmp, O_WRONLY | O_CREAT | O_EXCL | (nodeFs.constants.O_NOFOLLOW ?? 0), 0o600);
    created = true;
    let ownerKept = true;
    try {
      writeAll(fs, fd, bytes);
      if (process.platform !== 'win32' && (st.uid !== process.getuid?.() || st.gid !== process.getgid?.()))
        try {
          fs.fchownSync(fd, st.uid, st.gid);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EPERM') throw e;
          ownerKept = false;
        }
      fs.fchmodSync(fd, st.mode & 0o7777);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    if (!ownerKept) {
      // Only the file's owner (or root) can give a new file its owner: write over the old one instead.
      fs.unlinkSync(tmp);
      created = false;
      return inPlace(fs, path, before, bytes);
    }
    const again = stillSame(fs, path, before);
    if ('why' in again) {
      fs.unlinkSync(tmp);
      created = false;
      return skip(again.why);
    }
    fs.renameSync(tmp, path);
    created = false;
    return { written: true, failed: false };
  } catch (e) {
    if (created)
      try {
        fs.unlinkSync(tmp);
      } catch {
        /* already gone */
      }
    return fail(`cannot write: ${describeError(e)}; not fixed`);
  }
}
