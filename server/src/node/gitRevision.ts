/**
 * The old versions of files at a git revision, for `diff --base REV` and the editor's Compare Contract
 * (docs/contract-diff.md). Safe on a stranger's repository: git runs without a shell, revisions and paths are
 * separate arguments after `--end-of-options` / `--`, a revision starting with `-` is refused, every output
 * is size-bounded, no hook, fsmonitor, external diff or textconv program runs, no lock is taken and nothing
 * is checked out (objects are read with `git cat-file blob <id>`).
 */
import { spawnSync } from 'node:child_process';

/** git could not answer (not a repository, unknown revision, output too large): a one-line message. */
export class GitError extends Error {}

/** Listings and diffs: 64 MiB; one file: 8 MiB (over `maxFileSize`, which stops the check anyway). */
const MAX_LISTING = 64 * 1024 * 1024;
export const MAX_BLOB = 8 * 1024 * 1024;

const SAFE_CONFIG = ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', '-c', 'diff.external=', '-c', 'core.quotePath=false'];

function git(args: readonly string[], cwd: string, maxBuffer = MAX_LISTING): Buffer {
  const r = spawnSync('git', [...SAFE_CONFIG, ...args], {
    cwd,
    maxBuffer,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', GIT_EXTERNAL_DIFF: '' },
    shell: false,
  });
  if (r.error) {
    const code = (r.error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new GitError('git was not found on PATH');
    if (code === 'ENOBUFS') throw new GitError(`git ${args[0]}: output larger than ${maxBuffer} bytes; refused`);
    throw new GitError(`git ${args[0]}: ${r.error.message}`);
  }
  if (r.status !== 0) {
    const msg = r.stderr.toString('utf8').trim().split('\n')[0] ?? '';
    throw new GitError(`git ${args[0]} failed: ${msg || `exit status ${r.status}`}`);
  }
  return r.stdout;
}

/** A user-given revision → its commit id; refuses what could be read as an option. */
export function resolveRevision(rev: string, cwd: string): string {
  if (!rev || rev.startsWith('-') || /[\0\n\r]/.test(rev)) throw new GitError(`'${rev}' is not a revision`);
  const out = git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], cwd)
    .toString('utf8')
    .trim();
  if (!/^[0-9a-f]{40,64}$/.test(out)) throw new GitError(`'${rev}' is not a commit`);
  return out;
}

export const repositoryTop = (cwd: string): string => git(['rev-parse', '--show-toplevel'], cwd).toString('utf8').trim();

export interface RevisionFile {
  /** Path from the top of the repository, `/`-separated. */
  readonly path: string;
  readonly blob: string;
}

/** Regular files (no links, no submodules) under `paths` (relative to `cwd`) at `commit`. */
export function listFiles(commit: string, paths: readonly string[], cwd: string): RevisionFile[] {
  const out = git(['ls-tree', '-r', '-z', '--full-tree', '--full-name', commit, '--', ...paths.map(p => pathspec(p, cwd))], cwd);
  const files: RevisionFile[] = [];
  for (const rec of out.toString('utf8').split('\0')) {
    const m = /^(\d{6}) (\w+) ([0-9a-f]+)\t([\s\S]+)$/.exec(rec);
    if (m && m[2] === 'blob' && (m[1] === '100644' || m[1] === '100755')) files.push({ path: m[4]!, blob: m[3]! });
  }
  return files;
}

/** `paths` as literal pathspecs from the top, so `*`, `:(…)` magic and a leading `-` mean nothing. */
function pathspec(p: string, cwd: string): string {
  const prefix = git(['rev-parse', '--show-prefix'], cwd).toString('utf8').trim();
  const joined = `${prefix}${p === '.' ? '' : p.replace(/^\.\//, '')}`.replace(/\/+$/, '');
  return `:(top,literal)${joined}`;
}

/** A file's bytes by object id, or undefined when it is larger than MAX_BLOB. */
export function readBlob(blob: string, cwd: string): Uint8Array | undefined {
  if (!/^[0-9a-f]+$/.test(blob)) throw new GitError(`git: '${blob}' is not an object id`);
  const size = Number(git(['cat-file', '-s', blob], cwd).toString('utf8').trim());
  if (!(size <= MAX_BLOB)) return undefined;
  return git(['cat-file', 'blob', blob], cwd, MAX_BLOB + 1);
}

/** Files renamed between `commit` and the working tree: old path → new path (from the top). */
export function renamesSince(commit: string, paths: readonly string[], cwd: string): Map<string, string> {
  const out = git(
    [
      'diff',
      '--no-ext-diff',
      '--no-textconv',
      '--no-color',
      '--name-status',
      '-z',
      '-M',
      commit,
      '--',
      ...paths.map(p => pathspec(p, cwd)),
    ],
    cwd,
  );
  const parts = out.toString('utf8').split('\0');
  const renames = new Map<string, string>();
  for (let i = 0; i < parts.length;) {
    const status = parts[i++]!;
    if (!status) continue;
    if (status.startsWith('R') || status.startsWith('C')) {
      const from = parts[i++]!;
      const to = parts[i++]!;
      if (status.startsWith('R')) renames.set(from, to);
    } else i++;
  }
  return renames;
}
