/**
 * The code names a workspace declares, with the files declaring each, and nothing else: what "did
 * you mean" (`nearNames`) and the code scope's filter of its candidates (which reads a declaration's
 * file only) need. A CLI check worker holds this for the whole run instead of every declaration
 * (cli/batchWorkspace.ts): at 10,000 files a few bytes per name, not the index's objects per name.
 * Declarations read from it carry the name and the file only (no range, category or details).
 */
import type { CodeDeclaration, WorkspaceCodes } from '../model/workspace';
import { NameTable, type WalkStats } from '../util/nameTable';

const NO_RANGE = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** The most words remembered as having no name near them (a run's distinct unknown codes; past that, each is walked). */
const MAX_FAR_WORDS = 10_000;
/** Longer words are not remembered (a stranger's file may hold a code name of megabytes; the memo stays small). */
const MAX_FAR_LENGTH = 256;

/**
 * `files`: each file's URI with the code names it declares (each file once). `stats` (tests) counts the
 * steps of every "did you mean" walk.
 */
export function createNameIndex(files: readonly (readonly [string, readonly string[]])[], stats?: WalkStats): WorkspaceCodes {
  const uris = files.map(([uri]) => uri);
  /** Name → the file (its position in `uris`) declaring it, or the files when several do, in order. */
  const holders = new Map<string, number | number[]>();
  files.forEach(([, names], i) => {
    for (const name of names) {
      const h = holders.get(name);
      if (h === undefined) holders.set(name, i);
      else if (typeof h === 'number') {
        if (h !== i) holders.set(name, [h, i]);
      } else if (h[h.length - 1] !== i) h.push(i);
    }
  });
  const table = new NameTable(
    () => holders.keys(),
    name => holders.has(name),
  );
  table.touchAll();
  const filesOf = (name: string): readonly number[] => {
    const h = holders.get(name);
    return h === undefined ? [] : typeof h === 'number' ? [h] : h;
  };
  /** Whether a name is declared by some file other than `except` (the index's rule: not by that file alone). */
  const elsewhere = (name: string, except: string | undefined) => {
    const h = holders.get(name)!;
    return except === undefined || typeof h !== 'number' || uris[h] !== except;
  };
  const declOf = (uri: string, code: string): CodeDeclaration => ({ uri, code, range: NO_RANGE, details: [], mapsFromHttp: [] });
  /**
   * Words with no declared name within "did you mean"'s bound, whatever the filter: the names never change,
   * so the answer for such a word is empty for every file and filter, without a walk. The walk that proves a
   * word far from every name is the costly one (it cannot stop early: every prefix within the bound is
   * followed), and a workspace repeats its mistakes (one misspelt code in many files).
   */
  const far = new Set<string>();
  const nearNames = (word: string, limit: number, except: string | undefined, accept: (name: string) => boolean): [string, number][] => {
    if (far.has(word)) return [];
    const found = table.nearest(word, limit, name => elsewhere(name, except) && accept(name), stats);
    // The bound depends on the word alone, so no name within it for any filter means none for this one either.
    if (!found.length && far.size < MAX_FAR_WORDS && word.length <= MAX_FAR_LENGTH && !table.nearest(word, 1, () => true, stats).length)
      far.add(word);
    return found;
  };
  return {
    declarations: (code, except) =>
      filesOf(code)
        .map(i => uris[i]!)
        .filter(u => u !== except)
        .map(u => declOf(u, code)),
    *allDeclarations(except) {
      for (const [uri, names] of files) if (uri !== except) for (const n of new Set(names)) yield declOf(uri, n);
    },
    *names(except, prefix) {
      const p = prefix?.toUpperCase() ?? '';
      for (const name of holders.keys())
        if ((!p || name.startsWith(p) || name.toUpperCase().startsWith(p)) && elsewhere(name, except)) yield name;
    },
    nearNames,
    occurrences: () => [],
  };
}
