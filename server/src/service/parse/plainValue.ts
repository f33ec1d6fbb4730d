/**
 * A node's plain value, as `node.toJSON()` builds it, for the nodes a checked entry usually holds:
 * untagged mappings and lists, scalars of plain values, and keys that are such scalars. Anything else
 * (an alias, a merge key, a tag on a collection, a key that is a collection, a scalar holding some other
 * object) is left to `toJSON`, which stays the oracle (test/service/plainValue.test.ts). About three
 * times cheaper than `toJSON`, which passes every key and value through its generic conversion.
 */
import type { Node } from 'yaml';
import { isMap, isScalar, isSeq } from './yamlNodes';

/** What `plain` returns for a node it leaves to `toJSON`. */
export const OTHER = Symbol('other');

/** `node.toJSON()` (which may throw, as it does). */
export function plainValue(node: Node): unknown {
  const v = plain(node);
  return v === OTHER ? node.toJSON() : v;
}

/** The node's plain value, or OTHER for a node `toJSON` has to convert. */
export function plain(n: unknown): unknown {
  if (n === null || n === undefined) return n;
  if (isScalar(n)) {
    const v = n.value;
    if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
    return typeof v === 'bigint' ? Number(v) : OTHER;
  }
  if (isMap(n)) {
    if (n.tag !== undefined) return OTHER;
    const o: Record<string, unknown> = {};
    for (const p of n.items) {
      const k = p.key;
      let name: string;
      if (k === null || k === undefined) name = '';
      else {
        // A merge key (`<<`: a symbol) has its own conversion; a collection as a key is stringified.
        if (!isScalar(k)) return OTHER;
        const kv = plain(k);
        if (kv === OTHER) return OTHER;
        name = kv === null ? '' : String(kv);
      }
      const v = plain(p.value);
      if (v === OTHER) return OTHER;
      // yaml defines a key already there (a duplicate, an inherited name); only `__proto__` would assign otherwise.
      if (name === '__proto__') Object.defineProperty(o, name, { value: v, writable: true, enumerable: true, configurable: true });
      else o[name] = v;
    }
    return o;
  }
  if (isSeq(n)) {
    if (n.tag !== undefined) return OTHER;
    const a: unknown[] = [];
    for (const it of n.items) {
      const v = plain(it);
      if (v === OTHER) return OTHER;
      a.push(v);
    }
    return a;
  }
  return OTHER;
}
