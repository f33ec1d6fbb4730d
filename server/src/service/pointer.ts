/** JSON pointer → YAML node, comparing keys as strings (`404:` is a number key, the pointer says "404"). */
import { isMap, isScalar, isSeq, type Node } from 'yaml';

export interface PointerHit { readonly node?: Node; readonly key?: Node }

export function nodeAt(root: Node | null | undefined, pointer: string): PointerHit {
  let cur: Node | null | undefined = root;
  let key: Node | undefined;
  if (pointer === '') return { node: cur ?? undefined };
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (isMap(cur)) {
      const pair = cur.items.find(p => isScalar(p.key) && String(p.key.value) === seg);
      if (!pair) return {};
      key = pair.key as Node;
      cur = pair.value as Node | null;
    } else if (isSeq(cur)) {
      key = undefined;
      cur = cur.items[Number(seg)] as Node | null;
    } else return {};
  }
  return { node: cur ?? undefined, key };
}
