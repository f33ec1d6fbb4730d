/**
 * Records read by the engine's JSON.parse, seen as verify's JsonNode tree without offsets (every
 * start and end is 0): what `verify` reads a large JSON Lines file with first, since most records
 * have nothing to place. `verify` reads a record again with offsets (json.ts parseJson) only when
 * this view finds a problem, cannot tell, or JSON.parse rejects the line (`infer` reads the plain
 * values themselves, inference/failures.ts). Objects and lists become nodes only when a check walks into them, a member is looked up
 * without listing the others, and `toValue` of a container gives back the parsed value itself.
 *
 * JSON.parse keeps the last of a repeated key, as `member` does; only a check that lists an object's
 * entries could see the difference. So a text whose entries were listed is asked, at the end, whether
 * it repeats a key (`noRepeats`).
 */
import { MAX_DEPTH, type JsonEntry, type JsonNode } from './json';

interface Source {
  readonly text: string;
  readonly value: unknown;
  /** Keys in the parsed value, every object's counted. */
  readonly keys: number;
  /** Has a check listed the entries of one of its objects? */
  listed: boolean;
  /** Does the text repeat a key in an object, once asked. */
  repeats?: boolean;
  /** What a reader worked out from the whole value, by what it depends on (verify.ts: an envelope's verdict). */
  memo?: { readonly key: object; readonly value: unknown };
}

/** The texts read for one record (the line, and JSON inside its strings). */
export class PlainReading {
  private readonly sources: Source[] = [];

  /**
   * `text` as JSON.parse reads it; undefined when JSON.parse rejects it or it nests deeper than
   * MAX_DEPTH containers (what parseJson rejects: both read RFC 8259 strictly).
   */
  read(text: string): JsonNode | undefined {
    const src = parsed(text);
    if (!src) return undefined;
    this.sources.push(src);
    return nodeOf(src.value, src);
  }

  /**
   * `read` of JSON inside a record (a tool result's text), through `cache`: the same answer text comes
   * again and again in a transcript (the same failure, the same success), only its id differs.
   */
  readInner(text: string, cache: InnerCache): JsonNode | undefined {
    if (text.length > INNER_CACHED_CHARS) return this.read(text);
    let src = cache.get(text);
    if (src === undefined) {
      src = parsed(text) ?? null;
      if (cache.size >= INNER_CACHED) cache.clear();
      cache.set(text, src);
    }
    if (!src) return undefined;
    this.sources.push(src);
    return nodeOf(src.value, src);
  }

  /** No text whose entries a check listed repeats a key in an object. */
  noRepeats(): boolean {
    return this.sources.every(s => !s.listed || !(s.repeats ??= keysWritten(s.text) !== s.keys));
  }
}

/** Texts read by JSON.parse, by text (null: not JSON). Held at most INNER_CACHED texts of INNER_CACHED_CHARS each. */
export type InnerCache = Map<string, Parsed | null>;
const INNER_CACHED = 1024,
  INNER_CACHED_CHARS = 4096;

type Parsed = Source;

function parsed(text: string): Parsed | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const keys = countKeys(value, 0);
  return keys < 0 ? undefined : { text, keys, listed: false, value };
}

/** The text read whose whole value `n` is, undefined for any other node. */
export function sourceOf(n: JsonNode): Source | undefined {
  return n instanceof PlainObject && n.raw === n.src.value ? n.src : undefined;
}

/** Keys of every object in `v`, or -1 when containers nest deeper than MAX_DEPTH. */
function countKeys(v: unknown, depth: number): number {
  if (typeof v !== 'object' || v === null) return 0;
  if (depth >= MAX_DEPTH) return -1;
  let n = 0;
  if (Array.isArray(v)) {
    for (const x of v) {
      const k = countKeys(x, depth + 1);
      if (k < 0) return -1;
      n += k;
    }
    return n;
  }
  for (const key in v) {
    const k = countKeys((v as Record<string, unknown>)[key], depth + 1);
    if (k < 0) return -1;
    n += k + 1;
  }
  return n;
}

/**
 * The keys written in a JSON text JSON.parse accepted: its colons outside strings (one a key). More
 * than JSON.parse kept means a key is repeated in an object.
 */
export function keysWritten(text: string): number {
  let n = 0;
  for (let from = 0; ;) {
    const q = text.indexOf('"', from);
    const stop = q < 0 ? text.length : q;
    for (let c = text.indexOf(':', from); c >= 0 && c < stop; c = text.indexOf(':', c + 1)) n++;
    if (q < 0) return n;
    // The closing quote: the next one not escaped (preceded by an even run of backslashes).
    let e = q;
    for (;;) {
      e = text.indexOf('"', e + 1);
      let b = e - 1;
      while (text.charCodeAt(b) === 92) b--;
      if ((e - 1 - b) % 2 === 0) break;
    }
    from = e + 1;
  }
}

const noOffset = (): number => 0;

class PlainObject {
  readonly kind = 'object' as const;
  readonly start = 0;
  readonly end = 0;
  private list: JsonEntry[] | undefined;
  constructor(
    readonly raw: Record<string, unknown>,
    readonly src: Source,
  ) {}
  get entries(): JsonEntry[] {
    this.src.listed = true;
    return (this.list ??= Object.keys(this.raw).map(key => this.entry(key)));
  }
  /** json.ts `member`, without listing the entries. */
  entryOf(key: string): JsonEntry | undefined {
    return Object.hasOwn(this.raw, key) ? this.entry(key) : undefined;
  }
  private entry(key: string): JsonEntry {
    return { key, keyStart: 0, keyEnd: 0, value: nodeOf(this.raw[key], this.src) };
  }
}

class PlainArray {
  readonly kind = 'array' as const;
  readonly start = 0;
  readonly end = 0;
  private list: JsonNode[] | undefined;
  constructor(
    readonly raw: unknown[],
    private readonly src: Source,
  ) {}
  get items(): JsonNode[] {
    return (this.list ??= this.raw.map(v => nodeOf(v, this.src)));
  }
}

function nodeOf(v: unknown, src: Source): JsonNode {
  switch (typeof v) {
    case 'string':
      return { kind: 'string', start: 0, end: 0, value: v, at: noOffset };
    case 'number':
      return { kind: 'number', start: 0, end: 0, value: v };
    case 'boolean':
      return { kind: 'boolean', start: 0, end: 0, value: v };
    default:
      if (v === null) return { kind: 'null', start: 0, end: 0, value: null };
      return (Array.isArray(v) ? new PlainArray(v, src) : new PlainObject(v as Record<string, unknown>, src)) as unknown as JsonNode;
  }
}
