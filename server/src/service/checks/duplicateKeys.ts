/**
 * yaml.duplicate-key, in O(n): one Set per mapping. Keys compare as strings, so `404:` and `"404":`
 * in error_mapping are the same status. The parser's own check is quadratic (peers.md s5.3).
 */
import { isAlias, isMap, isPair, isScalar, isSeq, type Node, type Scalar } from 'yaml';
import { Code } from '../codes';
import type { Section } from '../model/model';
import type { Check, Problem } from './types';

const MAX_DEPTH = 512;

export const duplicateKeys: Check = {
  name: 'duplicateKeys',
  run({ model }, emit) {
    for (const s of model.sections) walk(s, s.doc.contents as Node | null, 0, emit);
  },
};

/**
 * Subtrees known to hold no duplicate. A node object is reused by the incremental parse only while its
 * text is unchanged, so the answer stays true for as long as the node lives.
 */
const clean = new WeakSet<Node>();

/** The key as duplicates compare it: `5xx` reads as the range `5XX` (docs/spec-decisions.md), the same key. */
export const keyName = (k: Scalar): string =>
  typeof k.value === 'string' && /^[1-5]xx$/i.test(k.value) ? k.value.toUpperCase() : String(k.value);

/** yaml.duplicate-key under `node` (at `depth`); true when something was found. */
export function walk(s: Section, node: Node | null, depth: number, emit: (p: Problem) => void): boolean {
  if (!node || depth > MAX_DEPTH || isAlias(node)) return false;
  if (clean.has(node)) return false;
  let found = false;
  const report = (p: Problem) => {
    found = true;
    emit(p);
  };
  if (isMap(node)) {
    const seen = new Map<string, Node>();
    for (const pair of node.items) {
      const k = pair.key as Node | null;
      if (isScalar(k) && k.range) {
        const name = keyName(k);
        const first = seen.get(name);
        if (first?.range) {
          report(duplicateProblem(s, name, k.range, first.range));
        } else seen.set(name, k);
      }
      if (walk(s, pair.value as Node | null, depth + 1, emit)) found = true;
    }
  } else if (isSeq(node)) {
    for (const it of node.items) if (!isPair(it) && walk(s, it as Node | null, depth + 1, emit)) found = true;
  }
  if (!found && depth < MAX_DEPTH) clean.add(node);
  return found;
}

/** The yaml.duplicate-key problem of a key `name` at `at`, first defined at `first` (node ranges of section `s`). */
export function duplicateProblem(s: Section, name: string, at: readonly number[], first: readonly number[]): Problem {
  return {
    code: Code.YamlDuplicateKey,
    message: `Duplicate key '${name}': it is already defined on an earlier line; the later one silently wins in most loaders.`,
    start: s.base + at[0]!,
    end: s.base + at[1]!,
    data: { key: name, firstAt: s.base + first[0]! },
    related: [{ start: s.base + first[0]!, end: s.base + first[1]!, message: `first '${name}'` }],
  };
}
