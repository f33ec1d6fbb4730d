/**
 * The session (session.ts) to an MCP server of either protocol era, over stdio or Streamable HTTP, on
 * the 2.x SDK client (`@modelcontextprotocol/client`; docs/spec-decisions.md, "Run time: protocol
 * revisions", the client library): `server/discover` first, `initialize` when the server does not know
 * it. It lists the tools, sends one request at a time and keeps the request and the answer exactly as
 * they crossed the transport (an answer the SDK's schema rejects is still the server's answer, and is
 * judged). Over HTTP it also keeps each POST's HTTP facts (`httpExchanges`). It is a bundle of its own,
 * `dist/probe-session.js` (esbuild.js), with the SDK: `dist/cli.js` requires it when a session opens
 * (index.ts), so no other command compiles it; it imports nothing else of ours at run time.
 */
import { Client, StreamableHTTPClientTransport, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import { stopGroup } from '../../../node/processGroup';
import type { HttpExchange, ToolInfo } from '../../../service';
import type { CallOutcome, McpSession, Negotiated, SessionTarget, TrafficListener } from './session';

/** Stderr lines of the server kept for the report (the last ones). */
const STDERR_KEEP = 20;

export class ClientSession implements McpSession {
  private client: Client;
  private transport: Transport;
  private lastRequest: (JSONRPCMessage & { id?: unknown }) | undefined;
  private readonly answers = new Map<string, JSONRPCMessage>();
  private stderrTail: string[] = [];
  /** The last stderr line while it has no line end yet (a chunk can end inside a line). */
  private stderrPartial = '';
  /** Which process's stderr is kept: a legacy server started again leaves its first process's late lines out. */
  private generation = 0;
  /** Each POST's HTTP facts (HTTP only), read from a copy of the response; `settled()` waits for the last ones. */
  readonly httpExchanges: HttpExchange[] = [];
  private reading: Promise<void>[] = [];
  private readonly listeners: TrafficListener[] = [];
  private started = false;
  negotiated: Negotiated | undefined;
  closed = false;

  constructor(
    private readonly target: SessionTarget,
    private readonly version: string,
  ) {
    if (target.transport === 'http' && !/^https?:$/.test(new URL(target.url).protocol))
      throw new Error(`not an http(s) URL: ${target.url}`);
    [this.client, this.transport] = this.make('auto');
  }

  /**
   * A client and its transport. Over stdio the transport is a subclass of the SDK's, so the SDK probes
   * with `server/discover` in place, on the process we started and stop, not on a sibling process of its
   * own that a cancelled probe would leave running; `legacy`: straight to `initialize` (a server that
   * exited on the probe, started again).
   */
  private make(mode: 'auto' | 'legacy'): [Client, Transport] {
    const client = new Client(
      { name: 'mcp-aql-errors-probe', version: this.version },
      { versionNegotiation: { mode }, inputRequired: { autoFulfill: false } },
    );
    const target = this.target;
    let transport: Transport;
    if (target.transport === 'stdio') {
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
      // Through setsid the server leads a process group of its own (the SDK's spawn takes no `detached`);
      // a command that cannot be found is spawned as it is, so its error stays the spawn's own (ENOENT).
      const grouped = SETSID !== undefined && findable(target.command, target.cwd, { ...env, ...target.env }.PATH);
      const t = new InPlaceStdio({
        command: grouped ? SETSID : target.command,
        args: grouped ? [target.command, ...target.args] : [...target.args],
        cwd: target.cwd,
        env: { ...env, ...target.env },
        stderr: 'pipe',
      });
      const generation = ++this.generation;
      const decoder = new StringDecoder('utf8');
      (t.stderr as Readable | null)?.on('data', (c: Buffer) => {
        if (generation !== this.generation) return;
        const lines = (this.stderrPartial + decoder.write(c)).split('\n');
        this.stderrPartial = lines.pop() ?? '';
        this.stderrTail.push(...lines.filter(Boolean));
        this.stderrTail = this.stderrTail.slice(-STDERR_KEEP);
      });
      transport = t;
    } else
      transport = new StreamableHTTPClientTransport(new URL(target.url), {
        requestInit: { headers: { ...target.headers } },
        fetch: (url, init) => this.observedFetch(url, init),
      });
    this.observe(transport);
    return [client, transport];
  }

  onTraffic(listener: TrafficListener): void {
    this.listeners.push(listener);
  }

  /**
   * Both directions, the handshake included: the transport's `send` wrapped, and whatever handler the
   * client installs wrapped as it is installed. After the handshake (`started`) answers are kept by id
   * and the last request sent is remembered.
   */
  private observe(t: Transport): void {
    const send = t.send.bind(t) as (m: JSONRPCMessage, o?: unknown) => Promise<void>;
    t.send = (m: JSONRPCMessage, o?: unknown) => {
      if (this.started && 'method' in m && 'id' in m) this.lastRequest = m;
      if (this.listeners.length) for (const l of this.listeners) l('sent', JSON.stringify(m));
      return send(m, o);
    };
    type Handler = (m: JSONRPCMessage, extra?: unknown) => void;
    let handler: Handler | undefined;
    Object.defineProperty(t, 'onmessage', {
      configurable: true,
      get: () => handler,
      set: (h: Handler | undefined) => {
        handler =
          h &&
          ((m: JSONRPCMessage, extra?: unknown) => {
            if (this.started && 'id' in m && !('method' in m)) this.answers.set(JSON.stringify(m.id), m);
            if (this.listeners.length) for (const l of this.listeners) l('received', JSON.stringify(m));
            h(m, extra);
          });
      },
    });
  }

  private async observedFetch(url: string | URL, init?: RequestInit): Promise<Response> {
    const res = await fetch(url, init);
    if ((init?.method ?? 'GET') !== 'POST') return res; // a GET stream stays open: not an exchange to wait for
    const headers = new Headers(init?.headers);
    const body = typeof init?.body === 'string' ? parseMessages(init.body) : [];
    const requests = body.flatMap(m => ('id' in m && typeof m.method === 'string' ? [{ id: JSON.stringify(m.id), method: m.method }] : []));
    const meta = body
      .map(m => (m.params as { _meta?: Record<string, unknown> } | undefined)?._meta?.[VERSION_KEY])
      .find(v => typeof v === 'string');
    const contentType = res.headers.get('content-type') ?? '';
    const copy = res.clone();
    this.reading.push(
      readMessages(copy, contentType).then(({ messages, ended }) => {
        this.httpExchanges.push({
          method: 'POST',
          status: res.status,
          contentType,
          requests,
          rpcMethods: body.flatMap(m => (typeof m.method === 'string' ? [m.method] : [])),
          mcpMethodHeader: headers.get('mcp-method') ?? undefined,
          revision: headers.get('mcp-protocol-version') ?? (meta as string | undefined),
          messages,
          ended,
        });
      }),
    );
    return res;
  }

  async sendRefusable(timeout: number): Promise<{ request: string; response?: string }[]> {
    const t = this.target;
    if (t.transport !== 'http' || this.negotiated?.era !== 'stateless') return [];
    const revision = this.negotiated.revision;
    const out: { request: string; response?: string }[] = [];
    const cases: { id: string; header?: string; version: string }[] = [
      { id: 'mcp-aql-probe-method-mismatch', header: 'tools/call', version: revision },
      { id: 'mcp-aql-probe-method-missing', version: revision },
      { id: 'mcp-aql-probe-unknown-revision', header: 'tools/list', version: '1999-01-01' },
    ];
    for (const c of cases) {
      const request = JSON.stringify({
        jsonrpc: '2.0',
        id: c.id,
        method: 'tools/list',
        params: { _meta: { [VERSION_KEY]: c.version, 'io.modelcontextprotocol/clientCapabilities': {} } },
      });
      const headers: Record<string, string> = {
        ...t.headers,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': c.version,
      };
      if (c.header) headers['mcp-method'] = c.header;
      try {
        const res = await this.observedFetch(t.url, { method: 'POST', headers, body: request, signal: AbortSignal.timeout(timeout) });
        const text = await res.text();
        const first = parseMessages(
          /event-stream/i.test(res.headers.get('content-type') ?? '') ? (/^data: ?(.*)$/m.exec(text)?.[1] ?? '') : text,
        )[0];
        out.push({ request, response: first ? JSON.stringify(first) : undefined });
      } catch {
        out.push({ request }); // no answer: the request stays in the transcript
      }
    }
    return out;
  }

  /** The HTTP exchanges read to their end (a stream still open after `ms` is taken as it is). */
  async settled(ms = 2000): Promise<void> {
    const all = this.reading;
    this.reading = [];
    await Promise.race([Promise.allSettled(all), new Promise(r => setTimeout(r, ms).unref())]);
  }

  get stderr(): readonly string[] {
    return this.stderrPartial ? [...this.stderrTail, this.stderrPartial].slice(-STDERR_KEEP) : this.stderrTail;
  }

  /** Connect (discover, or initialize), then list the tools (up to 100 pages). */
  async start(timeout: number): Promise<ToolInfo[]> {
    try {
      await this.connect(timeout);
    } catch (e) {
      // A stdio server that ends on a request it does not know before `initialize` is a legacy server
      // (docs/spec-decisions.md, the client library): started again, straight to the handshake.
      const ended = this.closed || (e as { code?: unknown }).code === 'ERA_NEGOTIATION_FAILED';
      if (this.target.transport !== 'stdio' || !ended || !/closed/.test(String((e as Error).message))) throw e;
      await this.client.close().catch(() => {});
      this.stderrTail = []; // the second start's lines are the ones to show
      this.stderrPartial = '';
      [this.client, this.transport] = this.make('legacy');
      await this.connect(timeout);
    }
    this.started = true;
    const revision = this.client.getNegotiatedProtocolVersion() ?? 'unknown';
    const info = (this.client.getServerVersion() ?? this.client.getDiscoverResult()?.serverInfo) as
      { name?: string; version?: string } | undefined;
    this.negotiated = {
      revision,
      era: this.client.getProtocolEra() === 'modern' ? 'stateless' : 'handshake',
      server: info ? { name: info.name, version: info.version } : undefined,
      capabilities: (this.client.getServerCapabilities() ?? {}) as Record<string, unknown>,
    };
    const tools: ToolInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const out = await this.request('tools/list', cursor ? { cursor } : {}, timeout);
      if (out.kind !== 'answer') throw new Error(out.kind === 'timeout' ? 'tools/list was not answered' : 'the server exited');
      const msg = JSON.parse(out.response) as { result?: { tools?: unknown; nextCursor?: unknown }; error?: { message?: unknown } };
      if (!msg.result) throw new Error(`tools/list failed: ${String(msg.error?.message ?? 'no result')}`);
      if (Array.isArray(msg.result.tools))
        for (const t of msg.result.tools as ToolInfo[]) if (t && typeof t.name === 'string') tools.push(t);
      cursor = typeof msg.result.nextCursor === 'string' && msg.result.nextCursor ? msg.result.nextCursor : undefined;
      if (!cursor) break;
    }
    return tools;
  }

  private async connect(timeout: number): Promise<void> {
    this.closed = false;
    const client = this.client;
    client.onclose = () => void (client === this.client && (this.closed = true));
    await client.connect(this.transport, { timeout });
  }

  /** One request; its answer as the server sent it, whatever the SDK made of it. */
  async request(method: string, params: Record<string, unknown>, timeout: number): Promise<CallOutcome> {
    this.lastRequest = undefined;
    try {
      await this.client.request({ method, params } as never, { timeout });
    } catch {
      // a JSON-RPC error, a timeout, a closed connection, a result the SDK's schema rejects: judged below
    }
    const req = this.lastRequest as (JSONRPCMessage & { id?: unknown }) | undefined;
    const request = req ? JSON.stringify(req) : JSON.stringify({ jsonrpc: '2.0', method, params });
    const answer = req ? this.answers.get(JSON.stringify(req.id)) : undefined;
    if (answer) {
      this.answers.clear();
      return { kind: 'answer', request, response: JSON.stringify(answer) };
    }
    if (this.closed) return { kind: 'exited', request };
    return { kind: 'timeout', request };
  }

  call(tool: string, args: Record<string, unknown>, timeout: number): Promise<CallOutcome> {
    return this.request('tools/call', { name: tool, arguments: args }, timeout);
  }

  async close(): Promise<void> {
    try {
      await this.client.close();
    } catch {
      // already closed
    }
    // While the SDK is still probing or shaking hands the transport is not yet the client's to close:
    // closed here too (stdin ended, then SIGTERM, then SIGKILL), so no server outlives us.
    try {
      await this.transport.close();
    } catch {
      // already closed
    }
  }
}

const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

/**
 * Where the server can lead a process group of its own: util-linux's `setsid` execs it as the leader of a
 * new session (a child of ours is no group leader, so setsid needs no fork: the pid is the server's).
 */
const SETSID = process.platform === 'linux' && existsSync('/usr/bin/setsid') ? '/usr/bin/setsid' : undefined;

/** Whether a command names an executable file: a path (against `cwd`), or a name on PATH. */
function findable(command: string, cwd: string, path = ''): boolean {
  const runnable = (p: string) => {
    try {
      accessSync(p, constants.X_OK);
      return statSync(p).isFile();
    } catch {
      return false;
    }
  };
  if (command.includes('/')) return runnable(resolve(cwd, command));
  return path.split(delimiter).some(d => d !== '' && runnable(join(d, command)));
}

/**
 * The SDK's stdio transport under another name: the SDK probes a subclass in place (see `make`). With
 * setsid, the server's group is stopped when the server exits — a child it left holding its output kept
 * the pipes, and so the session, open — and when the session closes, so none of its processes outlives
 * the run (node/processGroup.ts).
 */
class InPlaceStdio extends StdioClientTransport {
  private group: number | undefined;

  override async start(): Promise<void> {
    await super.start();
    const p = (this as unknown as { _process?: ChildProcess })._process;
    if (SETSID && p?.pid !== undefined) {
      const group = (this.group = p.pid);
      p.once('exit', () => void stopGroup(group));
    }
  }

  override async close(): Promise<void> {
    await super.close();
    if (this.group !== undefined) await stopGroup(this.group);
  }
}

function parseMessages(text: string): Record<string, unknown>[] {
  try {
    const v = JSON.parse(text) as unknown;
    return (Array.isArray(v) ? v : [v]).filter(
      (m): m is Record<string, unknown> => typeof m === 'object' && m !== null && !Array.isArray(m),
    );
  } catch {
    return [];
  }
}

/** The JSON-RPC messages of a response copy: a JSON body, or each SSE event's data. */
async function readMessages(res: Response, contentType: string): Promise<{ messages: unknown[]; ended: boolean }> {
  let text = '';
  let ended = true;
  try {
    text = await res.text();
  } catch {
    ended = false; // the stream broke off
  }
  if (!/^text\/event-stream/i.test(contentType)) return { messages: /json/i.test(contentType) ? parseMessages(text) : [], ended };
  const messages: unknown[] = [];
  for (const event of text.split(/\r\n\r\n|\n\n|\r\r/)) {
    const data = event
      .split(/\r\n|\n|\r/)
      .filter(l => l.startsWith('data:'))
      .map(l => l.slice(l[5] === ' ' ? 6 : 5));
    if (data.length) messages.push(...parseMessages(data.join('\n')));
  }
  return { messages, ended };
}
