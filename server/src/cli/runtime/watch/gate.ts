/**
 * What `watch`'s forwarding thread does with a chunk once it is forwarded: hand a copy to the
 * judging thread (cli/runtime/watch/worker.ts) through shared memory (cli/runtime/watch/ring.ts), nothing else — no
 * parsing, no judging, no output, no allocation for a message-sized chunk. A chunk of BIG bytes or more is
 * posted on a message port (its copy is the port's), a marker in the ring keeps its place. Memory stays
 * bounded when the judge falls behind: a copy that finds no room (the ring full, or MAX_QUEUED bytes
 * posted and unread) is dropped, counted as passed on unchecked, with a line at most every 10 s; the next
 * copy of that direction is marked `cut` (the judge skips the line the dropped copies cut). The traffic
 * is never held. Once the judge is gone (`broken`), copies are only counted.
 */
import type { Dir } from './checker';
import { BIG, CUT, MAX_QUEUED, ON_PORT, type RingWriter } from './ring';

/** At most one "behind" line this often. */
const SKIP_LOG_MS = 10_000;

export class WatchGate {
  private readonly cut = [false, false];
  private skipped = 0;
  private lastLog = -Infinity;
  /** Bytes passed on unchecked, in all. */
  unchecked = 0;
  /** The judge is gone: nothing more is handed over. */
  broken = false;

  constructor(
    private readonly ring: RingWriter,
    /** Posts a big chunk's copy on the port the judge reads markers' bytes from. */
    private readonly post: (c: Uint8Array) => void,
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
    const flags = dir | (this.cut[dir] ? CUT : 0);
    if (c.length < BIG) {
      if (!this.ring.write(flags, c)) return this.skip(dir, c.length);
    } else {
      if (!this.ring.portRoom(c.length, this.maxQueued) || !this.ring.fits(0)) return this.skip(dir, c.length);
      // A chunk read from a pipe owns its memory; one that shares a larger buffer is copied alone (a posted
      // view would carry all of that buffer). The bytes are on the port before their marker is in the ring
      // (the judge takes them from the port when it reads the marker); the marker fits, as it did just now.
      this.post(c.byteOffset === 0 && c.buffer.byteLength === c.length ? c : Uint8Array.prototype.slice.call(c));
      this.ring.write(flags | ON_PORT, c);
      this.ring.sent(c.length);
    }
    this.cut[dir] = false;
  }

  /** Bytes handed over and not read by the judge (left behind if it died). */
  unread(): number {
    return this.ring.unread();
  }

  private skip(dir: Dir, n: number): void {
    this.cut[dir] = true;
    this.unchecked += n;
    this.skipped += n;
    if (this.now() - this.lastLog < SKIP_LOG_MS) return;
    this.log(`the checker fell behind the traffic; ${this.skipped} bytes passed on unchecked until it catches up (the session goes on)`);
    this.skipped = 0;
    this.lastLog = this.now();
  }
}
