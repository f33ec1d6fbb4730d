/**
 * Does a section's document hold an alias (`*name`) or a merge key (`<<`)? Only then does the alias
 * budget have anything to check, and only then is the schema validated on the whole document; a `*`
 * inside a string does not count. Subtrees found free of both are remembered per node (a node is
 * reused by the incremental parse only while its text is unchanged), so a keystroke looks at the
 * edited entry and the top-level lists.
 */
import type { Node } from 'yaml';
import { isAlias, isMap, isPair, isScalar, isSeq } from '../parse/yamlNodes';
import type { Section } from '../model/model';
import { ObjectMemo } from '../util/objectMemo';
import { isHollow } from '../parse/hollow';
import { sourceText } from '../util/pieceText';

const MAX_DEPTH = 1000;
const free = new ObjectMemo<Node, true>('noAliases');
/** The answer per document root (the alias check and the schema check both ask). */
const known = new ObjectMemo<Node, boolean>('holdsAliases');

const isMergeKey = (k: unknown): boolean => isScalar(k) && (k.value === '<<' || typeof k.value === 'symbol');

function holds(n: Node | null | undefined, depth: number): boolean {
  if (!n) return false;
  if (isAlias(n)) return true;
  // A hollow entry (parse/hollow.ts) comes from a chunk without `&` or `*` in a text without `<<` or `!`: neither.
  if (free.get(n) || isHollow(n)) return false;
  if (depth > MAX_DEPTH) return true; // too deep to tell: take the careful path
  let found = false;
  if (isMap(n) || isSeq(n)) {
    for (const it of n.items) {
      if (isPair(it)) {
        if (isMergeKey(it.key) || holds(it.key as Node | null, depth + 1) || holds(it.value as Node | null, depth + 1)) {
          found = true;
          break;
        }
      } else if (holds(it as Node | null, depth + 1)) {
        found = true;
        break;
      }
    }
  }
  if (!found) free.set(n, true);
  return found;
}

/**
 * True when the section's text holds a `*` and its document an alias or a merge key (a `*` inside a
 * string alone does not count; a section without `*` never does, as before).
 */
export function hasAliasNodes(s: Section): boolean {
  const root = s.doc.contents as Node | null;
  if (!root) return false;
  let answer = known.get(root);
  if (answer === undefined) known.set(root, (answer = sourceText(s).includes('*') && holds(root, 0)));
  return answer;
}
