/**
 * `watch`'s lines out of its judging thread: the findings to standard error, the responses to
 * `--record`. Texts (whole lines) are gathered and written together once the thread's current turn is
 * over (setImmediate), with `writeSync` on the descriptor, so nothing goes through the forwarding thread.
 * One write holds whole texts of at most `maxWrite` bytes: on a pipe a write of at most PIPE_BUF (4096)
 * bytes is never cut by another writer's, so a finding line is never split by the server's own stderr
 * (a longer text goes alone). A full pipe (EAGAIN) is waited on, in steps of 1 ms — the judging thread
 * may wait, the traffic does not — for up to STALL_MS without a byte taken; then, as on any other error,
 * the output is given up (`onError`, once) and what follows is dropped.
 */
import { closeSync, writeSync } from 'node:fs';

/** How long a full pipe may take no byte before the output is given up. */
export const STALL_MS = 10_000;
/** Pending text past which it is written at once rather than at the end of the turn. */
const EAGER = 1 << 20;

const pause = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms: number) => void Atomics.wait(pause, 0, 0, ms);

export class LinesOut {
  private pending: string[] = [];
  private size = 0;
  private scheduled = false;
  private fd: number | undefined;
  /** Given up (an error): texts are dropped. */
  dead = false;

  constructor(
    /** The descriptor, opened on the first write (a --record file is created only when a response comes). */
    private readonly open: () => number,
    private readonly maxWrite: number,
    private readonly onError: (e: Error) => void,
    private readonly write: (fd: number, b: Uint8Array, at: number) => number = (fd, b, at) => writeSync(fd, b, at),
    /** Before each batch (not an eager write): the descriptor to write to now, given the one open (a rotated --record, cli/runtime/watch/record.ts). */
    private readonly current?: (fd: number) => number,
  ) {}

  /** One or more whole lines, each ending with a line feed. */
  text(s: string): void {
    if (this.dead) return;
    this.pending.push(s);
    this.size += s.length;
    if (this.size > EAGER) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flushLater);
    }
  }

  private readonly flushLater = (): void => {
    this.scheduled = false;
    this.flush(true);
  };

  /** Write everything pending, now; `turn`: the end of a turn (the descriptor is looked at again first). */
  flush(turn = false): void {
    const texts = this.pending;
    this.pending = [];
    this.size = 0;
    if (this.dead || !texts.length) return;
    try {
      if (this.fd === undefined) this.fd = this.open();
      else if (turn && this.current) this.fd = this.current(this.fd);
      let batch = '';
      let bytes = 0;
      for (const t of texts) {
        const n = Buffer.byteLength(t);
        if (bytes && bytes + n > this.maxWrite) {
          this.writeAll(batch);
          batch = '';
          bytes = 0;
        }
        batch += t;
        bytes += n;
      }
      if (bytes) this.writeAll(batch);
    } catch (e) {
      this.dead = true;
      this.onError(e as Error);
    }
  }

  /** Flush, then close the descriptor if it was opened by `open` and `close` is set (not standard error); nothing more is written. */
  end(close: boolean): void {
    this.flush(true);
    this.dead = true;
    if (close && this.fd !== undefined)
      try {
        closeSync(this.fd);
      } catch {
        // closing a file we only appended to: nothing to report
      }
  }

  private writeAll(s: string): void {
    const b = Buffer.from(s);
    let at = 0;
    let stalled = 0;
    while (at < b.length) {
      try {
        at += this.write(this.fd!, b, at);
        stalled = 0;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EAGAIN' || stalled >= STALL_MS) throw e;
        sleep(1);
        stalled++;
      }
    }
  }
}
