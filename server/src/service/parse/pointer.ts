/** JSON pointer → YAML node, comparing keys as strings (`404:` is a number key, the pointer says "404"). */
import type { Node } from 'yaml';
import { isAlias, isMap, isScalar, isSeq } from './yamlNodes';

interface PointerHit {
  readonly node?: Node;
  readonly key?: Node;
  /**
   * When the path cannot be followed to its end (it runs through an alias `*x`, whose target is
   * elsewhere in the document): the deepest node on the path, to report there rather than nowhere.
   */
  readonly reached?: Node;
}

export function nodeAt(root: Node | null | undefined, pointer: string): PointerHit {
  let cur: Node | null | undefined = root;
  let key: Node | undefined;
  if (pointer === '') return { node: cur ?? undefined };
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (isMap(cur)) {
      const pair = cur.items.find(p => isScalar(p.key) && String(p.key.value) === seg);
      if (!pair) return { reached: cur };
      key = pair.key as Node;
      cur = pair.value as Node | null;
    } else if (isSeq(cur)) {
      key = undefined;
      const next = cur.items[Number(seg)] as Node | null | undefined;
      if (next === undefined) return { reached: cur };
      cur = next;
    } else return { reached: isAlias(cur) ? cur : (key ?? cur ?? undefined) };
  }
  return { node: cur ?? undefined, key };
}
