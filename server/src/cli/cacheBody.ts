/**
 * The `check --cache` file's body (cacheShape.ts: its entries): one JSON object — layout, tool, details
 * table, fingerprints and `files`, each file's entry an array — written with each entry on a line of its
 * own. JSON all the same (a body of any spacing is read), but a body in this layout is read line by line,
 * and an entry no run changed is written back as the very text it was read from, not encoded again
 * (1 % of 10,000 files changed: 99 % of the file copied).
 */
import { asEntry, DetailsTable, type Entry } from './cacheShape';

/** The body's layout (5: references by position in the declarations; 6: SHA-256 hashes). */
const LAYOUT = 6;

/** More distinct details lists than this and the cache starts afresh (the table only grows). */
const MAX_DETAILS = 100_000;

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isFp = (x: unknown): x is string => typeof x === 'string' && /^[0-9a-f]{64}$/.test(x);

/**
 * What a cache body holds besides its entries: the details table, the fingerprint of all names under a
 * workspace's, and the workspace fingerprint of the run that wrote it (its adapters' entries come
 * first, in its order).
 */
export interface Parsed {
  entries: Map<string, Entry>;
  /** Each entry read from a body in the line layout, with its line's bytes there (written back while it is the same object under the same URI). */
  texts: Map<Entry, Line>;
  table: DetailsTable;
  names: readonly [string, string] | undefined;
  last?: string;
}

/** An entry's line as read (`"uri":[...]`, no comma): a view of the body's bytes. */
export interface Line {
  readonly uri: string;
  readonly bytes: Uint8Array;
}

const empty = (): Parsed => ({ entries: new Map(), texts: new Map(), table: new DetailsTable(), names: undefined });

/** The header's parts, or undefined when it is not this tool's layout. */
function header(data: unknown, tool: string): Omit<Parsed, 'entries' | 'texts'> | undefined {
  if (
    !isObj(data) ||
    data.version !== LAYOUT ||
    data.tool !== tool ||
    !isObj(data.files) ||
    !Array.isArray(data.details) ||
    data.details.length > MAX_DETAILS
  )
    return undefined;
  const n = data.names;
  const names = Array.isArray(n) && n.length === 2 && isFp(n[0]) && isFp(n[1]) ? ([n[0], n[1]] as const) : undefined;
  return { table: new DetailsTable(data.details), names, ...(isFp(data.last) ? { last: data.last } : {}) };
}

/** The entries of a cache body (its bytes as read) by URI (a Map: a key such as `__proto__` is just a key), and its details table. */
export function parseEntries(body: Uint8Array | string, tool: string): Parsed {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  try {
    const lines = byLine(bytes, tool);
    if (lines) return lines;
  } catch {
    /* not the line layout after all: read as one JSON text */
  }
  let data: unknown;
  try {
    data = JSON.parse(bytes.toString('utf8'));
  } catch {
    return empty();
  }
  const h = header(data, tool);
  if (!h) return empty();
  const entries = new Map<string, Entry>();
  for (const [uri, raw] of Object.entries((data as { files: Record<string, unknown> }).files)) {
    const e = uri.startsWith('file:') ? asEntry(raw) : undefined;
    if (e) entries.set(uri, e);
  }
  return { entries, texts: new Map(), ...h };
}

/**
 * A body in the line layout (`encodeEntries`): the header up to `"files":{`, then per line `"uri":[...],`
 * (no comma after the last), then `}}`. Undefined when the body is not laid out so; it is then read whole.
 * Lines end at a newline byte, which UTF-8 never puts inside a character. Each entry is parsed from the
 * bytes it keeps, so what is written back is what this entry came from.
 */
function byLine(body: Buffer, tool: string): Parsed | undefined {
  const nl = body.indexOf(0x0a);
  const stop = body.length - 3; // the newline before the closing `}}`
  if (nl < 0 || stop < nl || body[stop] !== 0x0a || body[stop + 1] !== 0x7d || body[stop + 2] !== 0x7d) return undefined;
  const head = body.toString('utf8', 0, nl);
  if (!head.endsWith('"files":{')) return undefined;
  const h = header(JSON.parse(head + '}}'), tool);
  if (!h) return empty();
  const entries = new Map<string, Entry>();
  const texts = new Map<Entry, Line>();
  for (let at = nl + 1; at < stop;) {
    const end = body.indexOf(0x0a, at);
    if (end < 0 || end > stop) return undefined;
    const comma = body[end - 1] === 0x2c;
    if (comma === (end === stop)) return undefined; // a comma after every entry but the last
    const lineEnd = comma ? end - 1 : end;
    const start = at;
    at = end + 1;
    // The key is a URI (no quote or backslash in it); any other key and the body is read whole.
    const line = body.toString('utf8', start, lineEnd);
    const k = line.indexOf('":');
    if (line.charCodeAt(0) !== 0x22 || k < 0) return undefined;
    const uri = line.slice(1, k);
    if (/["\\\u0000-\u001f]/.test(uri)) return undefined; // what JSON.parse would unescape or refuse
    const e = uri.startsWith('file:') ? asEntry(JSON.parse(line.slice(k + 2))) : undefined;
    if (e) {
      entries.set(uri, e);
      texts.set(e, { uri, bytes: body.subarray(start, lineEnd) });
    } else entries.delete(uri);
  }
  return { entries, texts, ...h };
}

const SEP = Buffer.from(',\n');
const TAIL = Buffer.from('\n}}');

/** The body for `entries` (what parseEntries reads back): each entry on its line, one read and left as it was copied as read. */
export function encodeEntries(
  entries: ReadonlyMap<string, Entry>,
  table: DetailsTable,
  tool: string,
  names?: readonly [string, string],
  last?: string,
  texts?: ReadonlyMap<Entry, Line>,
): Buffer {
  const head = JSON.stringify({ version: LAYOUT, tool, details: table, ...(names ? { names } : {}), ...(last ? { last } : {}), files: {} });
  const parts: Uint8Array[] = [Buffer.from(head.slice(0, -2) + '\n', 'utf8')];
  for (const [uri, e] of entries) {
    const kept = texts?.get(e);
    parts.push(
      kept?.uri === uri
        ? kept.bytes
        : Buffer.from(
            `${JSON.stringify(uri)}:${JSON.stringify([e.hash, e.opts, e.stat, e.adapter, e.decls, e.refs, e.deps ?? null, e.diagnostics ?? null, e.declFp, e.wsfp ?? null])}`,
            'utf8',
          ),
      SEP,
    );
  }
  if (entries.size) parts.pop();
  parts.push(TAIL);
  return Buffer.concat(parts);
}
