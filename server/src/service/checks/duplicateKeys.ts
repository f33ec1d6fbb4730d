/**
 * yaml.duplicate-key, in O(n): one Set per mapping. Keys compare as strings, so `404:` and `"404":`
 * in error_mapping are the same status. The parser's own check is quadratic (peers.md s5.3).
 */
import type { Node, Scalar } from 'yaml';
import { isAlias, isMap, isPair, isScalar, isSeq } from '../parse/yamlNodes';
import { Code } from '../codes';
import type { Section } from '../model/model';
import { ObjectMemo } from '../util/objectMemo';
import type { Check, Problem } from './types';

const MAX_DEPTH = 512;

export const duplicateKeys: Check = {
  name: 'duplicateKeys',
  run({ model }, emit) {
    // Only a model parsed in chunks hands its nodes to a later parse: another's clean subtrees are not worth remembering.
    const remember = model.parseState !== undefined;
    for (const s of model.sections) walk(s, s.doc.contents as Node | null, 0, emit, remember);
  },
};

/**
 * Subtrees known to hold no duplicate. A node object is reused by the incremental parse only while its
 * text is unchanged, so the answer stays true for as long as the node lives.
 */
const clean = new ObjectMemo<Node, true>('noDuplicateKeys');

/** The key as duplicates compare it: `5xx` reads as the range `5XX` (docs/spec-decisions.md), the same key. */
export const keyName = (k: Scalar): string =>
  typeof k.value === 'string' && k.value.length === 3 && /^[1-5]xx$/i.test(k.value) ? k.value.toUpperCase() : String(k.value);

/** Mappings with at most this many keys compare their keys pairwise (no Map to allocate). */
const SMALL = 8;
/** The names of a small mapping's keys so far, per depth. */
const scratch: (string | undefined)[][] = [];

/**
 * yaml.duplicate-key under `node` (at `depth`); true when something was found. Only collections are
 * walked and remembered as clean (when `remember`): a scalar cannot hold a duplicate, so it costs no entry.
 */
export function walk(s: Section, node: Node | null, depth: number, emit: (p: Problem) => void, remember = true): boolean {
  if (!node || depth > MAX_DEPTH || isAlias(node) || isScalar(node)) return false;
  if (remember && clean.get(node)) return false;
  let found = false;
  if (isMap(node)) {
    const items = node.items;
    if (items.length <= SMALL) {
      // One list per depth, reused: the walk below this mapping uses deeper ones only.
      const names = (scratch[depth] ??= new Array<string | undefined>(SMALL));
      for (let i = 0; i < items.length; i++) {
        const k = items[i]!.key as Node | null;
        let name: string | undefined;
        if (isScalar(k) && k.range) {
          name = keyName(k);
          let j = 0;
          while (j < i && names[j] !== name) j++;
          const first = j < i ? (items[j]!.key as Scalar) : undefined;
          if (first?.range) {
            found = true;
            emit(duplicateProblem(s, name, k.range, first.range));
            name = undefined;
          }
        }
        names[i] = name;
        if (walk(s, items[i]!.value as Node | null, depth + 1, emit, remember)) found = true;
      }
      names.fill(undefined, 0, items.length); // no key string (maybe a slice of the text) outlives the walk
    } else {
      const seen = new Map<string, Node>();
      for (const pair of items) {
        const k = pair.key as Node | null;
        if (isScalar(k) && k.range) {
          const name = keyName(k);
          const first = seen.get(name);
          if (first?.range) {
            found = true;
            emit(duplicateProblem(s, name, k.range, first.range));
          } else seen.set(name, k);
        }
        if (walk(s, pair.value as Node | null, depth + 1, emit, remember)) found = true;
      }
    }
  } else if (isSeq(node)) {
    for (const it of node.items) if (!isPair(it) && walk(s, it as Node | null, depth + 1, emit, remember)) found = true;
  }
  if (!found && remember && depth < MAX_DEPTH) clean.set(node, true);
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
