/**
 * `watch`'s hand-over from the forwarding thread to the judge: the ring of shared memory
 * (cli/watchRing.ts) and the gate in front of it (cli/watchGate.ts), both ends in one thread here.
 * Every byte handed over comes out once, in order, per direction, whatever the sizes, across the ring's
 * wrap and its positions' wrap at 2^32; a copy without room is dropped, counted and logged at most every
 * 10 s, and the next copy of its direction is marked cut; the port's unread bytes stay under a bound.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { BIG, CUT, ON_PORT, ringMemory, RingReader, RingWriter, SERVER } from '../../server/src/cli/runtime/watch/ring';
import { WatchGate } from '../../server/src/cli/runtime/watch/gate';

function channel() {
  const { port1, port2 } = new MessageChannel();
  return {
    post: (c: Uint8Array) => port1.postMessage(c),
    fromPort: () => receiveMessageOnPort(port2)!.message as Uint8Array,
    close: () => port1.close(),
  };
}

test('records come out in order with their flags, copied, across the wrap of the ring', () => {
  const mem = ringMemory(128);
  const w = new RingWriter(mem);
  const r = new RingReader(mem);
  const out: string[] = [];
  for (let k = 0; k < 40; k++) {
    const b = Buffer.from(`chunk-${k}-${'x'.repeat(k % 13)}`);
    assert.equal(w.write(k % 2 ? SERVER : 0, b), true, `write ${k}`);
    b.fill(0); // the ring holds a copy
    if (k % 3 === 2) for (const [f, bytes] of r.take(() => new Uint8Array())) out.push(`${f} ${Buffer.from(bytes).toString()}`);
  }
  for (const [f, bytes] of r.take(() => new Uint8Array())) out.push(`${f} ${Buffer.from(bytes).toString()}`);
  assert.deepEqual(
    out,
    Array.from({ length: 40 }, (_, k) => `${k % 2} chunk-${k}-${'x'.repeat(k % 13)}`),
  );
});

test('a full ring refuses a record until the reader takes what it holds', () => {
  const mem = ringMemory(32);
  const w = new RingWriter(mem);
  const r = new RingReader(mem);
  assert.equal(w.write(0, Buffer.alloc(20, 1)), true); // 24 of 32 bytes
  assert.equal(w.fits(4), true);
  assert.equal(w.write(0, Buffer.alloc(5, 2)), false, '24 + 9 > 32');
  assert.equal(w.unread(), 20, 'the chunk bytes, not the header');
  assert.equal(r.take(() => new Uint8Array()).length, 1);
  assert.equal(w.unread(), 0);
  assert.equal(w.write(0, Buffer.alloc(28, 3)), true, 'all of it free again');
  assert.deepEqual(
    r.take(() => new Uint8Array()).map(([, b]) => b.length),
    [28],
  );
});

test('positions wrap at 2^32: 4.3 GB through a 4 MiB ring, every record whole', () => {
  const mem = ringMemory(1 << 22);
  const w = new RingWriter(mem);
  const r = new RingReader(mem);
  const size = (1 << 21) - 4 - 1; // two records do not fit: every one is taken before the next
  const b = Buffer.alloc(size);
  let total = 0;
  for (let k = 0; total < 2 ** 32 + (1 << 23); k++) {
    b[0] = k & 255;
    b[size - 1] = (k * 7) & 255;
    assert.equal(w.write(k & 1, b), true);
    const [[flags, got]] = r.take(() => new Uint8Array()) as [[number, Uint8Array]];
    if (flags !== (k & 1) || got.length !== size || got[0] !== (k & 255) || got[size - 1] !== ((k * 7) & 255)) assert.fail(`record ${k}`);
    total += size + 4;
  }
});

test('the gate: small chunks in the ring, big ones on the port with a marker in their place; order kept per direction', () => {
  const mem = ringMemory(1 << 16);
  const r = new RingReader(mem);
  const ch = channel();
  const g = new WatchGate(new RingWriter(mem), ch.post, () => assert.fail('no line expected'));
  const sent: Buffer[][] = [[], []];
  const got: Uint8Array[][] = [[], []];
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const pool = Buffer.alloc(1 << 17, 9);
  for (let k = 0; k < 3000; k++) {
    const n = rnd() < 0.05 ? BIG + Math.floor(rnd() * 40_000) : 1 + Math.floor(rnd() * 400);
    // Some chunks are views into a larger buffer: only their own bytes travel.
    const b = rnd() < 0.5 ? Buffer.alloc(n, k & 255) : pool.subarray(5, 5 + n).fill(k & 255);
    const d = rnd() < 0.5 ? 0 : 1;
    g.pass(d, b);
    sent[d]!.push(Buffer.from(b));
    if (rnd() < 0.2)
      for (const [f, bytes] of r.take(ch.fromPort)) {
        assert.equal(f & CUT, 0);
        if (f & ON_PORT) assert.equal(bytes.buffer.byteLength, bytes.length, 'a big copy carries its own bytes only');
        got[f & SERVER]!.push(bytes);
      }
  }
  for (const [f, bytes] of r.take(ch.fromPort)) got[f & SERVER]!.push(bytes);
  for (const d of [0, 1]) assert.ok(Buffer.concat(sent[d]!).equals(Buffer.concat(got[d]!)), `direction ${d}`);
  assert.equal(g.unchecked, 0);
  ch.close();
});

test('a judge behind: copies without room are dropped and counted, one line per 10 s, the next copy of that direction is cut', () => {
  const mem = ringMemory(64);
  const r = new RingReader(mem);
  const ch = channel();
  const logs: string[] = [];
  let clock = 0;
  const g = new WatchGate(
    new RingWriter(mem),
    ch.post,
    s => logs.push(s),
    100_000,
    () => clock,
  );
  g.pass(0, Buffer.alloc(40, 1)); // 44 of 64
  g.pass(0, Buffer.alloc(30, 2)); // no room: dropped
  clock = 5000;
  g.pass(1, Buffer.alloc(30, 3)); // dropped too, no second line within 10 s
  g.pass(1, Buffer.alloc(10, 4)); // fits (58 of 64): after a dropped copy of its direction, so cut
  assert.deepEqual(
    r.take(ch.fromPort).map(([f, b]) => [f, b.length, b[0]]),
    [
      [0, 40, 1],
      [SERVER | CUT, 10, 4],
    ],
  );
  g.pass(0, Buffer.alloc(10, 5)); // the client direction lost a copy before: cut
  g.pass(0, Buffer.alloc(10, 6));
  assert.deepEqual(
    r.take(ch.fromPort).map(([f, b]) => [f, b[0]]),
    [
      [CUT, 5],
      [0, 6],
    ],
  );
  assert.equal(g.unchecked, 60);
  assert.deepEqual(logs, ['the checker fell behind the traffic; 30 bytes passed on unchecked until it catches up (the session goes on)']);
  clock = 10_001;
  g.pass(0, Buffer.alloc(BIG, 7)); // on the port
  g.pass(0, Buffer.alloc(100_000 - BIG + 1, 8)); // would make 100,001 bytes unread on the port: dropped
  assert.equal(g.unchecked, 60 + 100_000 - BIG + 1);
  assert.equal(logs.length, 2);
  assert.equal(g.unread(), BIG, 'the bytes on the port, unread (a marker carries none)');
  assert.deepEqual(
    r.take(ch.fromPort).map(([f, b]) => [f, b.length]),
    [[ON_PORT, BIG]],
  );
  g.broken = true; // the judge is gone: copies are only counted
  g.pass(1, Buffer.alloc(3));
  assert.equal(g.unchecked, 60 + 100_000 - BIG + 1 + 3);
  assert.equal(r.take(ch.fromPort).length, 0);
  ch.close();
});
