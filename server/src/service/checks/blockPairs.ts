/**
 * yaml.duplicate-key and schema.* per entry of a top-level mapping (error_codes, error_mapping, ...),
 * cached per pair. The incremental parse keeps an unchanged entry's Pair, key and value nodes (their
 * ranges moved in place), so a pair's problems stay true while the pair does; the duplicates among the
 * keys of the block come from counts kept as pairs come and go. Problems move with the pair's key.
 */
import type { ValidateFunction } from 'ajv';
import type { Node, Pair, YAMLMap } from 'yaml';
import { isScalar } from '../parse/yamlNodes';
import type { Section } from '../model/model';
import { keyString } from '../parse/extract';
import { simpleHollow } from '../parse/hollow';
import { duplicateProblem, keyName, walk } from './duplicateKeys';
import { replaceRange } from './entryRecords';
import { allWithin, shiftAll } from './relocate';
import { pairSchemaProblems } from './schemaChecks';
import type { Problem } from './types';

interface PairRecord {
  readonly pair: Pair;
  readonly key: unknown;
  readonly value: unknown;
  /** The name duplicates compare (a scalar key with a range). */
  readonly name?: string;
  /** String of a scalar key: what the schema's JSON pointers match. */
  readonly pointer?: string;
  /** The pair has a key the schema check names (keyString). */
  readonly keyed: boolean;
  /** The offset the problems move with (the key's start, else the value's); undefined: not cached. */
  anchor: number | undefined;
  dups: readonly Problem[];
  /** schema.* of the entry, computed while it was the only pair of its key in the first block of its name. */
  schema?: readonly Problem[];
}

export interface BlockState {
  /** One per pair of the block, in order. */
  readonly recs: PairRecord[];
  /** Per duplicate name, how many pairs have it; `multi` counts names held by more than one. */
  readonly names: Map<string, number>;
  multi: number;
  /** Per pointer name (String of a scalar key), how many pairs have it; `pointerMulti` counts those held by more than one. */
  readonly pointers: Map<string, number>;
  pointerMulti: number;
  /** The validator the cached schema problems were made with. */
  validate?: ValidateFunction;
}

const NONE: readonly Problem[] = Object.freeze([]);

export const newBlockState = (): BlockState => ({ recs: [], names: new Map(), multi: 0, pointers: new Map(), pointerMulti: 0 });

/** Where the pair ends (its value's end, else its key's), as an offset in the file. */
const endOf = (s: Section, pair: Pair): number | undefined => {
  const r = (pair.value as Node | null)?.range ?? (pair.key as Node | null)?.range;
  return r ? s.base + r[2] : undefined;
};

/** Do the problems lie inside the pair (so they move with its key)? */
const inside = (s: Section, pair: Pair, ps: readonly Problem[]): boolean => {
  const lo = anchorOf(s, pair),
    hi = endOf(s, pair);
  return lo !== undefined && hi !== undefined && allWithin(ps, lo, hi);
};

const anchorOf = (s: Section, pair: Pair): number | undefined => {
  const r = (pair.key as Node | null)?.range ?? (pair.value as Node | null)?.range;
  return r ? s.base + r[0] : undefined;
};

function record(s: Section, pair: Pair): PairRecord {
  const k = pair.key as Node | null;
  const dups: Problem[] = [];
  // Not remembered per node (duplicateKeys.ts's memo): this record keeps the entry's answer while the pair lives, and
  // a mark on every mapping and list of every entry cost a property array each (a 14 MiB adapter: some 8 MB).
  // An entry hollowed with simple keys (parse/hollow.ts) holds no duplicate: not read back to be walked.
  if (!simpleHollow(pair.value)) walk(s, pair.value as Node | null, 2, p => dups.push(p), false);
  const anchor = inside(s, pair, dups) ? anchorOf(s, pair) : undefined;
  // Every field set here, `schema` too: a field added later gives each record a property array of its own.
  return {
    pair,
    key: pair.key,
    value: pair.value,
    name: isScalar(k) && k.range ? keyName(k) : undefined,
    pointer: isScalar(k) ? String(k.value) : undefined,
    keyed: keyString(pair) !== undefined,
    anchor,
    dups: dups.length ? dups : NONE,
    schema: undefined,
  };
}

const bump = (m: Map<string, number>, k: string | undefined, by: number): number => {
  if (k === undefined) return 0;
  const n = (m.get(k) ?? 0) + by;
  if (n) m.set(k, n);
  else m.delete(k);
  return n;
};

function count(st: BlockState, r: PairRecord, by: 1 | -1): void {
  const n = bump(st.names, r.name, by);
  if (r.name !== undefined && ((by === 1 && n === 2) || (by === -1 && n === 1))) st.multi += by;
  const m = bump(st.pointers, r.pointer, by);
  if (r.pointer !== undefined && ((by === 1 && m === 2) || (by === -1 && m === 1))) st.pointerMulti += by;
}

/** Bring the block's records in line with `map`'s pairs: records of new pairs only. */
export function syncBlock(s: Section, st: BlockState, map: YAMLMap): void {
  const items = map.items as Pair[];
  const recs = st.recs;
  // Kept: the same pair with the same key and value objects (a pair whose key or value was replaced is new).
  const same = (r: PairRecord, pair: Pair) => r.pair === pair && r.key === pair.key && r.value === pair.value;
  const n = Math.min(recs.length, items.length);
  let p = 0;
  while (p < n && same(recs[p]!, items[p]!)) p++;
  let q = 0;
  while (q < n - p && same(recs[recs.length - 1 - q]!, items[items.length - 1 - q]!)) q++;
  for (let i = p; i < recs.length - q; i++) count(st, recs[i]!, -1);
  const added: PairRecord[] = [];
  for (let i = p; i < items.length - q; i++) {
    const r = record(s, items[i]!);
    count(st, r, 1);
    added.push(r);
  }
  replaceRange(recs, p, recs.length - q - p, added);
}

/**
 * The records of `pairs`, whose value was replaced by an object that reads the same (parse/hollow.ts), kept: they
 * hold the new value, so the next sync takes them as unchanged.
 */
export function followValues(st: BlockState, pairs: ReadonlySet<Pair>): void {
  for (const r of st.recs) if (pairs.has(r.pair)) (r as { value: unknown }).value = r.pair.value;
}

/** Move a record's problems to its pair's current place. */
function place(s: Section, r: PairRecord): void {
  const now = anchorOf(s, r.pair);
  if (now === r.anchor || now === undefined || r.anchor === undefined) return;
  const delta = now - r.anchor;
  r.dups = shiftAll(r.dups, delta);
  if (r.schema) r.schema = shiftAll(r.schema, delta);
  r.anchor = now;
}

/** yaml.duplicate-key of a synced block (its keys, then inside each entry), in document order. */
export function blockDuplicates(s: Section, st: BlockState, emit: (p: Problem) => void): void {
  const seen = st.multi ? new Map<string, Pair>() : undefined;
  for (const r of st.recs) {
    if (seen && r.name !== undefined && st.names.get(r.name)! > 1) {
      const first = seen.get(r.name);
      const at = (r.pair.key as Node).range!;
      if (first) emit(duplicateProblem(s, r.name, at, (first.key as Node).range!));
      else seen.set(r.name, r.pair);
    }
    if (r.anchor === undefined) {
      walk(s, r.pair.value as Node | null, 2, emit);
      continue;
    }
    if (r.dups.length === 0) continue;
    place(s, r);
    for (const p of r.dups) emit(p);
  }
}

/**
 * schema.* of a synced block's entries. `cacheable`: this block is the first of its name in the
 * section (the pointers of its errors resolve to it).
 */
export function blockSchema(
  s: Section,
  st: BlockState,
  block: string,
  validate: ValidateFunction,
  cacheable: boolean,
  emit: (p: Problem) => void,
): void {
  if (st.validate !== validate) {
    for (const r of st.recs) r.schema = undefined;
    st.validate = validate;
  }
  const unique = st.pointerMulti === 0;
  for (const r of st.recs) {
    if (!cacheable || r.anchor === undefined || !r.keyed || (!unique && st.pointers.get(r.pointer!) !== 1)) {
      pairSchemaProblems(s, block, validate, r.pair, emit);
      continue;
    }
    if (r.schema?.length === 0) continue;
    place(s, r);
    if (r.schema === undefined) {
      const out: Problem[] = [];
      // Kept by this record, not per node (schemaChecks.ts's memo: a record and a property array on every entry).
      pairSchemaProblems(s, block, validate, r.pair, p => out.push(p), false);
      if (!inside(s, r.pair, out)) {
        for (const p of out) emit(p);
        continue;
      }
      r.schema = out.length ? out : NONE;
    }
    for (const p of r.schema) emit(p);
  }
}
