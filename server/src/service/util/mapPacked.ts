/**
 * `a.map(f)` as a list that stays packed, so its elements kind is the same whoever calls it. The builtin
 * `Array.prototype.map` makes a packed array, but TurboFan's inlined copy of it makes a holey one: a list made by `map`
 * has one map while its maker runs interpreted and another once the maker is optimized, and a hot reader optimized in
 * between deoptimizes on the second ("wrong map"; bench/NOTES.md, "twelfth sitting: deopts in the hot path").
 * Same elements in the same order as `a.map(f)` on a list without holes.
 */
export function mapPacked<T, U>(a: readonly T[], f: (x: T) => U): U[] {
  // A copy of `a` written over, not a list grown by `push`: `slice` allocates exactly its length (a list grown from
  // empty by `push` gets room for 17 items, which the model's many short lists kept: 40 MB more at 1,000 files), and
  // keeps `a`'s elements kind, packed for the lists this is used on.
  const out = a.slice() as unknown as U[];
  for (let i = 0; i < out.length; i++) out[i] = f(a[i]!);
  return out;
}
