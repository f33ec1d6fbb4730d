/**
 * One connection to a running MCP server, whatever carries it: the interface `probe` drives and the
 * run-time commands share. A transport (stdio today; Streamable HTTP beside it) and a protocol era
 * (the `initialize` handshake, or the stateless revision) are implementations of it, added beside
 * `stdioSession.ts`, not threaded through the commands. Judging what crossed it stays in the service
 * (`service/runtime`), which knows no transport.
 */
import type { Era, HttpExchange, ToolInfo } from '../../../service';

/** What one `tools/call` came to: the request as sent, and the answer as it crossed the transport. */
export type CallOutcome =
  | { readonly kind: 'answer'; readonly request: string; readonly response: string }
  | { readonly kind: 'timeout'; readonly request: string }
  | { readonly kind: 'exited'; readonly request: string };

/** `sent`: from us to the server; `received`: from the server to us. */
export type Direction = 'sent' | 'received';

/** Every JSON-RPC message in both directions, serialized as it crossed the transport. */
export type TrafficListener = (direction: Direction, message: string) => void;

/** How to reach a server. */
export interface StdioTarget {
  readonly transport: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
}
export interface StdioEnv {
  /** Variables set for the server on top of ours (a host config's `env`). */
  readonly env?: Readonly<Record<string, string>>;
}
export interface HttpTarget {
  readonly transport: 'http';
  readonly url: string;
  /** Sent with every request (`--header`, a host config's `headers`). */
  readonly headers: Readonly<Record<string, string>>;
}
export type SessionTarget = (StdioTarget & StdioEnv) | HttpTarget;

/** What `start` agreed on with the server. */
export interface Negotiated {
  /** The protocol revision the session speaks (2024-11-05 … 2026-07-28). */
  readonly revision: string;
  readonly era: Era;
  readonly server?: { readonly name?: string; readonly version?: string };
  readonly capabilities: Readonly<Record<string, unknown>>;
}

export interface McpSession {
  /** Start the server (or connect to it), agree on the protocol, and list its tools (every page). */
  start(timeout: number): Promise<ToolInfo[]>;
  /** One `tools/call`; a JSON-RPC error, a timeout or an exit is an outcome, never a throw. */
  call(tool: string, args: Record<string, unknown>, timeout: number): Promise<CallOutcome>;
  /** Any other request, the same way (`resources/read`). */
  request(method: string, params: Record<string, unknown>, timeout: number): Promise<CallOutcome>;
  /** After `start`: the revision and era agreed on, the server's name and capabilities. */
  readonly negotiated: Negotiated | undefined;
  /** Over HTTP: each POST's HTTP facts, in order (none over stdio). */
  readonly httpExchanges: readonly HttpExchange[];
  /** Wait (a little) for the HTTP facts of the last exchanges to be read. */
  settled(): Promise<void>;
  /**
   * Over Streamable HTTP on 2026-07-28: requests a server must refuse at the HTTP level — an `Mcp-Method`
   * header that disagrees with the body, none at all, a revision it does not speak — sent as they are
   * (their HTTP facts in `httpExchanges`); none over stdio or in the handshake era.
   */
  sendRefusable(timeout: number): Promise<{ readonly request: string; readonly response?: string }[]>;
  /** Watch both directions of traffic from now on (register before `start` to see the handshake). */
  onTraffic(listener: TrafficListener): void;
  /** The server's last diagnostic lines (stderr for a process), for error messages. */
  readonly stderr: readonly string[];
  /** The connection ended (the server exited or closed it). */
  readonly closed: boolean;
  /** End the connection and stop what `start` started; safe to call twice. */
  close(): Promise<void>;
}
