/**
 * The code names completion offers for a typed prefix, without sorting or copying every name: registry
 * codes first (in registry order), then this file's codes and other files' codes. When more than
 * `limit` names match, the answer is the registry codes and then the smallest other names (by code
 * unit order), `limit` in all, and `truncated` is set; otherwise every match in that order. The work
 * is one pass over the names that start with the prefix, keeping at most `limit + 1` of them.
 */
import type { CodeDef } from '../model/model';
import type { RegistryIndex } from '../model/registry';
import type { WorkspaceCodes } from '../model/workspace';

export interface CodeNameChoices {
  readonly names: string[];
  readonly truncated: boolean;
}

/** `typed` is upper case; a name matches when its upper-case form starts with it. */
const matches = (n: string, typed: string): boolean =>
  !typed || n.startsWith(typed) || (n.length > 0 && n[0]!.toUpperCase() === typed[0] && n.toUpperCase().startsWith(typed));

/** A sequential (flat) copy of a string, whatever V8 made of it. */
const flatCopy = (s: string): string => s.split('').join('');

/** Index of the first element of sorted `xs` that is not below `x`. */
function lowerBound(xs: readonly string[], x: string): number {
  let lo = 0,
    hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function codeNameChoices(
  typed: string,
  codes: readonly CodeDef[],
  registry: RegistryIndex,
  workspace: WorkspaceCodes,
  uri: string,
  limit: number,
): CodeNameChoices {
  const reg: string[] = [];
  for (const [name, c] of registry.byCode) if (c.kind !== 'warning' && matches(name, typed)) reg.push(name);
  const room = Math.max(0, limit - reg.length);
  // Until more than `room` other names match: every one, in order of appearance. After that: the
  // `room` smallest, sorted (`kept`), with `seen` holding exactly the names in `kept`.
  let kept: string[] = [];
  const seen = new Set<string>();
  let over = false;
  // The largest kept name once over, as a flat string: V8 compares two slices of a text several times
  // slower than a slice with a flat string, and most names are compared with it once and dropped.
  let max = '';
  const offer = (n: string) => {
    if (over) {
      if (!room || n >= max || !matches(n, typed) || seen.has(n) || registry.byCode.has(n)) return;
      kept.splice(lowerBound(kept, n), 0, n);
      seen.add(n);
      seen.delete(kept.pop()!);
      max = flatCopy(kept[room - 1]!);
      return;
    }
    if (!matches(n, typed) || seen.has(n) || registry.byCode.has(n)) return;
    kept.push(n);
    seen.add(n);
    if (kept.length <= room) return;
    over = true;
    kept.sort();
    for (const x of kept.splice(room)) seen.delete(x);
    if (room) max = flatCopy(kept[room - 1]!);
  };
  for (const c of codes) offer(c.name);
  if (workspace.names) for (const n of workspace.names(uri, typed)) offer(n);
  else for (const d of workspace.allDeclarations(uri)) offer(d.code);
  if (reg.length > limit) return { names: reg.slice(0, limit), truncated: true };
  if (over) return { names: [...reg, ...kept], truncated: true };
  kept = [...reg, ...kept];
  return { names: kept, truncated: false };
}
