/**
 * Which files a `check` run reads: directories walked, globs expanded with our own matcher. A
 * checkout is untrusted (docs/robustness.md): each real directory is visited once, symbolic links leading
 * outside the checked folder are not followed (unless --follow-symlinks), and only regular files are
 * listed; everything skipped is reported through `onNote`.
 */
import { realpathSync, statSync, type Stats } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { compileGlob, GlobSyntaxError, type Glob } from '../service';
import { fsPath, nameFromBytes } from '../node/bytePaths';
import { fileKind, readRegularFile } from '../node/readRegularFile';
import { escapeControls } from './format';
import { isInside, LINK_OUTSIDE, walkTree } from '../node/walkTree';

const SKIP = new Set(['node_modules', '.git', 'dist', 'out', '.cache', '.e2e']);
const CANDIDATE = /\.(?:ya?ml|json|jsonl|ndjson|md|markdown)$/i;

export class UsageError extends Error {}

export interface Found {
  readonly path: string;
  /** named on the command line, not found by walking */ readonly explicit: boolean;
  /** Its metadata when it was found (links followed): `check --cache` trusts it instead of asking again. */
  readonly st?: Stats;
}

interface Keyed extends Found {
  readonly key: string;
  readonly st: Stats;
}

interface FindOptions {
  /** Follow symbolic links whose target lies outside the checked folder. */
  readonly followSymlinks?: boolean;
  /** A path that was skipped, and why (printed by the caller). */
  readonly onNote?: (path: string, message: string) => void;
  /** A glob that matches nothing is a usage error (default); false: a note (--no-error-on-unmatched-pattern). */
  readonly errorOnUnmatched?: boolean;
}

const isGlob = (s: string) => /[*?[{]/.test(s);
const lexicallyInside = (p: string, dir: string) => {
  const r = relative(dir, p);
  return !r.startsWith('..') && !isAbsolute(r);
};
const real = (p: string) => {
  try {
    return nameFromBytes(realpathSync(fsPath(p), { encoding: 'buffer' }));
  } catch {
    return p;
  }
};

/** A path inside `cwd` as written that really lies outside it: reached through a symbolic link leading out. */
export const leavesCwd = (p: string, cwd: string): boolean => lexicallyInside(p, cwd) && !isInside(real(p), real(cwd));
export const LINK_NOTE = `${LINK_OUTSIDE} (--follow-symlinks to follow)`;

function glob(pattern: string): Glob {
  try {
    return compileGlob(pattern);
  } catch (e) {
    if (e instanceof GlobSyntaxError) throw new UsageError(`invalid glob '${pattern}': ${e.message}`);
    throw e;
  }
}

export function findFiles(args: readonly string[], cwd: string, opts: FindOptions = {}): Found[] {
  const out: Keyed[] = [];
  const note = opts.onNote ?? (() => {});
  const cwdReal = real(cwd);
  // The folder links may not leave: the working directory (the checkout) for what lies in it, else the folder named.
  const rootFor = (p: string) => (lexicallyInside(p, cwd) ? cwdReal : real(p));
  const walk = (dir: string, into: Keyed[]) => {
    for (const { path, st } of walkTree(
      dir,
      { root: rootFor(dir), followSymlinks: opts.followSymlinks, skip: SKIP, candidate: n => CANDIDATE.test(n) },
      n => note(n.path, n.message),
    )) {
      into.push({ path, explicit: false, key: `${st.dev}:${st.ino}`, st });
    }
  };
  for (const a of args.length ? args : ['.']) {
    if (isGlob(a)) {
      const g = glob(a.replace(/^\.\//, ''));
      const base = resolve(cwd, a.slice(0, a.search(/[*?[{]/)).replace(/[^/]*$/, '') || '.');
      const all: Keyed[] = [];
      if (!opts.followSymlinks && leavesCwd(base, cwd)) note(base, LINK_NOTE);
      else walk(base, all);
      const hits = all.filter(f => g.test(relative(cwd, f.path).split(sep).join('/')));
      if (!hits.length) {
        if (opts.errorOnUnmatched === false) note(resolve(cwd, a), 'no file matches this glob');
        else throw new UsageError(`no file matches '${a}'`);
      }
      out.push(...hits);
      continue;
    }
    const p = resolve(cwd, a);
    let st;
    try {
      st = statSync(fsPath(p));
    } catch {
      throw new UsageError(`cannot read '${a}': no such file or directory`);
    }
    if (!opts.followSymlinks && leavesCwd(p, cwd)) {
      note(p, LINK_NOTE);
      continue;
    }
    if (st.isDirectory()) walk(p, out);
    else if (!st.isFile()) note(p, `${fileKind(st)}; skipped (only regular files are read)`);
    else out.push({ path: p, explicit: true, key: `${st.dev}:${st.ino}`, st });
  }
  // One file reached by several names or arguments is checked once (its declarations would clash with themselves).
  const seen = new Set<string>();
  return out.filter(f => (seen.has(f.key) ? false : (seen.add(f.key), true))).map(({ path, explicit, st }) => ({ path, explicit, st }));
}

/** A file's text (regular files only: a FIFO never hangs the run); bytes that are not UTF-8 become U+FFFD. */
export function readText(path: string, cwd: string): string {
  const r = readRegularFile(path);
  if (!r.ok) throw new UsageError(`cannot read '${escapeControls(relative(cwd, path))}': ${r.message}`);
  return new TextDecoder('utf-8', { fatal: false }).decode(r.bytes);
}
