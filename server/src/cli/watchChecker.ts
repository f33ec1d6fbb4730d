/**
 * `watch`'s checker schedule (issue 24): the copies of both directions' chunks, queued in arrival order
 * and fed to the tracker after the forwarding, in slices of at most SLICE_MS between turns of the event
 * loop (setImmediate: after the I/O callbacks), so a chunk that arrives is forwarded before any more
 * checking. A throw is a bug of ours: logged once, checking stops, the session goes on. Past MAX_QUEUED
 * bytes waiting, checking stops too (the traffic is never held for it).
 */
import { LineSplitter } from './watchTracker';

/** The checker's longest run before the event loop turns again. */
const SLICE_MS = 0.5;
/** Bytes waiting for the checker before it gives up. */
export const MAX_QUEUED = 256 * 1024 * 1024;

export interface LineSink {
  client(line: string): void;
  server(line: string): void;
}

export class WatchChecker {
  private readonly queue: [LineSplitter, Buffer][] = [];
  private queued = 0;
  private scheduled = false;
  broken = false;
  private readonly fromClient: LineSplitter;
  private readonly fromServer: LineSplitter;

  constructor(
    sink: LineSink,
    private readonly log: (s: string) => void,
    private readonly maxQueued = MAX_QUEUED,
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
    this.queue.push([to, c]);
    this.queued += c.length;
    if (this.queued > this.maxQueued) {
      this.broken = true;
      this.queue.length = 0;
      this.log(`the checker fell ${Math.round(this.maxQueued / 1048576)} MiB behind the traffic; checking stopped (the session goes on)`);
      return;
    }
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.drain);
    }
  }

  private next(): void {
    const [to, c] = this.queue.shift()!;
    this.queued -= c.length;
    this.guard(() => to.push(c));
  }

  private readonly drain = (): void => {
    this.scheduled = false;
    const until = performance.now() + SLICE_MS;
    while (this.queue.length && performance.now() < until) this.next();
    if (this.queue.length) {
      this.scheduled = true;
      setImmediate(this.drain);
    }
  };
}
