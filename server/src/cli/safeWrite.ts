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
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fsPath, nameFromBytes } from '../node/bytePaths';
import { fileKind } from '../node/readRegularFile';
import { isInside } from '../node/walkTree';
import { UsageError } from './files';
import { settled, tracked } from './tempFiles';

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
    tracked(tmp);
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
      settled(tmp);
      created = false;
      return inPlace(fs, path, before, bytes);
    }
    const again = stillSame(fs, path, before);
    if ('why' in again) {
      fs.unlinkSync(tmp);
      settled(tmp);
      created = false;
      return skip(again.why);
    }
    fs.renameSync(tmp, path);
    settled(tmp);
    created = false;
    return { written: true, failed: false };
  } catch (e) {
    if (created) {
      try {
        fs.unlinkSync(tmp);
      } catch {
        /* already gone */
      }
      settled(tmp);
    }
    return fail(`cannot write: ${describeError(e)}; not fixed`);
  }
}

/*
 * Every other file a command writes (docs/robustness.md, "Nothing lost on the new surface"): `-o` reports of every command,
 * `docs -o`, `types -o`, `probe --record`, `init`. The path the user named, and nothing else:
 *  - never through a symbolic link at the path (a checkout may commit one, pointing anywhere), nor into a
 *    folder that a link inside the working directory leads out of it; a path outside the working
 *    directory is the user's own choice, its last component aside;
 *  - only a regular file or a new path, written whole: a new file beside it (created exclusively, never
 *    through a link), renamed over it; the old file's mode is kept; a FIFO, a socket, a directory, a block
 *    device or a file of a kernel file system (/proc, /sys: they look like regular files) is one clear
 *    error, before anything is opened (a FIFO would block, /proc used to make folder creation spin);
 *  - a character device (`-o /dev/null` to drop a report, a terminal) is written to as it is: opened
 *    without following a link and without creating anything, never renamed over (as root, a rename over
 *    /dev/null replaced the device with a regular file);
 *  - missing folders are created one by one (Node's recursive mkdir spins on some /proc paths).
 * Every refusal or failure is a UsageError (exit 2) naming the option and the path.
 */

/** Magic numbers (statfs f_type) of the kernel's own file systems, where a "regular file" is not one. */
const KERNEL_FS = new Map<number, string>([
  [0x9fa0, 'proc'],
  [0x62656572, 'sysfs'],
  [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'],
  [0x73636673, 'securityfs'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0xcafe4a11, 'bpf'],
]);

/** Where a write may go: the file's folder, created if missing, and what stands at the path now. */
function prepare(path: string, cwd: string): { st?: nodeFs.Stats } | { why: string } {
  const dir = dirname(path);
  // The nearest folder that exists, then every missing one below it, created one at a time.
  const missing: string[] = [];
  let probe = dir;
  for (;;) {
    let st: nodeFs.Stats | undefined;
    try {
      st = nodeFs.statSync(fsPath(probe));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return { why: describeError(e) };
    }
    if (st) {
      if (!st.isDirectory()) return { why: `'${relative(cwd, probe) || '.'}' is ${st.isFile() ? 'a file' : fileKind(st)}, not a folder` };
      break;
    }
    const up = dirname(probe);
    if (up === probe) return { why: 'no such folder' };
    missing.unshift(probe);
    probe = up;
  }
  const kernel = kernelFs(probe);
  if (kernel) return { why: `a path on the kernel's ${kernel} file system, not a regular file` };
  const cwdReal = realOr(cwd);
  const rel = relative(cwd, dir);
  if (!rel.startsWith('..') && !isAbsolute(rel) && !isInside(realOr(probe), cwdReal))
    return { why: 'its folder is reached through a symbolic link leading outside the working directory' };
  for (const m of missing)
    try {
      nodeFs.mkdirSync(fsPath(m));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return { why: `cannot create the folder '${m}': ${describeError(e)}` };
    }
  try {
    return { st: nodeFs.lstatSync(fsPath(path)) };
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? {} : { why: describeError(e) };
  }
}

function realOr(p: string): string {
  try {
    return nameFromBytes(nodeFs.realpathSync.native(fsPath(p), { encoding: 'buffer' }));
  } catch {
    return p;
  }
}

function kernelFs(dir: string): string | undefined {
  if (typeof nodeFs.statfsSync !== 'function') return undefined;
  try {
    return KERNEL_FS.get(Number(nodeFs.statfsSync(fsPath(dir)).type));
  } catch {
    return undefined;
  }
}

/** Why `st` (what stands at the path) is not written, or undefined for a regular file or a character device. */
function refusal(st: nodeFs.Stats): string | undefined {
  if (st.isSymbolicLink()) return 'a symbolic link, never written through (remove it, or name its target)';
  if (st.isFile() || st.isCharacterDevice()) return undefined;
  return `${fileKind(st)}; only a regular file, a character device or a new path is written`;
}

/** Bytes to a character device already there (no create, no link, no rename); the same device at the open. */
function toDevice(path: string, bytes: Buffer, st: nodeFs.Stats): void {
  const fd = nodeFs.openSync(fsPath(path), nodeFs.constants.O_WRONLY | (nodeFs.constants.O_NOFOLLOW ?? 0));
  try {
    const now = nodeFs.fstatSync(fd);
    if (!now.isCharacterDevice() || now.rdev !== st.rdev) throw new Error('replaced while it was opened');
    for (let off = 0; off < bytes.length;) off += nodeFs.writeSync(fd, bytes, off, bytes.length - off);
  } finally {
    nodeFs.closeSync(fd);
  }
}

/**
 * A new file beside `path` holding `bytes` (created exclusively, never through a link), listed for
 * removal on a signal (tempFiles.ts) until the caller settles it.
 */
export function writeBeside(path: string, bytes: Buffer, mode = 0o666, suffix = 'mcp-aql-tmp'): string {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.${suffix}`);
  const { O_WRONLY, O_CREAT, O_EXCL } = nodeFs.constants;
  const fd = nodeFs.openSync(fsPath(tmp), O_WRONLY | O_CREAT | O_EXCL | (nodeFs.constants.O_NOFOLLOW ?? 0), mode);
  tracked(tmp);
  try {
    for (let off = 0; off < bytes.length;) off += nodeFs.writeSync(fd, bytes, off, bytes.length - off);
    nodeFs.closeSync(fd);
  } catch (e) {
    try {
      nodeFs.closeSync(fd);
    } catch {
      /* closed */
    }
    dropTemp(tmp);
    throw e;
  }
  return tmp;
}

/** Remove a temporary file (gone already is fine) and take it off the list. */
export function dropTemp(tmp: string): void {
  try {
    nodeFs.unlinkSync(fsPath(tmp));
  } catch {
    /* gone */
  }
  settled(tmp);
}

/**
 * Write `data` to the file the user named with `option` (relative to the working directory), whole.
 * `exclusive`: only where nothing is (`init`): an existing file, link or anything else is an error.
 */
export function writeOutput(cwd: string, file: string, data: string | Uint8Array, option: string, exclusive = false): void {
  const path = resolve(cwd, file);
  const fail = (why: string): never => {
    throw new UsageError(`cannot write ${option} '${file}': ${why}`);
  };
  const ready = prepare(path, cwd);
  if ('why' in ready) return fail(ready.why);
  const { st } = ready;
  if (st && exclusive) return fail(`${st.isFile() ? 'the file' : fileKind(st)} is already there; nothing written`);
  const why = st && refusal(st);
  if (why) return fail(why);
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data);
  try {
    if (st?.isCharacterDevice()) return toDevice(path, bytes, st);
    const tmp = writeBeside(path, bytes);
    try {
      if (st) nodeFs.chmodSync(fsPath(tmp), st.mode & 0o7777);
      if (exclusive) {
        // A hard link fails if anything (a link included) appeared at the path meanwhile.
        nodeFs.linkSync(fsPath(tmp), fsPath(path));
      } else {
        const now = lstatOrUndefined(path);
        const late = now && refusal(now);
        if (late || now?.isCharacterDevice()) fail(`now ${late ?? 'a character device'}`);
        nodeFs.renameSync(fsPath(tmp), fsPath(path));
      }
    } finally {
      dropTemp(tmp); // after a rename: already gone; after a link: the second name goes
    }
  } catch (e) {
    if (e instanceof UsageError) throw e;
    fail((e as NodeJS.ErrnoException).code === 'EEXIST' ? 'something is already there; nothing written' : describeError(e));
  }
}

function lstatOrUndefined(path: string): nodeFs.Stats | undefined {
  try {
    return nodeFs.lstatSync(fsPath(path));
  } catch {
    return undefined;
  }
}

const APPEND =
  nodeFs.constants.O_WRONLY |
  nodeFs.constants.O_APPEND |
  nodeFs.constants.O_CREAT |
  (nodeFs.constants.O_NOFOLLOW ?? 0) |
  (nodeFs.constants.O_NONBLOCK ?? 0);

/**
 * A file opened for appending (`watch --record`), by the same rules: no link, a regular file, a
 * character device or a new path (created), never blocking on a FIFO. Throws an Error saying why.
 */
export function openForAppend(cwd: string, path: string): number {
  const ready = prepare(path, cwd);
  if ('why' in ready) throw new Error(ready.why);
  const why = ready.st && refusal(ready.st);
  if (why) throw new Error(why);
  let fd: number;
  try {
    fd = nodeFs.openSync(fsPath(path), APPEND, 0o666);
  } catch (e) {
    throw new Error((e as NodeJS.ErrnoException).code === 'ELOOP' ? refusal(nodeFs.lstatSync(fsPath(path)))! : describeError(e));
  }
  const st = nodeFs.fstatSync(fd);
  if (!st.isFile() && !st.isCharacterDevice()) {
    nodeFs.closeSync(fd);
    throw new Error(`${fileKind(st)}; only a regular file, a character device or a new path is written`);
  }
  return fd;
}
