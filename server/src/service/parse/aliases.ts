/**
 * Aliases (`*ref`) and merge keys (`<<: *base`, as the `yaml` package reads them with `merge: true`)
 * for extraction: what a node stands for, and the pairs a mapping holds once its merges are applied.
 * Nothing is expanded or copied: an alias resolves to its anchored node (so positions point at the
 * anchored source), and whatever is reached through an alias, or is an anchored node some alias uses,
 * is marked `shared`: editing it would change the anchor's other users. Resolution is one walk per
 * document (cached).
 */
import type { Document, Node, Pair, YAMLMap } from 'yaml';
import { isAlias, isMap, isPair, isScalar, isSeq } from './yamlNodes';
import { ObjectMemo } from '../util/objectMemo';
import { isHollow } from './hollowMark';
import { mapPacked } from '../util/mapPacked';

/** Alias node → the node its anchor names (the last one before it); anchored node → itself when used. */
const targets = new ObjectMemo<Document, Map<Node, Node | undefined>>('aliasTargets');

function aliasTargets(doc: Document): Map<Node, Node | undefined> {
  let map = targets.get(doc);
  if (map) return map;
  map = new Map();
  const anchors = new Map<string, Node>();
  const out = map;
  const walk = (n: Node | null | undefined, depth: number): void => {
    if (!n || depth > 1000) return;
    if (isAlias(n)) {
      const t = anchors.get(n.source);
      out.set(n, t);
      if (t) out.set(t, t);
      return;
    }
    // The anchor is defined before its node's content: an alias inside it refers to the node itself.
    const a = (n as { anchor?: string }).anchor;
    if (a) anchors.set(a, n);
    if (isMap(n) || isSeq(n))
      for (const it of n.items) {
        if (isPair(it)) {
          walk(it.key as Node | null, depth + 1);
          walk(it.value as Node | null, depth + 1);
        } else walk(it as Node | null, depth + 1);
      }
  };
  walk(doc.contents as Node | null, 0);
  targets.set(doc, out);
  return out;
}

interface Deref {
  readonly node: Node | null | undefined;
  readonly shared: boolean;
}

/**
 * What `n` stands for: itself, or an alias's anchored node. `shared` when it is reached through an
 * alias or is itself an anchored node that an alias uses. Unresolved aliases give undefined.
 */
export function deref(doc: Document, n: unknown): Deref {
  if (!n || typeof n !== 'object') return { node: n as null | undefined, shared: false };
  const a = (n as { anchor?: string }).anchor;
  if (!isAlias(n) && !a) return { node: n as Node, shared: false };
  const t = aliasTargets(doc);
  if (isAlias(n)) return { node: t.get(n), shared: true };
  return { node: n as Node, shared: t.has(n as Node) };
}

/** `<<` as a merge key (a plain `<<` read with `merge: true`; a quoted '<<' is an ordinary key). */
const isMergeKey = (p: Pair): boolean => isScalar(p.key) && typeof p.key.value === 'symbol';

/** Whether `map` has a merge key of its own: without one, its effective pairs are its items, unshared. */
export function hasMergeKey(map: YAMLMap): boolean {
  const items = map.items;
  for (let i = 0; i < items.length; i++) if (isMergeKey(items[i]!)) return true;
  return false;
}

export interface Reached {
  readonly pair: Pair;
  /** Reached through an alias: editing it changes the anchor's other users. */ readonly shared: boolean;
}

const keyOf = (p: Pair): string | undefined =>
  isScalar(p.key) && p.key.value !== null && typeof p.key.value !== 'object' && typeof p.key.value !== 'symbol'
    ? String(p.key.value)
    : undefined;

/** Per document: each mapping's pairs with its merges applied, as reached without an alias (`effective`). */
const effectiveCache = new ObjectMemo<Document, Map<YAMLMap, readonly Reached[]>>('effectivePairs');
/** Merge chains are followed this deep (each level one stack frame); deeper sources are skipped. */
const MAX_MERGE_DEPTH = 1000;

/**
 * The pairs `map` holds with its merge keys applied (YAML merge-key semantics): its own pairs first,
 * then each merged mapping's pairs whose key is not already there (an earlier source wins over a
 * later one; a pair reached twice is listed once). Merge sources that are not mappings are skipped
 * here (`badMerges` reports them). Each mapping is resolved once per document, so merge keys that fan
 * out (each anchor merging the ones before) cost one pass over the mappings, not one per path; a
 * mapping that merges itself (through an alias inside its anchor) gets its own pairs only.
 */
export function effectivePairs(doc: Document, map: YAMLMap, shared = false): Reached[] {
  let cache = effectiveCache.get(doc);
  if (!cache) effectiveCache.set(doc, (cache = new Map()));
  const pairs = resolveMerges(doc, map, cache, new Set(), 0);
  return mapPacked(pairs, r => (shared && !r.shared ? { pair: r.pair, shared } : r));
}

function resolveMerges(
  doc: Document,
  map: YAMLMap,
  cache: Map<YAMLMap, readonly Reached[]>,
  open: Set<YAMLMap>,
  depth: number,
): readonly Reached[] {
  const known = cache.get(map);
  if (known) return known;
  const out: Reached[] = [];
  let merges: Pair[] | undefined;
  for (const p of map.items) {
    if (isMergeKey(p)) (merges ??= []).push(p);
    else out.push({ pair: p, shared: false });
  }
  if (!merges) {
    cache.set(map, out);
    return out;
  }
  if (open.has(map) || depth > MAX_MERGE_DEPTH) return out;
  open.add(map);
  const seen = new Set<string>();
  const reached = new Set<Pair>(out.map(r => r.pair));
  for (const r of out) {
    const k = keyOf(r.pair);
    if (k !== undefined) seen.add(k);
  }
  for (const m of merges) {
    const v = m.value as Node | null;
    for (const src of isSeq(v) ? v.items : [v]) {
      const d = deref(doc, src);
      if (!isMap(d.node)) continue;
      for (const r of resolveMerges(doc, d.node, cache, open, depth + 1)) {
        const k = keyOf(r.pair);
        if ((k !== undefined && seen.has(k)) || reached.has(r.pair)) continue;
        if (k !== undefined) seen.add(k);
        reached.add(r.pair);
        out.push(d.shared && !r.shared ? { pair: r.pair, shared: true } : r);
      }
    }
  }
  open.delete(map);
  cache.set(map, out);
  return out;
}

/** Merge keys whose value is not a mapping, an alias of one, or a list of those: (the offending node). */
export function badMerges(doc: Document): Node[] {
  const out: Node[] = [];
  const walk = (n: Node | null | undefined, depth: number): void => {
    // A hollow entry's text holds no `<<` or `!` (parse/hollow.ts): no merge key in it, and not read back to be walked.
    if (!n || depth > 1000 || isAlias(n) || isHollow(n)) return;
    if (isMap(n)) {
      for (const p of n.items) {
        if (isMergeKey(p)) {
          const v = p.value as Node | null;
          const sources = isSeq(v) ? (v.items as Node[]) : [v];
          for (const src of sources)
            if (!isMap(deref(doc, src).node)) {
              const at = (src ?? p.key) as Node | null;
              if (at?.range) out.push(at);
            }
        }
        walk(p.key as Node | null, depth + 1);
        walk(p.value as Node | null, depth + 1);
      }
    } else if (isSeq(n)) for (const it of n.items) walk(it as Node | null, depth + 1);
  };
  walk(doc.contents as Node | null, 0);
  return out;
}
