/**
 * The stdio transport of the probe's session: the SDK's framing (`ReadBuffer`, `serializeMessage`: one
 * JSON-RPC message a line) over a server spawned in a process group of its own (node/processGroup.ts).
 * The SDK's `StdioClientTransport` waits for the server's pipes to close: a child the server leaves
 * behind holding its standard output kept them open, so the session never saw the server end (each call
 * waited for its timeout, and the run then waited for that child). Here the server's exit stops its
 * group, the pipes close, and the session ends with the server; `close` ends the server's input, then
 * stops the group (SIGTERM, then SIGKILL), so none of its processes outlives the run. On Windows, which
 * has no process groups, the SDK's own transport is used.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { PassThrough, type Readable, type Stream, type Writable } from 'node:stream';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { OWN_GROUP, stopGroup } from '../../../node/processGroup';

export interface StdioServer {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Record<string, string>;
}

/** A transport to a server over stdio, with the server's stderr as a stream. */
export type StdioTransport = Transport & { readonly stderr: Stream | null };

/** The transport for this platform: the server in a group of its own, or (Windows) the SDK's. */
export function stdioTransport(server: StdioServer): StdioTransport {
  if (!OWN_GROUP) return new StdioClientTransport({ ...server, args: [...server.args], stderr: 'pipe' });
  return new GroupStdioTransport(server);
}

const GRACE_MS = 2000;

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly stderr = new PassThrough();
  private child: ChildProcessByStdio<Writable, Readable, Readable> | undefined;
  private readonly buffer = new ReadBuffer();
  private ended = false;
  private stopped: Promise<void> | undefined;

  constructor(private readonly server: StdioServer) {}

  start(): Promise<void> {
    if (this.child) throw new Error('the transport is already started');
    return new Promise((resolve, reject) => {
      const { command, args, cwd, env } = this.server;
      const child = spawn(command, [...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
      this.child = child;
      child.on('error', e => {
        reject(e);
        this.onerror?.(e);
      });
      child.on('spawn', () => resolve());
      // The server ended: what it left in its group goes too, so that its pipes close.
      child.on('exit', () => void this.stop());
      child.on('close', () => {
        this.ended = true;
        this.onclose?.();
      });
      child.stdin.on('error', e => this.onerror?.(e));
      child.stdout.on('error', e => this.onerror?.(e));
      child.stdout.on('data', (chunk: Buffer) => {
        try {
          this.buffer.append(chunk);
        } catch (e) {
          this.onerror?.(e as Error);
          void this.close();
          return;
        }
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = this.buffer.readMessage();
          } catch (e) {
            this.onerror?.(e as Error); // a line that is not a JSON-RPC message: the next one may be
            continue;
          }
          if (message === null) break;
          this.onmessage?.(message);
        }
      });
      child.stderr.pipe(this.stderr);
    });
  }

  /** The server's process group, stopped once (SIGTERM, then SIGKILL to what is left). */
  private stop(): Promise<void> {
    const pid = this.child?.pid;
    if (pid === undefined) return Promise.resolve();
    return (this.stopped ??= stopGroup(pid, GRACE_MS));
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || this.ended) return reject(new Error('Not connected'));
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** End the server's input and give it `GRACE_MS` to leave; then its group is stopped. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    if (!this.ended) {
      const closed = new Promise<void>(done => child.once('close', () => done()));
      try {
        child.stdin.end();
      } catch {
        // already closed
      }
      const waited = await Promise.race([
        closed.then(() => true),
        new Promise<boolean>(done => setTimeout(() => done(false), GRACE_MS).unref()),
      ]);
      if (!waited) await this.stop();
      await Promise.race([closed, new Promise<void>(done => setTimeout(done, GRACE_MS).unref())]);
    } else await this.stop();
    this.buffer.clear();
  }
}
