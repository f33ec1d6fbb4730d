/**
 * A copy of `s` that does not keep its parent string alive. V8 represents a slice of 13 or more
 * characters as a view into the whole parent; a cached slice of one version's 2 MB text would keep
 * that whole version in memory. Prepending a character makes a new string that V8 flattens into a copy
 * when sliced, so the result refers to that copy only (ten times cheaper than splitting and joining).
 */
export const flat = (s: string): string => (s.length < 13 ? s : (' ' + s).slice(1));

/** A list filled by push has room for 17 items: a list the model keeps is copied to its exact size. */
export const trimmed = <T>(a: T[]): T[] => (a.length ? a.slice() : a);
