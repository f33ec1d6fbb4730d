/** What extraction reads of a node or a pair: a key's name, spans, a plain value, whether merges are resolved. */
import type { Node, Pair, YAMLMap } from 'yaml';
import type { Section, Span } from '../model/model';
import { hasMergeKey } from './aliases';
import { plainValue } from './plainValue';
import { isScalar } from './yamlNodes';

/** Tests only: `viaMerges` reads every mapping through `effectivePairs`, the path the merge-free one must equal. */
export const extractTesting = { viaMerges: false };

/** Whether `map`'s pairs are read with merges resolved: only when it has a merge key of its own. */
export const readsMerges = (map: YAMLMap): boolean => extractTesting.viaMerges || hasMergeKey(map);

export function keyString(pair: Pair): string | undefined {
  const v = isScalar(pair.key) ? pair.key.value : null;
  // A merge key `<<` (a symbol) is no key of its own: its pairs are read through effectivePairs.
  return v !== null && typeof v !== 'object' && typeof v !== 'symbol' ? String(v) : undefined;
}

/** A node's plain value; undefined when it cannot be built (a `<<` merging a non-mapping throws). */
export function toJSON(n: Node): unknown {
  try {
    return plainValue(n);
  } catch {
    return undefined;
  }
}

export const spanOf = (s: Section, n: Node): Span => ({ start: s.base + n.range![0], end: s.base + n.range![1] });

export function pairSpan(s: Section, p: Pair): Span {
  const k = p.key as Node | null,
    v = p.value as Node | null;
  const start = k?.range ? k.range[0] : (v?.range?.[0] ?? 0);
  const end = v?.range ? v.range[1] : k?.range ? k.range[1] : start;
  return { start: s.base + start, end: s.base + end };
}
