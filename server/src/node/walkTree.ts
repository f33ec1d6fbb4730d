/**
 * A directory walk that a hostile checkout cannot steer (docs/robustness.md, "Hostile repositories"): each
 * real directory and file is visited once (by device and inode, so `ln -s . self` and `ln -s .. up` end),
 * symbolic links that lead outside the root are not followed unless asked, and only regular files are
 * reported as found; other candidates (FIFOs, sockets, devices, broken links) become notes. Shared by the CLI
 * and the language server; reads directory entries and metadata only. Names that are not UTF-8 are walked too
 * (node/bytePaths.ts).
 */
import { lstatSync, readdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { join, sep } from 'node:path';
import { fsPath, nameFromBytes } from './bytePaths';
import { fileKind } from './readRegularFile';

interface WalkOptions {
  /** The real path (realpathSync) of the folder that symbolic links may not leave. */
  readonly root: string;
  /** Follow links whose target is outside `root` (still each real directory once). */
  readonly followSymlinks?: boolean;
  /** Directory and file names never entered or reported (node_modules, .git, …). */
  readonly skip: ReadonlySet<string>;
  /** Names of files worth reporting (by extension). */
  readonly candidate: (name: string) => boolean;
  readonly maxDepth?: number;
}

export interface WalkNote {
  readonly path: string;
  readonly message: string;
}

export const LINK_OUTSIDE = 'a symbolic link to a path outside the checked folder; not followed';

/** Whether `real` is `root` or lies under it (both real paths). */
export function isInside(real: string, root: string): boolean {
  return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
}

const key = (st: Stats) => `${st.dev}:${st.ino}`;

/**
 * Walk `dir` in name order, depth first, lazily: yields each regular candidate file once (by its path
 * under `dir`, with its stats), so a caller can stop or pause between files. `onNote` hears about what
 * was skipped and why.
 */
export function* walkTree(
  dir: string,
  opts: WalkOptions,
  onNote: (n: WalkNote) => void = () => {},
): Generator<{ path: string; st: Stats }> {
  const seen = new Set<string>();
  function* visit(d: string, depth: number): Generator<{ path: string; st: Stats }> {
    let names: string[];
    try {
      // As bytes: a name that is not UTF-8 is kept (escaped), not decoded into a path that does not exist.
      names = readdirSync(fsPath(d), { encoding: 'buffer' }).map(nameFromBytes);
    } catch (e) {
      onNote({ path: d, message: `cannot list: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` });
      return;
    }
    for (const name of names.sort()) {
      if (opts.skip.has(name)) continue;
      const p = join(d, name);
      let st: Stats;
      try {
        st = lstatSync(fsPath(p));
      } catch {
        continue; /* gone since the listing */
      }
      if (st.isSymbolicLink()) {
        let real: string;
        try {
          real = nameFromBytes(realpathSync(fsPath(p), { encoding: 'buffer' }));
          st = statSync(fsPath(real));
        } catch (e) {
          if (opts.candidate(name))
            onNote({ path: p, message: `a broken symbolic link (${(e as NodeJS.ErrnoException).code ?? 'unreadable'}); skipped` });
          continue;
        }
        if (!opts.followSymlinks && !isInside(real, opts.root)) {
          if (st.isDirectory() || opts.candidate(name)) onNote({ path: p, message: `${LINK_OUTSIDE} (--follow-symlinks to follow)` });
          continue;
        }
      }
      if (st.isDirectory()) {
        if (seen.has(key(st)) || depth >= (opts.maxDepth ?? Infinity)) continue;
        seen.add(key(st));
        yield* visit(p, depth + 1);
      } else if (!opts.candidate(name)) continue;
      else if (!st.isFile()) onNote({ path: p, message: `${fileKind(st)}; skipped (only regular files are read)` });
      else if (!seen.has(key(st))) {
        seen.add(key(st));
        yield { path: p, st };
      }
    }
  }
  let top: Stats;
  try {
    top = statSync(fsPath(dir));
  } catch (e) {
    onNote({ path: dir, message: `cannot list: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` });
    return;
  }
  seen.add(key(top));
  yield* visit(dir, 0);
}
