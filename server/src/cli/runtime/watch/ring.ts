/**
 * The copies `watch`'s forwarding thread hands to its judging thread: a ring of shared
 * memory, one writer (the forwarding thread) and one reader (the judge). Writing a record is a copy into
 * the ring and one atomic store — no allocation, no system call, no wake-up; the judge reads what is
 * there when it looks (cli/runtime/watch/worker.ts polls). A record is a 4-byte header (flags, length) and the
 * bytes; a chunk of BIG bytes or more travels on a message port instead (bounded by MAX_QUEUED bytes
 * not yet read), and the ring holds a marker in its place, so the order is kept. When a record does not
 * fit, it is not written (the caller counts it unchecked). Positions are byte counts modulo 2^32.
 */

/** Ring size in bytes (a power of two): at 1,000 messages/s of 200 bytes, 40 s of traffic. */
export const RING_BYTES = 8 * 1024 * 1024;
/** Chunks of this size or more go on the port (a 64 KiB pipe read, a large answer). */
export const BIG = 16 * 1024;
/** Bytes on the port not yet read by the judge, at most. */
export const MAX_QUEUED = 256 * 1024 * 1024;

/** Header flags: the direction (0 client → server, 1 back), copies of it dropped before this one, bytes on the port. */
export const SERVER = 1,
  CUT = 2,
  ON_PORT = 4;

/**
 * Control words (Int32Array): ring bytes written, ring bytes read (headers included), port bytes read, chunk
 * bytes read from the ring (headers apart; those written and posted are the writer's own counts).
 */
const WRITTEN = 0,
  READ = 1,
  TAKEN = 2,
  PAYLOAD_READ = 3;

export interface RingMemory {
  readonly control: SharedArrayBuffer;
  readonly data: SharedArrayBuffer;
}

export function ringMemory(bytes = RING_BYTES): RingMemory {
  if (bytes & (bytes - 1) || bytes < 16) throw new Error('ring size: a power of two');
  return { control: new SharedArrayBuffer(16), data: new SharedArrayBuffer(bytes) };
}

class RingEnd {
  protected readonly ctl: Int32Array;
  protected readonly data: Uint8Array;
  protected readonly mask: number;
  constructor(m: RingMemory) {
    this.ctl = new Int32Array(m.control);
    this.data = new Uint8Array(m.data);
    this.mask = this.data.length - 1;
  }
}

export class RingWriter extends RingEnd {
  private at = 0;
  private posted = 0;
  private payload = 0;

  /** Room for a record of `len` bytes (the room only grows until the next write: one writer). */
  fits(len: number): boolean {
    return ((this.at - Atomics.load(this.ctl, READ)) | 0) + 4 + len <= this.data.length;
  }

  /** One record: `flags` and the bytes (a chunk under BIG), or a marker for bytes sent on the port. False: no room. */
  write(flags: number, c: Uint8Array): boolean {
    const len = flags & ON_PORT ? 0 : c.length;
    if (!this.fits(len)) return false;
    let p = this.at & this.mask;
    const header = (flags << 24) | len;
    for (let i = 0; i < 4; i++, p = (p + 1) & this.mask) this.data[p] = (header >>> (24 - 8 * i)) & 0xff;
    const first = Math.min(len, this.data.length - p);
    if (first === len) {
      if (len) this.data.set(c, p);
    } else {
      this.data.set(c.subarray(0, first), p);
      this.data.set(c.subarray(first), 0);
    }
    this.at = (this.at + 4 + len) | 0;
    this.payload = (this.payload + len) | 0;
    Atomics.store(this.ctl, WRITTEN, this.at);
    return true;
  }

  /** Room on the port for `n` more bytes (those posted and not yet read stay under MAX_QUEUED). */
  portRoom(n: number, max = MAX_QUEUED): boolean {
    return ((this.posted - Atomics.load(this.ctl, TAKEN)) | 0) + n <= max;
  }

  /** `n` bytes were posted on the port. */
  sent(n: number): void {
    this.posted = (this.posted + n) | 0;
  }

  /** Chunk bytes written or posted and not yet read by the judge (left behind if it died). */
  unread(): number {
    const ring = (this.payload - Atomics.load(this.ctl, PAYLOAD_READ)) | 0;
    const port = (this.posted - Atomics.load(this.ctl, TAKEN)) | 0;
    return Math.max(0, ring) + Math.max(0, port);
  }
}

export class RingReader extends RingEnd {
  private at = 0;

  /**
   * Every record written so far, copied out (the ring's room is given back at once), in order;
   * `fromPort` gives a marker's bytes.
   */
  take(fromPort: () => Uint8Array): [number, Uint8Array][] {
    const end = Atomics.load(this.ctl, WRITTEN);
    const out: [number, Uint8Array][] = [];
    let p = this.at;
    let payload = 0;
    while (p !== end) {
      let header = 0;
      for (let i = 0; i < 4; i++) header = (header << 8) | this.data[(p + i) & this.mask]!;
      const flags = header >>> 24;
      const len = flags & ON_PORT ? 0 : header & 0xffffff;
      const from = (p + 4) & this.mask;
      let bytes: Uint8Array;
      if (flags & ON_PORT) {
        bytes = fromPort();
        Atomics.add(this.ctl, TAKEN, bytes.length);
      } else if (from + len <= this.data.length) bytes = this.data.slice(from, from + len);
      else {
        bytes = new Uint8Array(len);
        bytes.set(this.data.subarray(from));
        bytes.set(this.data.subarray(0, len - (this.data.length - from)), this.data.length - from);
      }
      out.push([flags, bytes]);
      p = (p + 4 + len) | 0;
      payload += len;
    }
    this.at = p;
    Atomics.add(this.ctl, PAYLOAD_READ, payload);
    Atomics.store(this.ctl, READ, p);
    return out;
  }
}
