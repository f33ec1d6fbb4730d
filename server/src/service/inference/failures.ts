/**
 * The failures in JSON-RPC traffic: a transcript (JSON Lines, one message a line, as `probe --record`
 * and `watch --record` write it) → every failed answer with the request it answers (paired by id).
 * A failure is a tool result with `isError: true` or an MCP-AQL envelope with `success: false` (in a
 * text content or `structuredContent`), or a JSON-RPC error. What each carries — a code (the
 * envelope's, the question dialect's `mcp_aql_code`, a structured `error.code`), the JSON-RPC code,
 * the message, the details, an HTTP status and a retry delay — is read here; grouping is kinds.ts.
 */
import { DELAY_KEYS } from '../model/retry';
import { MAX_DEPTH } from '../verify/json';
import { ObjectMemo } from '../util/objectMemo';
import { tokensOf } from './template';

export type Channel = 'tool-result' | 'json-rpc';

export interface Failure {
  readonly channel: Channel;
  /** The tool result's `isError` (tool-result channel). */
  readonly flagged: boolean;
  /** The code the answer names (envelope, `mcp_aql_code`, structured `error.code`). */
  readonly code?: string;
  /** Where the code came from, for the comment. */
  readonly codeFrom?: 'envelope' | 'json-rpc data' | 'structured error';
  /** A tool result whose failure is a JSON error object (`{"error": …}`) rather than an envelope or plain text. */
  readonly structured?: boolean;
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
  /** How many times this failure was seen (FailureReader counts a repeat instead of keeping it); 1 when absent. */
  readonly count?: number;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const STATUS_KEYS = ['http_status', 'status', 'statusCode', 'status_code'];

/** Every failure of the transcripts, in order. A line that is not JSON, or not a message, is skipped. */
export function failuresOf(texts: readonly string[]): Failure[] {
  const reader = new FailureReader();
  for (const text of texts) {
    let start = 0;
    while (start <= text.length) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      reader.line(text.slice(start, end));
      start = end + 1;
    }
    reader.endTranscript();
  }
  return reader.failures();
}

/** Distinct samples kept of one group of failures (one code sent, or one message shape). */
export const SAMPLES_PER_GROUP = 64;
/** Groups kept apart; past this many, a new shape joins its channel's overflow group. */
export const MAX_GROUPS = 4096;

/**
 * Transcripts read a line at a time (a file of any size, docs/cli.md "Inferring a contract"): each
 * `tools/call` request is held until its answer pairs with it, and the same failure seen again is
 * counted, not held again. Of one group — one code sent, or one message shape: its words with the
 * values of the request's arguments, the details and the tool's name taken out, digits as 0 — at most
 * SAMPLES_PER_GROUP distinct failures are kept (enough to recover a template) and further ones are
 * counted on the group's first; past MAX_GROUPS shapes, a new one joins its channel's overflow group.
 * Memory grows with the kinds of failure, not with the traffic.
 */
export class FailureReader {
  private readonly requests = new Map<string, { tool?: string; args: unknown }>();
  /**
   * Failures kept, by what the answer says (keyStart) then by the request's tool and arguments: the first
   * key is one string object for an answer seen before, whose hash V8 keeps.
   */
  private readonly kept = new Map<string, Map<string, Failure & { count: number }>>();
  private readonly keptInOrder: (Failure & { count: number })[] = [];
  private readonly groups = new Map<string, { first: Failure & { count: number }; samples: number }>();
  private seen = 0;
  /** Tool results' texts read as JSON, by text (see readText). */
  private readonly texts: TextCache = new Map();

  /**
   * One line of a transcript (a JSON-RPC message; anything else is skipped). Read as the plain value
   * JSON.parse gives, with no node per member looked up: no offsets are needed, and JSON.parse keeps the
   * last of a repeated key as json.ts `member` does.
   */
  line(text: string): void {
    if (!/\S/.test(text)) return;
    const msg = readValue(text);
    if (!isObj(msg)) return;
    const id = msg.id;
    const key = typeof id === 'string' ? `string:${id}` : typeof id === 'number' ? `number:${id}` : undefined;
    if (msg.method !== undefined) {
      if (key && msg.method === 'tools/call') {
        const params = isObj(msg.params) ? msg.params : undefined;
        const name = params?.name;
        const args = params?.arguments;
        // The arguments are flattened only when a failure answers them (FailureReader.add).
        this.requests.set(key, { tool: typeof name === 'string' ? name : undefined, args: args === undefined ? {} : args });
      }
      return;
    }
    const request = key ? this.requests.get(key) : undefined;
    if (key) this.requests.delete(key);
    const f = failureOf(msg, this.texts);
    if (f) this.add(f, request);
  }

  /** The end of one transcript: its requests are not answered by the next one's. */
  endTranscript(): void {
    this.requests.clear();
  }

  /** How many failures were read. */
  get total(): number {
    return this.seen;
  }

  /** The failures kept, in the order first seen, each with how many times it (or its group's overflow) was seen. */
  failures(): Failure[] {
    return this.keptInOrder.map(f => ({ ...f }));
  }

  /**
   * `f` with its request's tool and arguments; the whole failure is built only when it is kept (a spread
   * per answer cost a fifth of the read), and so are the flattened arguments (argsJson writes them).
   */
  private add(f: Bare, request: { tool?: string; args: unknown } | undefined): void {
    this.seen++;
    // The failure written as JSON, in two parts (the answer's part of a text read before is written once).
    const start = keyStart(f);
    let byRequest = this.kept.get(start);
    const tool = request?.tool;
    const key = `${json(tool)},${request ? argsJson(request.args) : '{}'}`;
    const same = byRequest?.get(key);
    if (same) {
      same.count++;
      return;
    }
    const args = request ? flatten(request.args) : {};
    let groupKey = `${f.channel} ${f.rpcCode ?? ''} ${f.code ? `code ${f.code}` : shapeOf({ ...f, tool, args })}`;
    if (!this.groups.has(groupKey) && this.groups.size >= MAX_GROUPS) groupKey = `${f.channel} ${f.rpcCode ?? ''} overflow`;
    const group = this.groups.get(groupKey);
    if (group && group.samples >= SAMPLES_PER_GROUP) {
      group.first.count++;
      return;
    }
    const k = { ...f, tool, args, count: 1 };
    if (!byRequest) this.kept.set(start, (byRequest = new Map())); // only for a failure kept: memory stays bounded
    byRequest.set(key, k);
    this.keptInOrder.push(k);
    if (group) group.samples++;
    else this.groups.set(groupKey, { first: k, samples: 1 });
  }
}

/** An element of JSON.stringify's list: `null` for undefined, as in an array. */
const json = (v: unknown): string => (v === undefined ? 'null' : JSON.stringify(v));

/** Texts at most this long are kept read (FailureReader.texts), at most TEXTS_KEPT of them. */
const TEXT_KEPT_CHARS = 4096,
  TEXTS_KEPT = 1024;

/** A text read as JSON (undefined: not JSON, or nested too deep), with the failure it gives by isError, once worked out. */
interface ReadText {
  readonly value: unknown;
  readonly failures: Map<boolean, Bare | false | undefined>;
}
type TextCache = Map<string, ReadText>;

/**
 * `text` as JSON.parse reads it; undefined when JSON.parse rejects it or it nests deeper than MAX_DEPTH
 * containers (what verify's parseJson rejects).
 */
function readValue(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  // MAX_DEPTH + 1 containers open take at least twice as many characters: a shorter text is never too deep.
  return text.length < 2 * (MAX_DEPTH + 1) || !tooDeep(value, 0) ? value : undefined;
}

/** Does `v` hold a container at depth MAX_DEPTH (MAX_DEPTH + 1 open)? */
function tooDeep(v: unknown, depth: number): boolean {
  if (typeof v !== 'object' || v === null) return false;
  if (depth >= MAX_DEPTH) return true;
  if (Array.isArray(v)) {
    for (const x of v) if (tooDeep(x, depth + 1)) return true;
    return false;
  }
  for (const k in v) if (tooDeep((v as Record<string, unknown>)[k], depth + 1)) return true;
  return false;
}

/**
 * The failure of a tool result's text read as JSON (an envelope, a structured error): undefined when it
 * is neither, false for an envelope that succeeds. Through `texts`: the same answer comes again and again
 * in a transcript, only its id differs, and its failure is worked out once.
 */
function textFailure(t: string, flagged: boolean, texts: TextCache): Bare | false | undefined {
  if (t.length > TEXT_KEPT_CHARS) {
    const v = readValue(t);
    return isObj(v) ? envelopeFailure(v, 'tool-result', flagged) : undefined;
  }
  let r = texts.get(t);
  if (!r) {
    if (texts.size >= TEXTS_KEPT) texts.clear();
    texts.set(t, (r = { value: readValue(t), failures: new Map() }));
  }
  if (!isObj(r.value)) return undefined;
  if (r.failures.has(flagged)) return r.failures.get(flagged);
  const f = envelopeFailure(r.value, 'tool-result', flagged);
  r.failures.set(flagged, f);
  if (f) keyStarts.set(f, keyStartOf(f));
  return f;
}

/**
 * The start of a failure's key in FailureReader.add: what the answer says. Written once for a failure
 * textFailure keeps (only those: nothing is stored on the others).
 */
const keyStarts = new ObjectMemo<Bare, string>('keyStarts');
const keyStart = (f: Bare): string => keyStarts.get(f) ?? keyStartOf(f);
const keyStartOf = (f: Bare): string =>
  `[${json(f.channel)},${json(f.flagged)},${json(f.code)},${json(f.codeFrom)},${json(f.structured)},${json(f.rpcCode)},${json(f.message)},${json(f.details)},${json(f.status)},${json(f.delay)}`;

/** A message's words with the values it carries taken out (template.ts tokensOf) and digits as 0. */
function shapeOf(f: Failure): string {
  return tokensOf(f)
    .map(t => ('lit' in t ? t.lit.replace(/[0-9]+/g, '0') : 'name' in t ? `{${t.name}}` : '{}'))
    .join('');
}

type Bare = Omit<Failure, 'tool' | 'args'>;

/** The failure a response or a bare record reports, or undefined for a success or anything else. */
function failureOf(msg: Record<string, unknown>, texts: TextCache): Bare | undefined {
  if (isObj(msg.error)) return rpcFailure(msg.error);
  if (isObj(msg.result)) return resultFailure(msg.result, texts);
  if (msg.content !== undefined) return resultFailure(msg, texts);
  if (msg.success !== undefined) return envelopeFailure(msg, 'tool-result', false) || undefined;
  return undefined;
}

function rpcFailure(v: Record<string, unknown>): Bare {
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

function resultFailure(result: Record<string, unknown>, read: TextCache): Bare | undefined {
  const flagged = result.isError === true;
  const content = result.content;
  const texts: string[] = [];
  if (Array.isArray(content))
    for (const item of content as unknown[]) if (isObj(item) && typeof item.text === 'string') texts.push(item.text);
  // An envelope (or a structured error) in a text content, else in structuredContent.
  for (const t of texts) {
    if (!/^\s*\{/.test(t)) continue;
    const f = textFailure(t, flagged, read);
    if (f !== undefined) return f || undefined;
  }
  if (isObj(result.structuredContent)) {
    const f = envelopeFailure(result.structuredContent, 'tool-result', flagged);
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
    structured: v.success !== false || undefined,
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

/** Scalar leaves of the arguments by their own key (the first wins), through nested objects and lists: keys, then values. */
function leavesOf(v: unknown): [string[], unknown[]] {
  const keys: string[] = [],
    values: unknown[] = [];
  const walk = (o: unknown, depth: number) => {
    if (depth > 8) return;
    if (Array.isArray(o)) for (const x of o) walk(x, depth + 1);
    if (!isObj(o)) return;
    for (const k in o) {
      const x = o[k];
      if (typeof x === 'object' && x !== null) walk(x, depth + 1);
      else if (!keys.includes(k)) {
        keys.push(k);
        values.push(x);
      }
    }
  };
  walk(v, 0);
  return [keys, values];
}

/** The leaves (leavesOf) as an object with no prototype (a key `__proto__` is a key like any other). */
function flatten(v: unknown): Record<string, unknown> {
  const [keys, values] = leavesOf(v);
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (let i = 0; i < keys.length; i++) out[keys[i]!] = values[i];
  return out;
}

/** An array index as a property key: an object lists these first, in ascending order. */
const INDEX_KEY = /^(?:0|[1-9][0-9]{0,9})$/;
const isIndexKey = (k: string): boolean => INDEX_KEY.test(k) && Number(k) < 2 ** 32 - 1;

/**
 * JSON.stringify(flatten(v)), written from the leaves without building the object: the key of a failure
 * by its request (FailureReader.add). Leaves are strings, numbers, booleans and null; an index key (which
 * the object would list first) takes the object's way.
 */
function argsJson(v: unknown): string {
  const [keys, values] = leavesOf(v);
  if (keys.some(isIndexKey)) return JSON.stringify(flatten(v));
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const x = values[i];
    out += `${i ? ',' : ''}${JSON.stringify(keys[i])}:${typeof x === 'string' ? JSON.stringify(x) : String(x)}`;
  }
  return out + '}';
}
