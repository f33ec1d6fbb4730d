// The bench's server (bench/proxyBench.ts): answers each tools/call line at once with a fixed tool
// result, and on exit writes the byte count and SHA-256 of everything it read to BENCH_IN_HASH.
'use strict';
const { createHash } = require('node:crypto');
const { writeFileSync } = require('node:fs');
const hash = createHash('sha256');
let bytes = 0;
let buf = '';
process.stdin.on('data', c => {
  hash.update(c);
  bytes += c.length;
  buf += c.toString('utf8');
  let nl;
  let out = '';
  while ((nl = buf.indexOf('\n')) >= 0) {
    const id = JSON.parse(buf.slice(0, nl)).id;
    buf = buf.slice(nl + 1);
    out += `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"Error: item ${id} not found"}],"isError":false}}\n`;
  }
  if (out) process.stdout.write(out);
});
process.stdin.on('end', () => {
  if (process.env.BENCH_IN_HASH) writeFileSync(process.env.BENCH_IN_HASH, `${bytes} ${hash.digest('hex')}`);
});
