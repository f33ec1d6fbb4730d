/**
 * The probe's connection to a server (issue 24 item 2), on the field's own client: the SDK's `Client`
 * over `StdioClientTransport`. It lists the tools, then sends one `tools/call` at a time and keeps
 * the request and the answer exactly as they crossed the transport (a result the SDK's schema would
 * reject is still the server's answer, and is judged). It is a bundle of its own, `dist/probe-session.js`
 * (esbuild.js), with the SDK and zod: `dist/cli.js` requires it when `probe` runs, so no other command
 * compiles them; it imports nothing else of ours at run time (the version comes in).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Readable } from 'node:stream';
import type { ToolInfo } from '../service';

export type CallOutcome =
  | { readonly kind: 'answer'; readonly request: string; readonly response: string }
  | { readonly kind: 'timeout'; readonly request: string }
  | { readonly kind: 'exited'; readonly request: string };

/** Stderr lines of the server kept for the report (the last ones). */
const STDERR_KEEP = 20;

export class ProbeSession {
  private readonly client: Client;
  private readonly transport: StdioClientTransport;
  private lastRequest: JSONRPCMessage | undefined;
  private readonly answers = new Map<string, JSONRPCMessage>();
  private stderrTail: string[] = [];
  closed = false;

  constructor(command: string, args: readonly string[], cwd: string, version: string) {
    this.client = new Client({ name: 'mcp-aql-errors-probe', version });
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    this.transport = new StdioClientTransport({ command, args: [...args], cwd, env, stderr: 'pipe' });
    (this.transport.stderr as Readable | null)?.on('data', (c: Buffer) => {
      this.stderrTail.push(...c.toString('utf8').split('\n').filter(Boolean));
      this.stderrTail = this.stderrTail.slice(-STDERR_KEEP);
    });
  }

  get stderr(): readonly string[] {
    return this.stderrTail;
  }

  async start(timeout: number): Promise<ToolInfo[]> {
    this.client.onclose = () => void (this.closed = true);
    await this.client.connect(this.transport, { timeout });
    // After connect: the protocol's handler is installed; ours sees each message first.
    const onmessage = this.transport.onmessage!;
    this.transport.onmessage = (m: JSONRPCMessage) => {
      if ('id' in m && !('method' in m)) this.answers.set(JSON.stringify(m.id), m);
      onmessage(m);
    };
    const send = this.transport.send.bind(this.transport);
    this.transport.send = (m: JSONRPCMessage) => {
      if ('method' in m && m.method === 'tools/call') this.lastRequest = m;
      return send(m);
    };
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
