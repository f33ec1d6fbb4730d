// The bench's server (bench/proxyBench.ts): answers each line that has an id at once with a fixed tool
// result ("Error: …" with isError false, or with BENCH_CLEAN=1 a plain success), and on exit writes to
// BENCH_IN_HASH the byte count and SHA-256 of everything it read, and (process.hrtime, the monotonic clock
// the bench reads too) when it was ready to read and when its first byte came.
'use strict';
const { createHash } = require('node:crypto');
const { writeFileSync } = require('node:fs');
const hash = createHash('sha256');
let bytes = 0;
let buf = '';
let firstByteAt = '';
const clean = process.env.BENCH_CLEAN === '1';
process.stdin.on('data', c => {
  if (!firstByteAt) firstByteAt = String(process.hrtime.bigint());
  hash.update(c);
  bytes += c.length;
  buf += c.toString('utf8');
  let nl;
  let out = '';
  while ((nl = buf.indexOf('\n')) >= 0) {
    const id = JSON.parse(buf.slice(0, nl)).id;
    buf = buf.slice(nl + 1);
    const text = clean ? `item ${id}: 42 open issues` : `Error: item ${id} not found`;
    out += `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"${text}"}],"isError":false}}\n`;
  }
  if (out) process.stdout.write(out);
});
const readyAt = String(process.hrtime.bigint());
process.stdin.on('end', () => {
  if (process.env.BENCH_IN_HASH)
    writeFileSync(process.env.BENCH_IN_HASH, JSON.stringify({ read: `${bytes} ${hash.digest('hex')}`, readyAt, firstByteAt }));
});
