/**
 * `watch`'s checker schedule (issue 24): the copies of both directions' chunks, queued in arrival order
 * and fed to the tracker after the forwarding, in slices of at most SLICE_MS between turns of the event
 * loop (setImmediate: after the I/O callbacks), so a chunk that arrives is forwarded before any more
 * checking. A throw is a bug of ours: logged once, checking stops, the session goes on. Past MAX_QUEUED
 * bytes waiting, checking stops too. Copies that waited MAX_LAG_MS (a burst, or a process starved of CPU
 * whose forwarding must not share what it gets with the checker) are dropped unchecked, with a line
 * saying how many bytes, and checking goes on from the next whole line: the traffic is never held.
 */
import { LineSplitter } from './watchTracker';

/** The checker's longest run before the event loop turns again. */
const SLICE_MS = 0.5;
/** Bytes waiting for the checker before it gives up. */
export const MAX_QUEUED = 256 * 1024 * 1024;
/** How long a copy may wait for the checker before it is dropped unchecked (a starved process forwards first). */
export const MAX_LAG_MS = 1000;
/** At most one "passed on unchecked" line this often. */
const SHED_LOG_MS = 10_000;

export interface LineSink {
  client(line: string): void;
  server(line: string): void;
}

export class WatchChecker {
  private readonly queue: [LineSplitter, Buffer, number][] = [];
  private queued = 0;
  private scheduled = false;
  private shedBytes = 0;
  private lastShedLog = -Infinity;
  broken = false;
  /** Bytes dropped unchecked, in all. */
  unchecked = 0;
  private readonly fromClient: LineSplitter;
  private readonly fromServer: LineSplitter;

  constructor(
    sink: LineSink,
    private readonly log: (s: string) => void,
    private readonly maxQueued = MAX_QUEUED,
    private readonly now: () => number = () => performance.now(),
  ) {
    const tooLong = (dir: string) => () => log(`a ${dir} message over 64 MiB was passed on unchecked`);
    this.fromClient = new LineSplitter(l => this.guard(() => sink.client(l)), tooLong('client'));
    this.fromServer = new LineSplitter(l => this.guard(() => sink.server(l)), tooLong('server'));
  }

  /** A copy of a chunk the client sent (already forwarded). */
  client(c: Buffer): void {
    this.later(this.fromClient, c);
  }

  /** A copy of a chunk the server sent (already forwarded). */
  server(c: Buffer): void {
    this.later(this.fromServer, c);
  }

  /** Check everything still queued, now (the session is over). */
  flush(): void {
    while (this.queue.length) this.next();
  }

  private guard(f: () => void): void {
    if (this.broken) return;
    try {
      f();
    } catch (e) {
      this.broken = true;
      this.queue.length = 0;
      this.log(`checker failed, checking stopped (the session goes on): ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    }
  }

  private later(to: LineSplitter, c: Buffer): void {
    if (this.broken) return;
    this.queue.push([to, c, this.now()]);
    this.queued += c.length;
    if (this.queued > this.maxQueued) return this.giveUp(`${Math.round(this.maxQueued / 1048576)} MiB`);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.drain);
    }
  }

  private giveUp(behind: string): void {
    this.broken = true;
    this.queue.length = 0;
    this.log(`the checker fell ${behind} behind the traffic; checking stopped (the session goes on)`);
  }

  /** Copies that waited too long are dropped, not checked: the lines they cut are skipped, checking goes on. */
  private shed(): void {
    let bytes = 0;
    for (const [, c] of this.queue) bytes += c.length;
    this.queue.length = 0;
    this.queued = 0;
    this.fromClient.resync();
    this.fromServer.resync();
    this.shedBytes += bytes;
    this.unchecked += bytes;
    if (this.shedBytes > 0 && this.now() - this.lastShedLog >= SHED_LOG_MS) {
      this.log(`the checker fell ${MAX_LAG_MS / 1000} s behind the traffic; ${this.shedBytes} bytes passed on unchecked`);
      this.shedBytes = 0;
      this.lastShedLog = this.now();
    }
  }

  private next(): void {
    if (this.now() - this.queue[0]![2] > MAX_LAG_MS) return this.shed();
    const [to, c] = this.queue.shift()!;
    this.queued -= c.length;
    this.guard(() => to.push(c));
  }

  private readonly drain = (): void => {
    this.scheduled = false;
    const until = this.now() + SLICE_MS;
    while (this.queue.length && this.now() < until) this.next();
    if (this.queue.length) {
      this.scheduled = true;
      setImmediate(this.drain);
    }
  };
}
