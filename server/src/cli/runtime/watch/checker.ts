/**
 * `watch`'s checker, on the judging thread (cli/runtime/watch/worker.ts): the copies of both
 * directions' chunks, in the order they were forwarded, cut into lines and fed to the tracker. A throw is
 * a bug of ours: logged once, checking stops, the session goes on. A chunk marked `cut` follows copies
 * the forwarding thread dropped (cli/runtime/watch/gate.ts: the checker fell too far behind): the line they cut is
 * skipped, checking goes on from the next whole line.
 */
import { LineSplitter } from './tracker';

export interface LineSink {
  client(line: string): void;
  server(line: string): void;
}

/** Which way a chunk went: 0 from the client to the server, 1 back. */
export type Dir = 0 | 1;

export class WatchChecker {
  broken = false;
  private readonly splitters: readonly [LineSplitter, LineSplitter];

  constructor(
    sink: LineSink,
    private readonly log: (s: string) => void,
  ) {
    const tooLong = (dir: string) => () => log(`a ${dir} message over 64 MiB was passed on unchecked`);
    this.splitters = [
      new LineSplitter(l => this.guard(() => sink.client(l)), tooLong('client')),
      new LineSplitter(l => this.guard(() => sink.server(l)), tooLong('server')),
    ];
  }

  /** A copy of a chunk (already forwarded); `cut`: copies before it in that direction were dropped. */
  push(dir: Dir, c: Uint8Array, cut = false): void {
    if (this.broken) return;
    const s = this.splitters[dir];
    if (cut) s.resync();
    this.guard(() => s.push(c));
  }

  private guard(f: () => void): void {
    if (this.broken) return;
    try {
      f();
    } catch (e) {
      this.broken = true;
      this.log(`checker failed, checking stopped (the session goes on): ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    }
  }
}

/** The line `watch` ends with. */
export function summaryLine(calls: number, findings: number, errors: number, unchecked: number): string {
  const s = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  return `${s(calls, 'tool call')} checked, ${s(findings, 'finding')} (${s(errors, 'error')})${unchecked ? `; ${unchecked} bytes passed on unchecked` : ''}`;
}
