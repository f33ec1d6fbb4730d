/**
 * What `watch`'s forwarding thread does with a chunk once it is forwarded (issue 24): post a copy to the
 * judging thread (cli/watchWorker.ts), nothing else — no parsing, no judging, no output. Memory stays
 * bounded when the judge falls behind: the copies posted and not yet read (a count the judging thread
 * keeps in shared memory) may reach MAX_QUEUED bytes; past that the copies are dropped, counted as passed
 * on unchecked, with a line at most every 10 s, until the judge has caught up to half of it; the next copy
 * of a direction that lost some is marked `cut` (the judge skips the line they cut). The traffic is never
 * held. Once the judge is gone (`broken`), copies are only counted.
 */
import type { Dir } from './watchChecker';

/** Copies posted and not yet read by the judge, in bytes, before copies are dropped. */
export const MAX_QUEUED = 256 * 1024 * 1024;
/** At most one "behind" line this often. */
const SKIP_LOG_MS = 10_000;

/** What is posted: a direction (bit 1: `cut`) and the bytes. */
export type Copy = [number, Uint8Array];

export class WatchGate {
  /** Bytes posted, modulo 2^32 (the judge counts the bytes it read the same way). */
  private posted = 0;
  private readonly cut = [false, false];
  private skipping = false;
  private skipped = 0;
  private lastLog = -Infinity;
  /** Bytes passed on unchecked, in all. */
  unchecked = 0;
  /** The judge is gone: nothing more is posted. */
  broken = false;

  constructor(
    private readonly post: (m: Copy) => void,
    /** [0]: bytes the judge has read, modulo 2^32. */
    private readonly read: Int32Array,
    private readonly log: (s: string) => void,
    private readonly maxQueued = MAX_QUEUED,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** A chunk, already forwarded. */
  pass(dir: Dir, c: Buffer): void {
    if (this.broken) {
      this.unchecked += c.length;
      return;
    }
    const behind = (this.posted - Atomics.load(this.read, 0)) | 0;
    if (behind + c.length > this.maxQueued || (this.skipping && behind > this.maxQueued / 2)) return this.skip(dir, c.length);
    this.skipping = false;
    // A chunk read from a pipe owns its memory; one that shares a larger buffer is copied alone (a posted
    // view would carry all of that buffer).
    const own = c.byteOffset === 0 && c.buffer.byteLength === c.length ? c : Uint8Array.prototype.slice.call(c);
    this.post([dir | (this.cut[dir] ? 2 : 0), own]);
    this.cut[dir] = false;
    this.posted = (this.posted + c.length) | 0;
  }

  /** Bytes posted and not read by the judge (left behind when it died). */
  unread(): number {
    return Math.max(0, (this.posted - Atomics.load(this.read, 0)) | 0);
  }

  private skip(dir: Dir, n: number): void {
    this.skipping = true;
    this.cut[dir] = true;
    this.unchecked += n;
    this.skipped += n;
    if (this.now() - this.lastLog < SKIP_LOG_MS) return;
    this.log(
      `the checker fell ${Math.round(this.maxQueued / 1048576)} MiB behind the traffic; ${this.skipped} bytes passed on unchecked until it catches up (the session goes on)`,
    );
    this.skipped = 0;
    this.lastLog = this.now();
  }
}
