// The HTTP bench's server (bench/proxyHttpBench.ts): a Streamable-HTTP-shaped MCP endpoint on 127.0.0.1 (an
// ephemeral port, printed on stdout). Each JSON-RPC POST is answered at once with a fixed tool result
// ("Error: …" with isError false, or with BENCH_CLEAN=1 a plain success): as a JSON body, or on a path
// ending in /sse as a one-event SSE stream. `GET /stats` (the bench asks it directly, never through a proxy)
// gives the SHA-256, in id order, of what each request carried (its Mcp-Session-Id and its body).
'use strict';
const { createServer } = require('node:http');
const { createHash } = require('node:crypto');
const clean = process.env.BENCH_CLEAN === '1';
/** id (as JSON) → SHA-256 of the session header and the body. */
const seen = new Map();
let bytes = 0;
const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/stats') {
    const all = createHash('sha256');
    for (const id of [...seen.keys()].sort()) all.update(`${id} ${seen.get(id)}\n`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ read: `${seen.size} ${bytes} ${all.digest('hex')}` }));
    return;
  }
  const chunks = [];
  req.on('data', c => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    bytes += body.length;
    const id = JSON.stringify(JSON.parse(body.toString('utf8')).id);
    seen.set(id, createHash('sha256').update(`${req.headers['mcp-session-id']}\n`).update(body).digest('hex'));
    const text = clean ? `item ${id}: 42 open issues` : `Error: item ${id} not found`;
    const message = `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":${JSON.stringify(text)}}],"isError":false}}`;
    const headers = { 'mcp-session-id': 'bench-session' };
    if (req.url.endsWith('/sse')) {
      res.writeHead(200, { ...headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(`event: message\ndata: ${message}\n\n`);
    } else {
      res.writeHead(200, { ...headers, 'content-type': 'application/json' });
      res.end(message);
    }
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));
