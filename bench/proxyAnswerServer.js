// The bench's server (bench/proxyBench.ts): answers each tools/call line at once with a fixed tool
// result ("Error: …" with isError false, or with BENCH_CLEAN=1 a plain success), and on exit writes the
// byte count and SHA-256 of everything it read to BENCH_IN_HASH.
'use strict';
const { createHash } = require('node:crypto');
const { writeFileSync } = require('node:fs');
const hash = createHash('sha256');
let bytes = 0;
let buf = '';
const clean = process.env.BENCH_CLEAN === '1';
process.stdin.on('data', c => {
  hash.update(c);
  bytes += c.length;
  buf += c.toString('utf8');
  let nl;
  let out = '';
  while ((nl = buf.indexOf('\n')) >= 0) {
    const id = JSON.parse(buf.slice(0, nl)).id;
    buf = buf.slice(nl + 1);
    const text = clean ? `item ${id}: 42 open issues` : `Error: item ${id} not found`;
    out += `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"${text}"}],"isError":false}}\n`;
  }
  if (out) process.stdout.write(out);
});
process.stdin.on('end', () => {
  if (process.env.BENCH_IN_HASH) writeFileSync(process.env.BENCH_IN_HASH, `${bytes} ${hash.digest('hex')}`);
});
