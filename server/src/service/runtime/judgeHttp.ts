/**
 * One Streamable HTTP exchange judged by its HTTP facts (docs/spec-decisions.md, "Run time: Streamable
 * HTTP"): an error status whose body is no JSON-RPC error, a 2xx carrying an error that 2026-07-28 sends
 * with 400, a request whose SSE stream ended without its answer (an error after the stream started that
 * was not sent in-band), and — on 2026-07-28 — a request with a missing or mismatched `Mcp-Method`
 * header that the server accepted. Findings have no position of their own (start 0): the caller places them.
 */
import { Code } from '../codes';
import type { Problem } from '../checks/types';
import { atLeast, STATELESS_FROM } from './revisions';

export interface HttpExchange {
  /** The HTTP method (POST, GET, DELETE). */
  readonly method: string;
  readonly status: number;
  readonly contentType: string;
  /** The JSON-RPC requests of the body (with an id), and its notifications' methods. */
  readonly requests: readonly { readonly id: string; readonly method: string }[];
  /** Every JSON-RPC method of the body (requests and notifications). */
  readonly rpcMethods: readonly string[];
  readonly mcpMethodHeader?: string;
  /** The revision of the exchange (its MCP-Protocol-Version header or the body's `_meta`), or the session's. */
  readonly revision?: string;
  /** The JSON-RPC messages of the response (a JSON body, or the events of an SSE stream). */
  readonly messages: readonly unknown[];
  /** The response body ended as it should (false: the connection broke). */
  readonly ended: boolean;
}

/** Errors 2026-07-28 answers with HTTP 400: header mismatch, missing client capability, unsupported version. */
const SENT_WITH_400 = new Set([-32020, -32021, -32022]);

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const errorCode = (m: unknown): number | undefined =>
  isObj(m) && isObj(m.error) && typeof m.error.code === 'number' ? m.error.code : undefined;

export function judgeHttp(x: HttpExchange): Problem[] {
  const out: Problem[] = [];
  const at = { start: 0, end: 0 };
  const what = x.requests.length ? x.requests.map(r => r.method).join(', ') : x.rpcMethods.join(', ') || x.method;
  const errors = x.messages.flatMap(m => (errorCode(m) === undefined ? [] : [errorCode(m)!]));
  if (x.status >= 400 && x.requests.length && !errors.length)
    out.push({
      code: Code.RuntimeHttpStatus,
      ...at,
      message: `HTTP ${x.status} to ${what}, and no JSON-RPC error in the body${x.contentType ? ` (${x.contentType.split(';')[0]})` : ''}: the client cannot tell which request failed or why; send the JSON-RPC error response as the body.`,
    });
  if (x.status >= 200 && x.status < 300 && atLeast(x.revision, STATELESS_FROM))
    for (const c of errors)
      if (SENT_WITH_400.has(c))
        out.push({
          code: Code.RuntimeHttpStatus,
          ...at,
          message: `JSON-RPC error ${c} to ${what} came with HTTP ${x.status}: ${STATELESS_FROM} sends it with 400 Bad Request, which is how a client and the proxies before it see the request was refused.`,
        });
  if (/^text\/event-stream/i.test(x.contentType) && x.requests.length) {
    const answered = new Set(x.messages.flatMap(m => (isObj(m) && 'id' in m && !('method' in m) ? [JSON.stringify(m.id)] : [])));
    const missing = x.requests.filter(r => !answered.has(r.id));
    if (missing.length)
      out.push({
        code: Code.RuntimeStreamNoAnswer,
        ...at,
        message: `The SSE stream of ${missing.map(r => `${r.method} (id ${r.id})`).join(', ')} ${x.ended ? 'ended' : 'broke off'} without its answer: once a stream has started, an error must be sent in it as a JSON-RPC error event, or the client waits for nothing.`,
      });
  }
  if (x.method === 'POST' && atLeast(x.revision, STATELESS_FROM) && x.status >= 200 && x.status < 300 && x.rpcMethods.length === 1) {
    const body = x.rpcMethods[0]!;
    const header = x.mcpMethodHeader;
    if (header !== body)
      out.push({
        code: Code.RuntimeMethodHeader,
        ...at,
        message:
          header === undefined
            ? `The server accepted ${body} without an Mcp-Method header: ${STATELESS_FROM} (SEP-2243) requires it on every POST and a server to refuse a request without it (400, -32020).`
            : `The server accepted ${body} with Mcp-Method '${header}': ${STATELESS_FROM} (SEP-2243) requires a server to refuse a request whose header and body disagree (400, -32020).`,
      });
  }
  return out;
}
