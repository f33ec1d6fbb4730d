/**
 * A copy of `s` that does not keep its parent string alive. V8 represents a slice of 13 or more
 * characters as a view into the whole parent; a cached slice of one version's 2 MB text would keep
 * that whole version in memory. Prepending a character makes a new string that V8 flattens into a copy
 * when sliced, so the result refers to that copy only (ten times cheaper than splitting and joining).
 */
export const flat = (s: string): string => (s.length < 13 ? s : (' ' + s).slice(1));

/** A list filled by push has room for 17 items: a list the model keeps is copied to its exact size. */
export const trimmed = <T>(a: T[]): T[] => (a.length ? a.slice() : a);

/**
 * The one empty list that kept lists share when they are empty (a chunk's extracted codes under error_mapping, a
 * template's malformed placeholders: a 14 MiB adapter held 200,000 empty lists of 32 bytes). Frozen: nothing adds to
 * a list the model keeps.
 */
const NONE: readonly never[] = Object.freeze([]);

/** `trimmed`, and the shared empty list for an empty one. */
export const kept = <T>(a: T[]): T[] => (a.length ? a.slice() : (NONE as unknown as T[]));
