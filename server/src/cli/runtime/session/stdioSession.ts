/**
 * The stdio session (session.ts): the server started as a child process and spoken to with the
 * field's own client, the MCP SDK's `Client` over `StdioClientTransport`. It lists the tools, then sends
 * one `tools/call` at a time and keeps the request and the answer exactly as they crossed the transport
 * (a result the SDK's schema would reject is still the server's answer, and is judged). It is a bundle
 * of its own, `dist/probe-session.js` (esbuild.js), with the SDK and zod: `dist/cli.js` requires it when
 * a session opens (index.ts), so no other command compiles them; of ours it bundles only its transport
 * (groupTransport.ts: the server in a process group of its own) and node/processGroup.ts (the version
 * comes in).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Readable } from 'node:stream';
import type { ToolInfo } from '../../../service';
import type { CallOutcome, McpSession, StdioTarget, TrafficListener } from './session';
import { stdioTransport, type StdioTransport } from './groupTransport';

/** Stderr lines of the server kept for the report (the last ones). */
const STDERR_KEEP = 20;

export class StdioSession implements McpSession {
  private readonly client: Client;
  private readonly transport: StdioTransport;
  private lastRequest: JSONRPCMessage | undefined;
  private readonly answers = new Map<string, JSONRPCMessage>();
  private stderrTail: string[] = [];
  private readonly listeners: TrafficListener[] = [];
  private started = false;
  closed = false;

  constructor(target: StdioTarget, version: string) {
    this.client = new Client({ name: 'mcp-aql-errors-probe', version });
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    const { command, args, cwd } = target;
    // The server in a process group of its own, stopped whole when it ends or the session closes (groupTransport.ts).
    this.transport = stdioTransport({ command, args, cwd, env });
    this.observe();
    (this.transport.stderr as Readable | null)?.on('data', (c: Buffer) => {
      this.stderrTail.push(...c.toString('utf8').split('\n').filter(Boolean));
      this.stderrTail = this.stderrTail.slice(-STDERR_KEEP);
    });
  }

  onTraffic(listener: TrafficListener): void {
    this.listeners.push(listener);
  }

  /**
   * Both directions, the handshake included: the transport's `send` wrapped, and whatever handler the
   * client installs wrapped as it is installed (the transport calls `this.onmessage`). After the
   * handshake (`started`) answers are kept by id and the last `tools/call` sent is remembered.
   */
  private observe(): void {
    const t = this.transport;
    const send = t.send.bind(t);
    t.send = (m: JSONRPCMessage) => {
      if (this.started && 'method' in m && m.method === 'tools/call') this.lastRequest = m;
      if (this.listeners.length) for (const l of this.listeners) l('sent', JSON.stringify(m));
      return send(m);
    };
    let handler: ((m: JSONRPCMessage) => void) | undefined;
    Object.defineProperty(t, 'onmessage', {
      configurable: true,
      get: () => handler,
      set: (h: typeof handler) => {
        handler =
          h &&
          ((m: JSONRPCMessage) => {
            if (this.started && 'id' in m && !('method' in m)) this.answers.set(JSON.stringify(m.id), m);
            if (this.listeners.length) for (const l of this.listeners) l('received', JSON.stringify(m));
            h(m);
          });
      },
    });
  }

  get stderr(): readonly string[] {
    return this.stderrTail;
  }

  async start(timeout: number): Promise<ToolInfo[]> {
    this.client.onclose = () => void (this.closed = true);
    await this.client.connect(this.transport, { timeout });
    this.started = true;
    const tools: ToolInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const r = await this.client.listTools(cursor ? { cursor } : undefined, { timeout });
      tools.push(...r.tools);
      cursor = r.nextCursor;
      if (!cursor) break;
    }
    return tools;
  }

  async call(tool: string, args: Record<string, unknown>, timeout: number): Promise<CallOutcome> {
    this.lastRequest = undefined;
    try {
      // request(), not callTool(): no task guard, no output-schema check; the raw answer is judged.
      await this.client.request({ method: 'tools/call', params: { name: tool, arguments: args } }, CallToolResultSchema, { timeout });
    } catch {
      // a JSON-RPC error, a timeout, a closed connection, a result the SDK's schema rejects: judged below
    }
    const req = this.lastRequest as (JSONRPCMessage & { id?: unknown }) | undefined;
    const request = req
      ? JSON.stringify(req)
      : JSON.stringify({ jsonrpc: '2.0', method: 'tools/call', params: { name: tool, arguments: args } });
    const answer = req ? this.answers.get(JSON.stringify(req.id)) : undefined;
    if (answer) {
      this.answers.clear();
      return { kind: 'answer', request, response: JSON.stringify(answer) };
    }
    if (this.closed) return { kind: 'exited', request };
    return { kind: 'timeout', request };
  }

  async close(): Promise<void> {
    try {
      await this.client.close();
    } catch {
      // already closed
    }
  }
}
