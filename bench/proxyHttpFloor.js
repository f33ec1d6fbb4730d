// The floor for an HTTP reverse proxy written in Node (bench/proxyHttpBench.ts): listen on 127.0.0.1 (an
// ephemeral port, printed on stdout), send each request to the upstream URL's origin with its method, path,
// headers and body, pipe the answer back; nothing else. What `watch --listen` adds beyond this is its own
// (copies, judging); what this adds over a direct connection is the extra process and its two hops.
'use strict';
const { createServer, request } = require('node:http');
const upstream = new URL(process.argv[2]);
// Hop-by-hop headers (RFC 9110 s7.6.1): the connection's own, not forwarded.
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);
const strip = h => Object.fromEntries(Object.entries(h).filter(([k]) => !HOP.has(k)));
const server = createServer((req, res) => {
  const up = request(
    {
      hostname: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: req.url,
      headers: { ...strip(req.headers), host: upstream.host },
    },
    upRes => {
      res.writeHead(upRes.statusCode, upRes.statusMessage, strip(upRes.headers));
      upRes.pipe(res);
    },
  );
  up.on('error', () => (res.headersSent ? res.destroy() : (res.writeHead(502), res.end())));
  req.pipe(up);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));
