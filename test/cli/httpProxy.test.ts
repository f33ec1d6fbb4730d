/**
 * `watch`'s reverse proxy for Streamable HTTP, on loopback: server-everything's Streamable HTTP mode
 * (kept on 127.0.0.1 by test/fixtures/servers/loopbackOnly.js) behind it, and the 2.x SDK client in
 * front: the same answers as without it, the session header through, SSE streams through, and a copy of
 * every JSON-RPC message in each direction.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startEverything } from './httpServers';
import { ClientSession } from '../../server/src/cli/runtime/session/clientSession';
import { parseListen, startHttpProxy, type HttpFacts } from '../../server/src/cli/runtime/watch/httpProxy';

/** What a session sees: the revision, the tools, and the answers to a few calls (ids and session aside). */
async function transcript(url: string): Promise<string[]> {
  const s = new ClientSession({ transport: 'http', url, headers: { 'X-Probe': 'yes' } }, '0');
  const tools = await s.start(10_000);
  const out = [`${s.negotiated!.revision} ${s.negotiated!.era}`, tools.map(t => t.name).join(',')];
  for (const [name, args] of [
    ['echo', { message: 'hi' }],
    ['get-sum', { a: 1, b: 'x' }],
    ['no-such-tool', {}],
  ] as const) {
    const o = await s.call(name, args as Record<string, unknown>, 5000);
    out.push(o.kind === 'answer' ? o.response : o.kind);
  }
  await s.close();
  return out;
}

test('--listen: a port, or a host and a port', () => {
  assert.deepEqual(parseListen('4100'), { host: '127.0.0.1', port: 4100 });
  assert.deepEqual(parseListen('127.0.0.1:4100'), { host: '127.0.0.1', port: 4100 });
  assert.deepEqual(parseListen('[::1]:0'), { host: '::1', port: 0 });
  assert.equal(parseListen('127.0.0.1:70000'), undefined);
  assert.equal(parseListen('http://127.0.0.1:4100'), undefined);
});

test('the proxy is transparent to a Streamable HTTP session, and hands on a copy of each message', { timeout: 60_000 }, async () => {
  const { url, child } = await startEverything();
  const seen = { client: [] as string[], server: [] as string[], http: [] as HttpFacts[] };
  const { server, address } = await startHttpProxy({ host: '127.0.0.1', port: 0 }, new URL(url), {
    client: l => seen.client.push(l),
    server: l => seen.server.push(l),
    http: f => seen.http.push(f),
  });
  try {
    const direct = await transcript(url);
    const proxied = await transcript(`http://127.0.0.1:${address.port}/mcp`);
    assert.deepEqual(proxied, direct);
    assert.equal(direct[0], '2025-11-25 handshake');
    assert.match(direct[2]!, /"text":"Echo: hi"/);
    // Each direction's messages, one a line: the handshake, the list, the calls.
    const methods = seen.client.map(l => (JSON.parse(l) as { method?: string }).method);
    for (const m of ['server/discover', 'initialize', 'notifications/initialized', 'tools/list', 'tools/call'])
      assert.ok(methods.includes(m), `${m} in ${methods.join(' ')}`);
    const answers = seen.server.map(l => JSON.parse(l) as { id?: unknown; result?: unknown; error?: unknown });
    assert.equal(answers.filter(a => 'result' in a && a.id !== undefined).length >= 5, true);
    // The HTTP facts: the discovery probe refused with 400, the rest 200/202, SSE answers read.
    assert.equal(seen.http[0]!.status, 400);
    assert.deepEqual(seen.http[0]!.rpcMethods, ['server/discover']);
    assert.ok(seen.http.some(f => /event-stream/.test(f.contentType) && f.messages.length === 1));
  } finally {
    server.close();
    child.kill();
  }
});

test(
  'copies are read after the turn that forwarded them, in the order of the traffic: each request before its answer, the HTTP facts last',
  { timeout: 30_000 },
  async () => {
    // An upstream answering each POST at once, as JSON or (on /sse) as a one-event SSE stream.
    const upstream = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const { id } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: number };
        const answer = `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"ok ${id}"}]}}`;
        if (req.url === '/sse') {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.end(`event: message\ndata: ${answer}\n\n`);
        } else {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(answer);
        }
      });
    });
    await new Promise<void>(done => upstream.listen(0, '127.0.0.1', done));
    const order: string[] = [];
    const id = (line: string) => (JSON.parse(line) as { id: number }).id;
    const proxy = await startHttpProxy(
      { host: '127.0.0.1', port: 0 },
      new URL(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}/`),
      {
        client: l => order.push(`client ${id(l)}`),
        server: l => order.push(`server ${id(l)}`),
        http: f => order.push(`http ${JSON.parse(f.requests[0]!.id)} ${f.messages.length}`),
      },
    );
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    try {
      const post = (n: number) =>
        new Promise<string>((done, fail) => {
          const body = `{"jsonrpc":"2.0","id":${n},"method":"tools/call","params":{"name":"t","arguments":{}}}`;
          const req = request(
            {
              host: '127.0.0.1',
              port: proxy.address.port,
              path: n % 2 ? '/sse' : '/',
              method: 'POST',
              agent,
              headers: { 'content-type': 'application/json' },
            },
            res => {
              let text = '';
              res.on('data', (c: Buffer) => (text += c.toString('utf8')));
              res.on('end', () => done(text));
            },
          );
          req.on('error', fail);
          req.end(body);
        });
      const answers = await Promise.all(Array.from({ length: 20 }, (_, n) => post(n)));
      assert.match(answers[3]!, /^event: message\ndata: \{"jsonrpc":"2.0","id":3,/);
      proxy.flush();
      for (let n = 0; n < 20; n++) {
        const at = (what: string) => order.indexOf(`${what} ${n}`);
        assert.ok(at('client') >= 0 && at('client') < at('server'), `request ${n} before its answer: ${order.join(', ')}`);
        assert.ok(at('server') < order.indexOf(`http ${n} 1`), `answer ${n} before its HTTP facts: ${order.join(', ')}`);
      }
      assert.equal(order.length, 60);
    } finally {
      agent.destroy();
      proxy.server.close();
      proxy.server.closeAllConnections();
      upstream.close();
    }
  },
);
