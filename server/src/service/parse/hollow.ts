/**
 * A big document's error_codes entries without their nodes (bench/NOTES.md, "Big files", "ninth sitting"). A hollow
 * entry mapping keeps its own object, range and place but not its pairs: its `items` is a getter (on its prototype)
 * that reads the entry's chunk text again (parse/chunk.ts parseChunk, at the chunk's current place) into a small cache
 * of recently read entries. What the extracted code points at keeps its identity: the entry mapping (`CodeDef.node`),
 * its details collection (`detailsNode`, hollow the same way) and its category scalar (kept whole) are put back into
 * each fresh read in place of their copies, so completion, hover and the fixes find the objects they found before.
 *
 * When: at the open, as each entry is parsed and extracted (chunkedParse.ts), when its keys are simple (no duplicate
 * or nameless key to report) — its plain value is kept for the schema check's first look, so the checks read no entry
 * back; any other entry after its first check (hollowEntries, from checks/validation.ts), once the checks keep its
 * answers (checks/blockPairs.ts). So the nodes of every entry never live at once: a 14 MiB adapter's live heap
 * 414 -> 289 MB. Only entries that read back so are hollowed: one pair, a block mapping, no error, anchor or alias, a
 * string template, no `<<` or `!` in its text, in a region of hollowFrom or more without `&` or `*`. A hollow chunk's range list
 * holds the kept nodes' ranges only (what an edit above moves).
 */
import type { Node, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { isMap, isScalar, isSeq } from './yamlNodes';
import { parseChunk, type Chunk } from './chunk';
import type { ChunkState } from './chunkState';
import { keyString } from './extract';
import { plainValue } from './plainValue';
import { isHollow, SOURCE } from './hollowMark';

/** Regions at least this long have their entries hollowed (a 10,000-code adapter is 2 MiB: never). */
let hollowFrom = 4 * 1024 * 1024;

/** For tests: the size from which regions are hollowed (returns the previous one). */
export function hollowThreshold(bytes: number): number {
  const was = hollowFrom;
  hollowFrom = bytes;
  return was;
}

/** Entries whose fresh nodes are kept (the last ones read): a feature at one place reads one or two. */
const CACHE_SIZE = 64;

interface Source {
  readonly chunk: Chunk;
  readonly options: object;
  /** The category scalar and the details collection to put back into each fresh read. */
  readonly category?: Scalar;
  readonly details?: Node;
  /**
   * Every key of the entry, at every depth, is a scalar with a string form (keyString), and no two keys of one
   * mapping read alike ignoring case: so the entry holds no duplicate key (checks/duplicateKeys.ts) and no nameless
   * details key (checks/schemaChecks.ts), and the checks need not read it for those.
   */
  readonly simple: boolean;
  /** Hollowed as it was parsed: the entry's plain value (parse/plainValue.ts), for the schema check to take once. */
  plain: unknown;
}

interface Fresh {
  readonly at: number;
  readonly entry: Pair[];
  readonly details?: unknown[];
}

/**
 * The entries read last, by chunk. Module-wide, so it may hold chunks of any document: a closed document's (whose
 * chunks' texts are views into its whole text) are let go by forgetReads.
 */
const cache = new Map<Chunk, Fresh>();

/**
 * Drops every entry read again (the service's `forget`, as a document closes): the cache is only a shortcut, and
 * otherwise kept a closed document's whole text alive through its chunks until 64 other entries were read.
 */
export function forgetReads(): void {
  cache.clear();
}

/** For tests: the chunks whose entries the cache holds read again. */
export const readsKept = (): Chunk[] => [...cache.keys()];
/** How many fresh reads were made (benches and tests). */
export let rereads = 0;

function fresh(src: Source): Fresh {
  const c = src.chunk;
  const hit = cache.get(c);
  if (hit && hit.at === c.placedAt) {
    cache.delete(c);
    cache.set(c, hit);
    return hit;
  }
  rereads++;
  const parsed = parseChunk(c.text, src.options, c.placedAt);
  const entry = parsed?.pairs[0]?.value;
  // Hollowed only after the same text read back as one mapping (hollowChunk): anything else is a bug, said loudly.
  if (!isMap(entry)) throw new Error('a hollow entry did not read back as a mapping');
  const items = entry.items as Pair[];
  let details: unknown[] | undefined;
  for (const p of items) {
    const k = keyString(p);
    if (k === 'category' && src.category) p.value = src.category;
    else if (k === 'details' && src.details) {
      details = (p.value as { items: unknown[] }).items;
      p.value = src.details;
    }
  }
  const f: Fresh = { at: c.placedAt, entry: items, details };
  cache.delete(c);
  cache.set(c, f);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return f;
}

function readEntry(this: Record<symbol, unknown>): unknown[] {
  return fresh(this[SOURCE] as Source).entry;
}

function readDetails(this: Record<symbol, unknown>): unknown[] {
  return fresh(this[SOURCE] as Source).details!;
}

/** Assigned to (yaml's `clone` does): the object holds what it is given from now on, as an own property. */
function writeItems(this: object, items: unknown[]): void {
  Object.defineProperty(this, 'items', { value: items, writable: true, enumerable: true, configurable: true });
}

const isEnumerable = Object.prototype.propertyIsEnumerable;

type Role = 'entry' | 'details';

/**
 * Per role and node class: a prototype whose `items` is read from the chunk (an entry's or its details collection's
 * items; YAMLMap or YAMLSeq). The role is the prototype's, not a property of each copy (which would not fit in the
 * copy's object and take a property array of its own: 135,000 of them in a 14 MiB adapter), and a clone (yaml's
 * `clone` keeps the prototype) keeps it.
 */
const protos = { entry: new Map<object, object>(), details: new Map<object, object>() };
const hollowProto = (p: object, role: Role): object => {
  let h = protos[role].get(p);
  if (!h) {
    const get = role === 'entry' ? readEntry : readDetails;
    protos[role].set(p, (h = Object.create(p, { items: { get, set: writeItems, enumerable: true, configurable: true } }) as object));
  }
  return h;
};

/**
 * A copy of collection `n` without its items, which its prototype reads from the chunk: a new object of the same
 * class and own properties (an own `items` turned into a getter in place would make every such object a dictionary,
 * some 450 bytes each).
 */
function hollowCopy<T extends object>(n: T, src: Source, role: Role): T {
  const h = Object.create(hollowProto(Object.getPrototypeOf(n) as object, role)) as T;
  // A node's enumerable string properties are plain data ones (set by assignment): copied so, without a descriptor
  // object each (a 14 MiB adapter hollows 135,000 collections); the others (`schema`, the node type) with theirs.
  for (const k of Reflect.ownKeys(n))
    if (k === 'items') continue;
    else if (typeof k === 'string' && isEnumerable.call(n, k)) (h as Record<string, unknown>)[k] = (n as Record<string, unknown>)[k];
    else Object.defineProperty(h, k, Object.getOwnPropertyDescriptor(n, k)!);
  Object.defineProperty(h, SOURCE, { value: src, enumerable: false });
  return h;
}

export { isHollow };

/** Is `p` the prototype of hollow entry mappings (of either node class)? */
const entryProto = (p: object | null): boolean => {
  for (const h of protos.entry.values()) if (h === p) return true;
  return false;
};

const sourceOf = (n: unknown): Source | undefined =>
  n && typeof n === 'object' && SOURCE in n && entryProto(Object.getPrototypeOf(n) as object | null)
    ? ((n as Record<symbol, unknown>)[SOURCE] as Source)
    : undefined;

/** `n` is a hollow entry mapping whose keys are all simple (Source.simple): no duplicate or nameless key in it. */
export const simpleHollow = (n: unknown): boolean => sourceOf(n)?.simple === true;

/** What takePlain gives when no plain value was kept. */
export const NO_PLAIN = Symbol('noPlain');

/** The plain value kept for hollow entry `n` when it was hollowed as parsed, given once (NO_PLAIN otherwise). */
export function takePlain(n: unknown): unknown {
  const src = sourceOf(n);
  if (!src || src.plain === NO_PLAIN) return NO_PLAIN;
  const v = src.plain;
  src.plain = NO_PLAIN;
  return v;
}

/** An anchor or alias may be there: the schema check may then convert the whole document, every entry read back. */
const ANCHORS = /[&*]/;
/**
 * A merge key (`<<`, a `!!merge` tag) may be in the chunk: such an entry is not hollowed, so that the walk for bad
 * merges (parse/aliases.ts badMerges, on every parse of a text that may hold one) can skip every hollow entry.
 */
const MERGE_OR_TAG = /<<|!/;

/**
 * Whether a region is hollowed as it is parsed (its first parse): big enough, and without `&` or `*` (an anchor or
 * alias anywhere would have the hollowed entries read back on every validation). hollowEntries asks the same of the
 * chunk state (`anchors`), so a region hollowed after its checks is one that could have been hollowed as parsed.
 */
export const hollowsAsParsed = (text: string): boolean => text.length >= hollowFrom && !ANCHORS.test(text);

/** Hollows error_codes chunk `c` as it is parsed (extracted, not checked yet), when its keys are simple. */
export function hollowAsParsed(c: Chunk, options: object): boolean {
  const done = hollowChunk(c, options, true);
  // One that is not (its keys not simple) is hollowed after its first check, by hollowEntries.
  if (done) c.hollowed = pendingPlain = true;
  return done;
}

/** Some entry hollowed as parsed may still keep its plain value (dropped by the next hollowEntries). */
let pendingPlain = false;

/** Mappings nested deeper than this are not called simple (the duplicate walk's own limit is far deeper). */
const SIMPLE_DEPTH = 32;

const NOT_ASCII = /[^\x00-\x7f]/;
/**
 * Two keys that read alike ignoring case (their upper cases equal), without making the upper cases of keys whose
 * lengths differ and that are ASCII (whose upper case keeps the length; `ß` does not).
 */
const alike = (a: string, b: string): boolean =>
  a === b || ((a.length === b.length || NOT_ASCII.test(a) || NOT_ASCII.test(b)) && a.toUpperCase() === b.toUpperCase());

function simpleTree(n: unknown, depth: number): boolean {
  if (n === null || n === undefined || isScalar(n)) return true;
  if (depth > SIMPLE_DEPTH) return false;
  if (isMap(n)) {
    const items = n.items;
    for (let i = 0; i < items.length; i++) {
      const p = items[i]!;
      if (!isScalar(p.key) || !p.key.range) return false;
      const k = keyString(p);
      if (k === undefined) return false;
      for (let j = 0; j < i; j++) if (alike(k, keyString(items[j]!)!)) return false;
      if (!simpleTree(p.value, depth + 1)) return false;
    }
    return true;
  }
  if (isSeq(n)) return n.items.every(it => simpleTree(it, depth + 1));
  return false;
}

/**
 * Hollows the error_codes entries of `state` not hollowed yet, when its region is big enough; `options`: the parse
 * options the chunks were read with. Each hollowed entry's pair, code (`node`, `detailsNode`) and chunk ranges then
 * hold the hollow copies; `replaced` is told of each pair whose value changed (the checks' records of it follow).
 */
export function hollowEntries(state: ChunkState | undefined, options: object, replaced: (p: Pair) => void): void {
  if (!state || state.anchors || state.consumed || state.text.length < hollowFrom) return;
  for (const p of state.pieces) {
    if (!p.sub) continue;
    const head = p.header?.chunk?.pairs[0];
    if (!head || keyString(head) !== 'error_codes') continue;
    for (const s of p.sub) {
      const c = s.chunk;
      if (!c) continue;
      if (!c.hollowed) {
        c.hollowed = true;
        if (hollowChunk(c, options)) replaced(c.pairs[0]!);
      } else if (!pendingPlain) continue;
      // A plain value kept for the schema check of an entry hollowed as parsed: that check has run.
      const src = sourceOf(c.pairs[0]?.value);
      if (src) src.plain = NO_PLAIN;
    }
  }
  pendingPlain = false;
}

function hollowChunk(c: Chunk, options: object, asParsed = false): boolean {
  if (c.anchors || c.errors.length || c.pairs.length !== 1 || c.extractedAs !== 'error_codes' || MERGE_OR_TAG.test(c.text)) return false;
  const codes = c.extracted?.codes;
  const pair = c.pairs[0]!;
  const entry = pair.value as Node | null;
  if (!codes || codes.length !== 1 || !isMap(entry) || entry.flow || !isScalar(pair.key) || !pair.key.range) return false;
  const def = codes[0]!;
  if (def.node !== entry || def.templateNode || def.shared || def.detailsShared || !entry.range) return false;
  let category: Scalar | undefined;
  let details: YAMLMap | YAMLSeq | undefined;
  for (const q of entry.items as Pair[]) {
    const k = keyString(q);
    if (k === undefined) return false;
    if (k === 'category' && def.category) {
      if (!isScalar(q.value) || (def.category as { node?: unknown }).node !== q.value || !q.value.range) return false;
      category = q.value;
    } else if (k === 'details' && def.detailsNode) {
      if (q.value !== def.detailsNode || !(isMap(q.value) || isSeq(q.value)) || !q.value.range) return false;
      details = q.value;
    }
  }
  if (def.detailsNode && !details) return false;
  const simple = simpleTree(entry, 0);
  let plain: unknown = NO_PLAIN;
  if (asParsed) {
    // Not checked yet: the checks will ask for the duplicates, the nameless keys and the schema of the entry.
    if (!simple) return false;
    try {
      plain = plainValue(entry);
    } catch {
      return false;
    }
  }
  // A fresh read is placed at the chunk's place (placedAt), where the moves so far have put its kept nodes.
  const src: Source = { chunk: c, options, category, details: undefined, simple, plain };
  const hollowDetails = details && hollowCopy(details, src, 'details');
  (src as { details?: Node }).details = hollowDetails;
  const hollowEntry = hollowCopy(entry, src, 'entry');
  pair.value = hollowEntry;
  const d = def as { node?: YAMLMap; detailsNode?: Node };
  d.node = hollowEntry;
  if (hollowDetails) d.detailsNode = hollowDetails;
  // What an edit above moves: the kept nodes' ranges only (a fresh read is placed where the chunk is).
  // A list at its size (one filled by push has room for 19: a 14 MiB adapter, some 9 MB).
  const key = pair.key.range as unknown as number[],
    own = entry.range as unknown as number[];
  const cat = category?.range as unknown as number[] | undefined,
    det = details?.range as unknown as number[] | undefined;
  c.ranges = cat && det ? [key, own, cat, det] : cat ? [key, own, cat] : det ? [key, own, det] : [key, own];
  return true;
}
