/**
 * `a.map(f)` as a list made by `push`, so its elements kind is the same whoever calls it. The builtin
 * `Array.prototype.map` makes a packed array, but TurboFan's inlined copy of it makes a holey one: a list made by `map`
 * has one map while its maker runs interpreted and another once the maker is optimized, and a hot reader optimized in
 * between deoptimizes on the second ("wrong map"; bench/NOTES.md, "twelfth sitting: deopts in the hot path").
 * Same elements in the same order as `a.map(f)` on a list without holes.
 */
export function mapPacked<T, U>(a: readonly T[], f: (x: T) => U): U[] {
  const out: U[] = [];
  for (let i = 0; i < a.length; i++) out.push(f(a[i]!));
  return out;
}
