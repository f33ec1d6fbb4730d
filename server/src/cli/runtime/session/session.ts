/**
 * One connection to a running MCP server, whatever carries it: the interface `probe` drives and the
 * run-time commands share. A transport (stdio today; Streamable HTTP beside it) and a protocol era
 * (the `initialize` handshake, or the stateless revision) are implementations of it, added beside
 * `stdioSession.ts`, not threaded through the commands. Judging what crossed it stays in the service
 * (`service/runtime`), which knows no transport.
 */
import type { ToolInfo } from '../../../service';

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
export type SessionTarget = StdioTarget;

export interface McpSession {
  /** Start the server (or connect to it), agree on the protocol, and list its tools (every page). */
  start(timeout: number): Promise<ToolInfo[]>;
  /** One `tools/call`; a JSON-RPC error, a timeout or an exit is an outcome, never a throw. */
  call(tool: string, args: Record<string, unknown>, timeout: number): Promise<CallOutcome>;
  /** Watch both directions of traffic from now on (register before `start` to see the handshake). */
  onTraffic(listener: TrafficListener): void;
  /** The server's last diagnostic lines (stderr for a process), for error messages. */
  readonly stderr: readonly string[];
  /** The connection ended (the server exited or closed it). */
  readonly closed: boolean;
  /** End the connection and stop what `start` started; safe to call twice. */
  close(): Promise<void>;
}
