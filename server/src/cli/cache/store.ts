/**
 * Where `check --cache` keeps its file and how it reads and writes it, for a checkout written by a
 * stranger (docs/robustness.md): by default in the user's cache folder (XDG_CACHE_HOME, ~/Library/Caches,
 * %LOCALAPPDATA%, else ~/.cache), one file per checked folder, never in the checked tree; never read or
 * written through a symbolic link, nor through a folder link leading out of the checked folder; only a
 * regular file is read (opened non-blocking, so a FIFO cannot hang); written atomically (a new file
 * beside it, then rename); signed with HMAC-SHA256 under a per-user secret (32 random bytes in the
 * user's cache folder, 0600), so a cache a pull request wrote or edited is ignored. Every refusal is a
 * `Refusal` the caller prints once; the run then goes on without a cache.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  type Stats,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileKind } from '../../node/readRegularFile';
import { dropTemp, writeBeside } from '../safeWrite';
import { settled } from '../tempFiles';

const HEADER = 'mcp-aql-errors-cache 2 ';
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

export class Refusal extends Error {}

/** The user's cache folder for this tool. */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'mcp-aql-errors');
  if (platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'mcp-aql-errors', 'Cache');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'mcp-aql-errors');
  return join(homedir(), '.cache', 'mcp-aql-errors');
}

const real = (p: string) => {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
};
const ownedByUs = (st: Stats) => typeof process.getuid !== 'function' || st.uid === process.getuid();

/** The user's cache folder, made 0700 if missing; refused if it is a link, not a folder or not ours. */
function privateDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (e) {
    throw new Refusal(`cannot create ${dir}: ${(e as Error).message}`);
  }
  const st = lstatSync(dir);
  if (!st.isDirectory() || !ownedByUs(st)) throw new Refusal(`${dir} is ${st.isDirectory() ? "not the user's" : fileKind(st)}`);
  if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

/** The per-user secret (created once, 0600, atomically: written aside, then hard-linked into place). */
export function userSecret(dir = userCacheDir()): Buffer {
  privateDir(dir);
  const file = join(dir, 'secret');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
      try {
        const st = fstatSync(fd);
        if (!st.isFile() || !ownedByUs(st) || (process.platform !== 'win32' && (st.mode & 0o077) !== 0))
          throw new Refusal(`${file} is not a private file of the user (0600)`);
        const text = readFileSync(fd, 'utf8').trim();
        if (!/^[0-9a-f]{64}$/.test(text)) throw new Refusal(`${file} is not a secret this tool wrote`);
        return Buffer.from(text, 'utf8');
      } finally {
        closeSync(fd);
      }
    } catch (e) {
      if (e instanceof Refusal) throw e;
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') throw new Refusal(`cannot read ${file}: ${code === 'ELOOP' ? 'a symbolic link' : (e as Error).message}`);
    }
    const tmp = writeAside(file, randomBytes(32).toString('hex') + '\n');
    try {
      linkSync(tmp, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new Refusal(`cannot create ${file}: ${(e as Error).message}`);
    } finally {
      dropTemp(tmp);
    }
  }
  throw new Refusal(`cannot create ${file}`);
}

/** The default cache file of a checked folder: in the user's cache folder, named by the folder's real path. */
export function defaultCacheFile(cwd: string, dir = userCacheDir()): string {
  const id = createHash('sha256')
    .update(real(cwd) ?? resolve(cwd))
    .digest('hex')
    .slice(0, 16);
  return join(dir, `check-${id}.json`);
}

/**
 * Refuse a cache path that a checkout could redirect: inside the checked folder (as written), every
 * existing folder on the way must really be there (no link leading out). Missing folders are created.
 */
export function checkCachePath(file: string, root: string): void {
  const dir = dirname(file);
  const rel = relative(root, dir);
  if (!rel.startsWith('..') && !isAbsolute(rel)) {
    const rootReal = real(root) ?? root;
    let probe = dir;
    while (probe !== root && real(probe) === undefined) probe = dirname(probe);
    const expected = join(rootReal, relative(root, probe));
    if (real(probe) !== expected) throw new Refusal('reached through a symbolic link leading outside the checked folder');
  }
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new Refusal(`cannot create its folder: ${(e as Error).message}`);
  }
}

/** The cache's body (its bytes) if its signature is ours; undefined when there is none yet. Never follows a link, never blocks. */
export function readCache(file: string, secret: Buffer): Buffer | undefined {
  let st: Stats;
  try {
    st = lstatSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Refusal((e as Error).message);
  }
  if (!st.isFile()) throw new Refusal(fileKind(st));
  let bytes: Buffer;
  try {
    const fd = openSync(file, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
    try {
      const now = fstatSync(fd);
      if (!now.isFile() || now.ino !== st.ino) throw new Refusal('replaced while it was opened');
      bytes = readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    if (e instanceof Refusal) throw e;
    throw new Refusal((e as NodeJS.ErrnoException).code === 'ELOOP' ? 'a symbolic link' : (e as Error).message);
  }
  // Never overwrite a file that is not a cache (`--cache-location package.json` by mistake); an older unsigned cache may go.
  // The signature is checked on the bytes as read, and only a body that passes is decoded.
  const start = bytes.subarray(0, 64).toString('latin1');
  if (bytes.length && !start.startsWith(HEADER.split(' ')[0]!) && !start.startsWith('{"version":1,'))
    throw new Refusal('not a cache file (it is kept as it is)');
  const nl = bytes.indexOf(0x0a);
  const head = (nl < 0 ? bytes : bytes.subarray(0, nl)).toString('utf8');
  const body = bytes.subarray(nl + 1);
  const mac = head.startsWith(HEADER) ? Buffer.from(head.slice(HEADER.length), 'utf8') : Buffer.alloc(0);
  const want = Buffer.from(sign(body, secret), 'utf8');
  if (mac.length !== want.length || !timingSafeEqual(mac, want))
    throw new Refusal('not written by this user (its signature does not match); starting afresh');
  return body;
}

const sign = (body: Buffer, secret: Buffer) => createHmac('sha256', secret).update(body).digest('hex');

/**
 * A new private file beside `file` holding `parts` (created exclusively: never an existing file or
 * link), by the CLI's one writer, so that an interruption removes it (cli/tempFiles.ts).
 */
function writeAside(file: string, ...parts: (string | Buffer)[]): string {
  return writeBeside(file, Buffer.concat(parts.map(p => (typeof p === 'string' ? Buffer.from(p, 'utf8') : p))), 0o600, 'tmp');
}

/** Sign and replace the cache atomically; refuses when something other than a regular file now stands there. */
export function writeCache(file: string, body: Buffer, secret: Buffer): void {
  let tmp: string;
  try {
    // Signed and written as the same bytes.
    tmp = writeAside(file, `${HEADER}${sign(body, secret)}\n`, body);
  } catch (e) {
    throw new Refusal((e as Error).message);
  }
  try {
    let st: Stats | undefined;
    try {
      st = lstatSync(file);
    } catch {
      /* none yet */
    }
    if (st && !st.isFile()) throw new Refusal(`now ${fileKind(st)}`);
    renameSync(tmp, file);
    settled(tmp);
  } catch (e) {
    dropTemp(tmp);
    throw e instanceof Refusal ? e : new Refusal((e as Error).message);
  }
}
