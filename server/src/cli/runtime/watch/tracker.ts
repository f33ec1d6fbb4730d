/**
 * `watch`'s checker, beside the traffic: it reads a copy of each direction's bytes, cut
 * into lines (MCP stdio: one JSON-RPC message a line), matches `tools/call` requests to their
 * responses by id, remembers the tools of a `tools/list` answer, and judges each answer. It never
 * sees the bytes the proxy forwards, only copies, so nothing it does can change or hold them.
 */
import { StringDecoder } from 'node:string_decoder';
import type { LoadedContract } from '../args';
import type { PlacedAnswer, RuleLevel, RuntimeFinding } from '../../../service';

/** A line longer than this is skipped by the checker (it still passes through whole). */
export const MAX_LINE = 64 * 1024 * 1024;
/** Requests awaiting an answer; the oldest are forgotten past this. */
const MAX_PENDING = 10_000;

/** One direction's copy cut into lines; a line over MAX_LINE is dropped up to its end. */
export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private buf = '';
  private skipping = false;
  constructor(
    private readonly onLine: (line: string) => void,
    private readonly onTooLong: () => void,
  ) {}

  /** Forget the partial line: what follows up to the next line feed is skipped (copies were dropped). */
  resync(): void {
    this.buf = '';
    this.skipping = true;
    this.decoder.end();
  }

  push(chunk: Uint8Array): void {
    let s = this.decoder.write(chunk);
    for (;;) {
      const nl = s.indexOf('\n');
      if (nl < 0) break;
      const line = this.buf + s.slice(0, nl);
      this.buf = '';
      s = s.slice(nl + 1);
      if (this.skipping) this.skipping = false;
      else this.onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
    }
    if (this.skipping) return;
    this.buf += s;
    if (this.buf.length > MAX_LINE) {
      this.buf = '';
      this.skipping = true;
      this.onTooLong();
    }
  }
}

export interface WatchEvents {
  /** A finding on the answer to a call of `tool` (id as JSON). */
  finding(tool: string, id: string, f: RuntimeFinding): void;
  /** A response line, as the server wrote it (for --record). */
  response(line: string): void;
  /** A tools/call answer was matched to its request (counted in `calls`) and is about to be judged. */
  judged?(): void;
}

interface Pending {
  readonly tool: string;
  /** `tools/call`, or `resources/read` (judged for its error code). */
  readonly method: string;
}

const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

export class WatchTracker {
  private readonly pending = new Map<string, Pending>();
  private tools: Set<string> | undefined;
  /** Each listed tool's outputSchema. */
  private readonly schemas = new Map<string, unknown>();
  private initializeRequests = new Set<string>();
  /** The protocol revision of the session: a request's `_meta`, or the `initialize` answer. */
  revision: string | undefined;
  private listRequests = new Set<string>();
  calls = 0;
  /** The tools/call answers judged, placed in `transcript` (the responses, one a line). */
  readonly answers: PlacedAnswer[] = [];
  transcript = '';

  constructor(
    private readonly c: LoadedContract,
    private readonly rules: Record<string, RuleLevel>,
    private readonly events: WatchEvents,
    /** Keep the answers for a report (-o); up to 64 MiB of them. */
    private readonly keep = false,
  ) {}

  /** A line the client sent to the server. */
  client(line: string): void {
    for (const m of messages(line)) {
      if (typeof m.method !== 'string' || !('id' in m)) continue;
      const id = JSON.stringify(m.id);
      const meta = isObj(m.params) && isObj(m.params._meta) ? m.params._meta[VERSION_KEY] : undefined;
      if (typeof meta === 'string') this.revision = meta;
      if (m.method === 'initialize') this.initializeRequests.add(id);
      if (m.method === 'tools/list') this.listRequests.add(id);
      if (m.method === 'resources/read') {
        const uri = isObj(m.params) && typeof m.params.uri === 'string' ? m.params.uri : '';
        this.pending.set(id, { tool: uri, method: m.method });
      }
      if (m.method !== 'tools/call') continue;
      const name = isObj(m.params) && typeof m.params.name === 'string' ? m.params.name : '';
      this.pending.set(id, { tool: name, method: m.method });
      if (this.pending.size > MAX_PENDING) this.pending.delete(this.pending.keys().next().value!);
    }
  }

  /** A line the server sent to the client. */
  server(line: string): void {
    const ms = messages(line);
    const batch = line.trimStart().startsWith('[');
    // A batch's answers are judged one by one, each as its own JSON text (offsets into that text).
    for (const m of ms) if (!('method' in m) && 'id' in m) this.respond(batch ? JSON.stringify(m) : line, m);
  }

  private respond(line: string, m: Record<string, unknown>): void {
    const id = JSON.stringify(m.id);
    this.events.response(line);
    if (this.initializeRequests.delete(id) && isObj(m.result) && typeof m.result.protocolVersion === 'string')
      this.revision = m.result.protocolVersion;
    if (this.listRequests.delete(id) && isObj(m.result) && Array.isArray(m.result.tools)) {
      this.tools ??= new Set();
      for (const t of m.result.tools)
        if (isObj(t) && typeof t.name === 'string') {
          this.tools.add(t.name);
          if (t.outputSchema !== undefined) this.schemas.set(t.name, t.outputSchema);
        }
      return;
    }
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if (p.method === 'tools/call') {
      this.calls++;
      this.events.judged?.();
    }
    const exchange = {
      response: line,
      tool: p.tool,
      listed: p.method === 'tools/call' ? this.tools?.has(p.tool) : undefined,
      claimsMcpAql: this.c.claimsMcpAql,
      method: p.method,
      revision: this.revision,
      outputSchema: p.method === 'tools/call' ? this.schemas.get(p.tool) : undefined,
    };
    if (this.keep && this.transcript.length + line.length < MAX_LINE) {
      this.answers.push({ at: this.transcript.length, exchange });
      this.transcript += line + '\n';
    }
    for (const f of this.c.service.judgeAnswer(exchange, this.c.contract, { rules: this.rules })) this.events.finding(p.tool, id, f);
  }
}

function messages(line: string): Record<string, unknown>[] {
  if (!line.trim()) return [];
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return []; // not JSON: not a message (it passed through all the same)
  }
  if (Array.isArray(v)) return v.filter(isObj);
  return isObj(v) ? [v] : [];
}
