/**
 * What `check --cache` trusts instead of reading a file (cli/cache/checkCache.ts): its size, mtime, ctime and inode,
 * as the listing found them (or asked when the probe runs), kept per file for its entry (none when racy) and
 * compared again before a re-checked file's entry is stored (it may have changed while it was checked).
 */
import { statSync, type Stats } from 'node:fs';
import { pathFromUri } from '../../node/bytePaths';

/**
 * A file modified this close to when it was read may change again within the file system's time
 * resolution (FAT: 2 s) without its mtime changing: it is hashed next time. (ctime is compared, not aged:
 * `touch -d` to restore an mtime sets it to now.)
 */
const RACY_MS = 2000;

export type StatKey = readonly [number, number, number, number];
const statKey = (st: Stats): StatKey => [st.size, st.mtimeMs, st.ctimeMs, st.ino];
export const sameStat = (a: readonly number[], b: readonly number[]) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];

export class FileStats {
  /** Each file's metadata as its entry keeps it: null when racy (hashed next time). */
  private readonly kept = new Map<string, StatKey | null>();
  /** Each file's metadata when probed. */
  private readonly probed = new Map<string, StatKey | undefined>();
  private readonly started = Date.now();

  /** A file's metadata now (`found`: the listing's), or undefined when it cannot be had (its read then says why). */
  look(uri: string, path: string, found?: Stats): StatKey | undefined {
    let key: StatKey | undefined;
    try {
      key = statKey(found ?? statSync(path));
    } catch {
      /* unreadable: the read reports it */
    }
    this.probed.set(uri, key);
    return key;
  }

  /** The file was trusted by its entry's metadata (`key`, the same). */
  trusted(uri: string, key: StatKey): void {
    this.kept.set(uri, key);
  }

  /** The file was read: its metadata are kept unless it was modified too close to now (racy). */
  read(uri: string): void {
    const key = this.probed.get(uri);
    this.kept.set(uri, key && key[1] < this.started - RACY_MS ? key : null);
  }

  /** What the file's entry keeps. */
  keptFor(uri: string): StatKey | null {
    return this.kept.get(uri) ?? null;
  }

  /**
   * Whether a file probed this run has other metadata now (any write moves its ctime): then what was
   * indexed and validated may come from another text than the one hashed (a worker, or a file trusted by
   * its metadata, reads it again). A file that could not be looked at counts as changed.
   */
  changedSinceProbe(uri: string): boolean {
    const was = this.probed.get(uri);
    if (!was) return this.probed.has(uri);
    try {
      return !sameStat(was, statKey(statSync(pathFromUri(uri))));
    } catch {
      return true;
    }
  }
}
