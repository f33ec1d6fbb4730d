/**
 * A value remembered per object (a document, a node, a model's list), kept on the object itself under a
 * private symbol, in place of a `WeakMap` keyed by it.
 *
 * Why not a WeakMap: V8's young-generation collector keeps the values of a WeakMap alive (only a full
 * collection looks at whether their key is still reachable). A value that reaches a file's tree (the
 * resolved pairs of a document, its alias targets, a model's codes by name) therefore made every file's
 * tree outlive it: in a CLI worker about 90 KB of each file's objects was promoted to the old
 * generation, and each young collection copied them first (bench/NOTES.md, "Workspace", 2026-11-26: 146 MB
 * promoted over 1,600 files with the WeakMap, 17 MB without). A property dies with its object, in any
 * collection.
 *
 * The stored record names its owner, so a copy of the object (yaml's `clone`, an object spread) does not
 * pass for the original; an object that cannot take a property (frozen, sealed) falls back to a WeakMap.
 * The value `true` (a verdict such as "no duplicate key under this node") is stored as the object itself,
 * which names its owner as well and costs no record (a 14 MiB adapter: 194,000 records, 8 MB).
 */
export class ObjectMemo<K extends object, V> {
  private readonly slot: symbol;
  private fallback?: WeakMap<K, V>;

  constructor(name: string) {
    this.slot = Symbol(name);
  }

  get(o: K): V | undefined {
    const r = (o as Record<symbol, { owner: K; value: V } | K | undefined>)[this.slot];
    if (r === o) return true as V;
    if (r && (r as { owner?: K }).owner === o) return (r as { value: V }).value;
    return this.fallback?.get(o);
  }

  set(o: K, value: V): void {
    if (Object.isExtensible(o)) {
      const record = value === true ? o : { owner: o, value };
      Object.defineProperty(o, this.slot, { value: record, writable: true, configurable: true, enumerable: false });
    } else (this.fallback ??= new WeakMap()).set(o, value);
  }
}
