/**
 * The failures in JSON-RPC traffic: a transcript (JSON Lines, one message a line, as `probe --record`
 * and `watch --record` write it) → every failed answer with the request it answers (paired by id).
 * A failure is a tool result with `isError: true` or an MCP-AQL envelope with `success: false` (in a
 * text content or `structuredContent`), or a JSON-RPC error. What each carries — a code (the
 * envelope's, the question dialect's `mcp_aql_code`, a structured `error.code`), the JSON-RPC code,
 * the message, the details, an HTTP status and a retry delay — is read here; grouping is kinds.ts.
 */
import { DELAY_KEYS } from '../model/retry';
import { member, parseJson, toValue, type JsonNode } from '../verify/json';

export type Channel = 'tool-result' | 'json-rpc';

export interface Failure {
  readonly channel: Channel;
  /** The tool result's `isError` (tool-result channel). */
  readonly flagged: boolean;
  /** The code the answer names (envelope, `mcp_aql_code`, structured `error.code`). */
  readonly code?: string;
  /** Where the code came from, for the comment. */
  readonly codeFrom?: 'envelope' | 'json-rpc data' | 'structured error';
  /** The JSON-RPC error code (json-rpc channel), or one a text names (`MCP error -32602: …`). */
  readonly rpcCode?: number;
  readonly message: string;
  /** The structured details (envelope details, JSON-RPC data.details or data, structured error fields). */
  readonly details?: Readonly<Record<string, unknown>>;
  /** An HTTP status the answer carries (details `http_status`, `status`, `statusCode`). */
  readonly status?: number;
  /** The field that promised a retry delay (`retryAfterMs`, `retry_after_seconds`, `Retry-After`). */
  readonly delay?: string;
  /** The tool called (`params.name` of the request), when the request was in the transcript. */
  readonly tool?: string;
  /** The request's arguments, flattened to their leaves (`{params: {id: 'x'}}` → `id: 'x'`). */
  readonly args: Readonly<Record<string, unknown>>;
}

type Obj = JsonNode & { kind: 'object' };
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const STATUS_KEYS = ['http_status', 'status', 'statusCode', 'status_code'];

/** Every failure of the transcripts, in order. A line that is not JSON, or not a message, is skipped. */
export function failuresOf(texts: readonly string[]): Failure[] {
  const out: Failure[] = [];
  for (const text of texts) {
    const requests = new Map<string, { tool?: string; args: Record<string, unknown> }>();
    let start = 0;
    while (start <= text.length) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      const r = /\S/.test(text.slice(start, end)) ? parseJson(text, undefined, start, end) : undefined;
      start = end + 1;
      if (!r?.ok || r.node.kind !== 'object') continue;
      const msg = r.node;
      const id = member(msg, 'id')?.value;
      const key = id && (id.kind === 'string' || id.kind === 'number') ? `${id.kind}:${id.value}` : undefined;
      const method = member(msg, 'method')?.value;
      if (method) {
        if (key && method.kind === 'string' && method.value === 'tools/call') {
          const params = member(msg, 'params')?.value;
          const name = member(params, 'name')?.value;
          const args = member(params, 'arguments')?.value;
          requests.set(key, { tool: name?.kind === 'string' ? name.value : undefined, args: flatten(args ? toValue(args) : {}) });
        }
        continue;
      }
      const request = key ? requests.get(key) : undefined;
      const f = failureOf(msg);
      if (f) out.push({ ...f, tool: request?.tool, args: request?.args ?? {} });
    }
  }
  return out;
}

type Bare = Omit<Failure, 'tool' | 'args'>;

/** The failure a response or a bare record reports, or undefined for a success or anything else. */
function failureOf(msg: Obj): Bare | undefined {
  const error = member(msg, 'error')?.value;
  if (error?.kind === 'object') return rpcFailure(error);
  const result = member(msg, 'result')?.value;
  if (result?.kind === 'object') return resultFailure(result);
  if (member(msg, 'content')) return resultFailure(msg);
  if (member(msg, 'success')) return envelopeFailure(toValue(msg), 'tool-result', false) || undefined;
  return undefined;
}

function rpcFailure(error: Obj): Bare {
  const v = toValue(error) as Record<string, unknown>;
  const data = isObj(v.data) ? v.data : undefined;
  const aql = typeof data?.mcp_aql_code === 'string' ? data.mcp_aql_code : undefined;
  const details = isObj(data?.details) ? data.details : data;
  return {
    channel: 'json-rpc',
    flagged: false,
    code: aql,
    codeFrom: aql ? 'json-rpc data' : undefined,
    rpcCode: typeof v.code === 'number' ? v.code : undefined,
    message: typeof v.message === 'string' ? v.message.replace(/^Question: /, '') : '',
    details: aql ? (isObj(data?.details) ? data.details : undefined) : details,
    status: statusIn(details),
    delay: delayIn(data) ?? delayIn(details),
  };
}

function resultFailure(result: Obj): Bare | undefined {
  const isError = member(result, 'isError')?.value;
  const flagged = isError?.kind === 'boolean' && isError.value;
  const content = member(result, 'content')?.value;
  const texts: string[] = [];
  if (content?.kind === 'array')
    for (const item of content.items) {
      const t = member(item, 'text')?.value;
      if (t?.kind === 'string') texts.push(t.value);
    }
  // An envelope (or a structured error) in a text content, else in structuredContent.
  for (const t of texts) {
    if (!/^\s*\{/.test(t)) continue;
    const inner = parseJson(t);
    if (!inner.ok || inner.node.kind !== 'object') continue;
    const f = envelopeFailure(toValue(inner.node), 'tool-result', flagged);
    if (f !== undefined) return f || undefined;
  }
  const structured = member(result, 'structuredContent')?.value;
  if (structured?.kind === 'object') {
    const f = envelopeFailure(toValue(structured), 'tool-result', flagged);
    if (f !== undefined) return f || undefined;
  }
  if (!flagged) return undefined;
  const message = texts.join('\n');
  const rpc = /^MCP error (-?\d+):/.exec(message);
  return { channel: 'tool-result', flagged, message, rpcCode: rpc ? Number(rpc[1]) : undefined };
}

/**
 * An envelope (`success: false`, `error: {code, message, details}`) or a structured error
 * (`error: {code, message}`, `{error: '…', code}`, `{code, message}` on a flagged result): the failure;
 * `false` for an envelope that succeeds; undefined when the object is neither.
 */
function envelopeFailure(v: unknown, channel: Channel, flagged: boolean): Bare | false | undefined {
  if (!isObj(v)) return undefined;
  if (v.success === true) return false;
  const e = v.error;
  let code: unknown, message: unknown, details: unknown;
  if (isObj(e)) {
    code = e.code;
    message = e.message;
    details = isObj(e.details) ? e.details : isObj(e.data) ? e.data : undefined;
  } else if (typeof e === 'string') {
    message = e;
    code = v.code;
    details = isObj(v.details) ? v.details : undefined;
  } else if (flagged && typeof v.message === 'string') {
    message = v.message;
    code = v.code;
    details = isObj(v.details) ? v.details : undefined;
  } else if (v.success !== false) return undefined;
  const d = isObj(details) ? details : undefined;
  return {
    channel,
    flagged,
    code: typeof code === 'string' && code ? code : undefined,
    codeFrom: typeof code === 'string' && code ? (v.success === false ? 'envelope' : 'structured error') : undefined,
    message: typeof message === 'string' ? message : '',
    details: d,
    status: statusIn(d) ?? statusIn(v),
    delay: delayIn(d) ?? delayIn(v) ?? delayIn(isObj(d?.headers) ? d.headers : undefined),
  };
}

function statusIn(o: unknown): number | undefined {
  if (!isObj(o)) return undefined;
  for (const k of STATUS_KEYS) {
    const s = o[k];
    if (typeof s === 'number' && Number.isInteger(s) && s >= 100 && s <= 599) return s;
  }
  return undefined;
}

function delayIn(o: unknown): string | undefined {
  if (!isObj(o)) return undefined;
  for (const k of DELAY_KEYS) if (Object.hasOwn(o, k) && o[k] !== null && o[k] !== undefined) return k;
  const lower = Object.keys(o).find(k => k.toLowerCase() === 'retry-after');
  return lower;
}

/** Scalar leaves of the arguments by their own key (the first wins), through nested objects and lists. */
function flatten(v: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const walk = (o: unknown, depth: number) => {
    if (depth > 8) return;
    if (Array.isArray(o)) for (const x of o) walk(x, depth + 1);
    if (!isObj(o)) return;
    for (const [k, x] of Object.entries(o)) {
      if (typeof x === 'object' && x !== null) walk(x, depth + 1);
      else if (!(k in out)) out[k] = x;
    }
  };
  walk(v, 0);
  return out;
}
