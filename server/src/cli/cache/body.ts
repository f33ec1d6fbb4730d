/**
 * The `check --cache` file's body (cacheShape.ts: its entries): one JSON object — layout, tool, details
 * table, fingerprints and `files`, each file's entry an array — written with each entry on a line of its
 * own. JSON all the same: a body is read with one JSON parse, whatever its spacing. When it is written
 * again, an entry no run changed is copied from the bytes it was read from, not encoded again (1 % of
 * 10,000 files changed: 99 % of the file copied), provided those bytes are exactly that entry's line.
 */
import { asEntry, DetailsTable, type Entry } from './shape';

/** The body's layout (5: references by position in the declarations; 6: SHA-256 hashes). */
const LAYOUT = 6;

/** More distinct details lists than this and the cache starts afresh (the table only grows). */
const MAX_DETAILS = 100_000;

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isFp = (x: unknown): x is string => typeof x === 'string' && /^[0-9a-f]{64}$/.test(x);

/** What was read, for writing unchanged entries back as they were: the bytes, how many members `files` had, each entry's URI. */
export interface Source {
  readonly bytes: Buffer;
  readonly members: number;
  readonly uriOf: ReadonlyMap<Entry, string>;
}

/**
 * What a cache body holds besides its entries: the details table, the fingerprint of all names under a
 * workspace's, and the workspace fingerprint of the run that wrote it (its adapters' entries come
 * first, in its order).
 */
export interface Parsed {
  entries: Map<string, Entry>;
  table: DetailsTable;
  names: readonly [string, string] | undefined;
  last?: string;
  source?: Source;
}

const empty = (): Parsed => ({ entries: new Map(), table: new DetailsTable(), names: undefined });

/** The entries of a cache body (its bytes as read) by URI (a Map: a key such as `__proto__` is just a key), and its details table. */
export function parseEntries(body: Uint8Array | string, tool: string): Parsed {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  let data: unknown;
  try {
    data = JSON.parse(bytes.toString('utf8'));
  } catch {
    return empty();
  }
  if (
    !isObj(data) ||
    data.version !== LAYOUT ||
    data.tool !== tool ||
    !isObj(data.files) ||
    !Array.isArray(data.details) ||
    data.details.length > MAX_DETAILS
  )
    return empty();
  const entries = new Map<string, Entry>();
  const uriOf = new Map<Entry, string>();
  let members = 0;
  for (const [uri, raw] of Object.entries(data.files)) {
    members++;
    const e = uri.startsWith('file:') ? asEntry(raw) : undefined;
    if (!e) continue;
    entries.set(uri, e);
    uriOf.set(e, uri);
  }
  const n = data.names;
  const names = Array.isArray(n) && n.length === 2 && isFp(n[0]) && isFp(n[1]) ? ([n[0], n[1]] as const) : undefined;
  return {
    entries,
    table: new DetailsTable(data.details),
    names,
    ...(isFp(data.last) ? { last: data.last } : {}),
    source: { bytes, members, uriOf },
  };
}

/**
 * Each member's line of a body that parsed (`source`), by URI, when the body is laid out as `encodeEntries`
 * writes it: the header up to `"files":{`, then per line `"uri":value,` (no comma after the last), then
 * `}}`; else undefined. Each line starts with a member and `files` has as many members as there are lines,
 * so each line holds exactly one member: its bytes are that member as parsed. Lines end at a newline
 * byte, which UTF-8 never puts inside a character and JSON never inside a value.
 */
export function linesOf(source: Source): Map<string, Uint8Array> | undefined {
  const body = source.bytes;
  const nl = body.indexOf(0x0a);
  const stop = body.length - 3; // the newline before the closing `}}`
  if (nl < 0 || stop < nl || body[stop] !== 0x0a || body[stop + 1] !== 0x7d || body[stop + 2] !== 0x7d) return undefined;
  if (!body.toString('latin1', Math.max(0, nl - 9), nl).endsWith('"files":{')) return undefined;
  const lines = new Map<string, Uint8Array>();
  let count = 0;
  for (let at = nl + 1; at < stop; count++) {
    const end = body.indexOf(0x0a, at);
    if (end < 0 || end > stop) return undefined;
    const comma = body[end - 1] === 0x2c;
    if (comma === (end === stop)) return undefined; // a comma after every member but the last
    const lineEnd = comma ? end - 1 : end;
    const start = at;
    at = end + 1;
    // A key without escapes (a URI has no quote or backslash), then its value: any other key and no line is kept.
    const k = body.indexOf('":', start, 'latin1');
    if (body[start] !== 0x22 || k < 0 || k >= lineEnd) return undefined;
    const uri = body.toString('utf8', start + 1, k);
    if (/["\\\u0000-\u001f\ufffd]/.test(uri)) return undefined; // what JSON would unescape, refuse or replace
    lines.set(uri, body.subarray(start, lineEnd));
  }
  return count === source.members && lines.size === count ? lines : undefined;
}

const SEP = Buffer.from(',\n');
const TAIL = Buffer.from('\n}}');

/** The body for `entries` (what parseEntries reads back): each entry on its line, one read (`source`) and left as it was copied as read. */
export function encodeEntries(
  entries: ReadonlyMap<string, Entry>,
  table: DetailsTable,
  tool: string,
  names?: readonly [string, string],
  last?: string,
  source?: Source,
): Buffer {
  const lines = source && linesOf(source);
  const head = JSON.stringify({ version: LAYOUT, tool, details: table, ...(names ? { names } : {}), ...(last ? { last } : {}), files: {} });
  const parts: Uint8Array[] = [Buffer.from(head.slice(0, -2) + '\n', 'utf8')];
  for (const [uri, e] of entries) {
    const kept = lines && source.uriOf.get(e) === uri ? lines.get(uri) : undefined;
    parts.push(
      kept ??
        Buffer.from(
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
