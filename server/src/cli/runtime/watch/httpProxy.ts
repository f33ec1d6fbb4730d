/**
 * `watch --listen 127.0.0.1:PORT --url <upstream>`: a reverse proxy for Streamable HTTP. The host
 * connects to it instead of the server; each request goes upstream with its method, path, headers
 * (the session's `Mcp-Session-Id`, `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, authorization)
 * and body unchanged, and each response comes back with its status, headers and body unchanged —
 * an SSE stream as it streams, with its back-pressure (both bodies piped). A request to `/` or to the
 * upstream URL's path goes to the upstream URL (its path and query); any other path (OAuth metadata
 * under `/.well-known/`) to the same path upstream. Only copies are read, after the turn that forwarded
 * them (`Later`): each JSON-RPC message of a request body, of a JSON response and of an SSE event is
 * handed on whole (`client`, `server`), and each exchange's HTTP facts (`http`), in the traffic's order.
 */
import { request as httpRequest, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import type { HttpExchange } from '../../../service';

/** A body copy past this is not judged (it still passes through whole). */
const MAX_COPY = 64 * 1024 * 1024;
/** Hop-by-hop headers (RFC 9110 s7.6.1): the connection's own, not forwarded. */
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);

/** One exchange's HTTP facts, as the service judges them (`judgeHttp`). */
export type HttpFacts = HttpExchange;

export interface ProxyEvents {
  /** One JSON-RPC message (or batch) the host sent, as one line. */
  client(line: string): void;
  /** One JSON-RPC message (or batch) the server sent, as one line. */
  server(line: string): void;
  /** An exchange ended (its response body ended, or broke). */
  http?(facts: HttpFacts): void;
  /** The upstream could not be reached. */
  error?(message: string): void;
}

export interface Listen {
  readonly host: string;
  readonly port: number;
}

/** `PORT` or `HOST:PORT` (`[::1]:PORT`); the host is 127.0.0.1 when not given. */
export function parseListen(s: string): Listen | undefined {
  const m = /^(?:(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(s);
  if (!m) return undefined;
  const port = Number(m[2]);
  if (port > 65535) return undefined;
  return { host: m[1] ? m[1].replace(/^\[|\]$/g, '') : '127.0.0.1', port };
}

/** One message a line: JSON text as it came when it holds no line break, else re-serialized. */
function asLine(text: string): string | undefined {
  const t = text.trim();
  if (!t) return undefined;
  if (!/[\r\n]/.test(t)) return t;
  try {
    return JSON.stringify(JSON.parse(t));
  } catch {
    return undefined; // not JSON: nothing to judge
  }
}

function parsed(line: string | undefined): unknown[] {
  if (!line) return [];
  try {
    const v = JSON.parse(line) as unknown;
    return Array.isArray(v) ? v : [v];
  } catch {
    return [];
  }
}

/** Reads SSE events from a copy of a stream: each event's data lines, joined (WHATWG, "event stream interpretation"). */
class SseReader {
  private readonly decoder = new StringDecoder('utf8');
  private buf = '';
  private data: string[] = [];
  constructor(private readonly onData: (data: string) => void) {}
  push(chunk: Buffer): void {
    this.buf += this.decoder.write(chunk);
    for (;;) {
      const m = /\r\n|\r|\n/.exec(this.buf);
      if (!m) break;
      const line = this.buf.slice(0, m.index);
      this.buf = this.buf.slice(m.index + m[0].length);
      if (line === '') {
        if (this.data.length) this.onData(this.data.join('\n'));
        this.data = [];
      } else if (line.startsWith('data:')) this.data.push(line.slice(line[5] === ' ' ? 6 : 5));
    }
    if (this.buf.length > MAX_COPY) this.buf = '';
  }
}

/**
 * The copies' work (decoding, cutting into messages, the HTTP facts, handing them on), in the order it was
 * queued, once the current turn is over: the forwarding that turn did (the request flushed upstream, the answer
 * to the client, both on the next tick) goes first, and a burst of exchanges is forwarded whole before any of
 * their copies is read. The order of the copies is the order of the traffic, as if each were read at once.
 */
class Later {
  private queue: (() => void)[] = [];
  private scheduled = false;

  run(work: () => void): void {
    this.queue.push(work);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.drain);
    }
  }

  /** Everything queued, now (also at the end, before the judge is told the session is over). */
  readonly drain = (): void => {
    this.scheduled = false;
    while (this.queue.length) {
      const queue = this.queue;
      this.queue = [];
      for (const work of queue) work();
    }
  };
}

const joined = (chunks: Buffer[]): string => (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8');

export interface HttpProxy {
  readonly server: Server;
  readonly address: AddressInfo;
  /** Hand on every copy still waiting for the end of the turn, now. */
  flush(): void;
}

export function startHttpProxy(listen: Listen, upstream: URL, events: ProxyEvents): Promise<HttpProxy> {
  const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest;
  const later = new Later();
  const target = upstream.pathname + upstream.search;
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = url === '/' || (q < 0 ? url : url.slice(0, q)) === upstream.pathname ? target : url;
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP.has(k)) headers[k] = v;
    headers.host = upstream.host;
    const up = send({ protocol: upstream.protocol, hostname: upstream.hostname, port: upstream.port, method: req.method, path, headers });
    // The request body: piped, and a copy read whole once it has gone upstream.
    const reqCopy: Buffer[] = [];
    let reqSize = 0;
    req.pipe(up);
    req.on('data', (c: Buffer) => {
      reqSize += c.length;
      if (reqSize <= MAX_COPY) reqCopy.push(c);
    });
    let requestLine: string | undefined;
    req.on('end', () =>
      later.run(() => {
        requestLine = reqSize <= MAX_COPY ? asLine(joined(reqCopy)) : undefined;
        reqCopy.length = 0;
        if (requestLine) events.client(requestLine);
      }),
    );
    res.on('close', () => {
      if (!res.writableFinished) up.destroy(); // the host went away before the answer ended
    });
    up.on('error', e => {
      later.run(() => events.error?.(`${upstream.origin}: ${e.message}`));
      if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`mcp-aql-errors watch: the upstream server could not be reached: ${e.message}\n`);
      } else res.destroy();
    });
    up.on('response', upRes => {
      const out: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(upRes.headers)) if (v !== undefined && !HOP.has(k) && k !== 'host') out[k] = v;
      res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, out);
      upRes.pipe(res);
      const contentType = upRes.headers['content-type'] ?? '';
      const messages: unknown[] = [];
      const seen = (line: string | undefined) => {
        if (!line) return;
        messages.push(...parsed(line));
        events.server(line);
      };
      if (/^text\/event-stream/i.test(contentType)) {
        const sse = new SseReader(data => seen(asLine(data)));
        upRes.on('data', (c: Buffer) => later.run(() => sse.push(c)));
      } else {
        const copy: Buffer[] = [];
        let size = 0;
        upRes.on('data', (c: Buffer) => {
          size += c.length;
          if (size <= MAX_COPY) copy.push(c);
        });
        upRes.on('end', () =>
          later.run(() => {
            if (size <= MAX_COPY && /json/i.test(contentType)) seen(asLine(joined(copy)));
            copy.length = 0;
          }),
        );
      }
      let reported = false;
      const done = (ended: boolean) => {
        if (reported) return;
        reported = true;
        const header = (n: string) => (typeof req.headers[n] === 'string' ? (req.headers[n] as string) : undefined);
        const body = parsed(requestLine).filter((m): m is Record<string, unknown> => !!m && typeof m === 'object' && !Array.isArray(m));
        const meta = body
          .map(m => (m.params as { _meta?: Record<string, unknown> } | undefined)?._meta?.['io.modelcontextprotocol/protocolVersion'])
          .find((v): v is string => typeof v === 'string');
        events.http?.({
          method: req.method ?? 'GET',
          status: upRes.statusCode ?? 0,
          contentType,
          requests: body.flatMap(m => ('id' in m && typeof m.method === 'string' ? [{ id: JSON.stringify(m.id), method: m.method }] : [])),
          rpcMethods: body.flatMap(m => (typeof m.method === 'string' ? [m.method] : [])),
          mcpMethodHeader: header('mcp-method'),
          revision: header('mcp-protocol-version') ?? meta,
          messages,
          ended,
        });
      };
      upRes.on('end', () => later.run(() => done(true)));
      upRes.on('error', () => (later.run(() => done(false)), res.destroy()));
      upRes.on('aborted', () => (later.run(() => done(false)), res.destroy()));
    });
  };
  return new Promise((resolveStart, reject) => {
    const server = createServer(handle);
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => {
      server.off('error', reject);
      resolveStart({ server, address: server.address() as AddressInfo, flush: later.drain });
    });
  });
}
