/**
 * Aliases (`*ref`) and merge keys (`<<: *base`, as the `yaml` package reads them with `merge: true`)
 * for extraction: what a node stands for, and the pairs a mapping holds once its merges are applied.
 * Nothing is expanded or copied: an alias resolves to its anchored node (so positions point at the
 * anchored source), and whatever is reached through an alias, or is an anchored node some alias uses,
 * is marked `shared`: editing it would change the anchor's other users. Resolution is one walk per
 * document (cached).
 */
import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type Node, type Pair, type YAMLMap } from 'yaml';

/** Alias node → the node its anchor names (the last one before it); anchored node → itself when used. */
const targets = new WeakMap<Document, Map<Node, Node | undefined>>();

const MAX_DEPTH = 64;

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

export interface Reached {
  readonly pair: Pair;
  /** Reached through an alias: editing it changes the anchor's other users. */ readonly shared: boolean;
}

const keyOf = (p: Pair): string | undefined =>
  isScalar(p.key) && p.key.value !== null && typeof p.key.value !== 'object' && typeof p.key.value !== 'symbol'
    ? String(p.key.value)
    : undefined;

/**
 * The pairs `map` holds with its merge keys applied (YAML merge-key semantics): its own pairs first,
 * then each merged mapping's pairs whose key is not already there (an earlier source wins over a
 * later one). Merge sources that are not mappings are skipped here (`badMerges` reports them).
 */
export function effectivePairs(doc: Document, map: YAMLMap, shared = false, depth = 0): Reached[] {
  const out: Reached[] = [];
  let merges: Pair[] | undefined;
  for (const p of map.items) {
    if (isMergeKey(p)) (merges ??= []).push(p);
    else out.push({ pair: p, shared });
  }
  if (!merges || depth > MAX_DEPTH) return out;
  const seen = new Set<string>();
  for (const r of out) {
    const k = keyOf(r.pair);
    if (k !== undefined) seen.add(k);
  }
  for (const m of merges) {
    const v = m.value as Node | null;
    for (const src of isSeq(v) ? v.items : [v]) {
      const d = deref(doc, src);
      if (!isMap(d.node)) continue;
      for (const r of effectivePairs(doc, d.node, shared || d.shared, depth + 1)) {
        const k = keyOf(r.pair);
        if (k !== undefined && seen.has(k)) continue;
        if (k !== undefined) seen.add(k);
        out.push(r);
      }
    }
  }
  return out;
}

/** Merge keys whose value is not a mapping, an alias of one, or a list of those: (the offending node). */
export function badMerges(doc: Document): Node[] {
  const out: Node[] = [];
  const walk = (n: Node | null | undefined, depth: number): void => {
    if (!n || depth > 1000 || isAlias(n)) return;
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
