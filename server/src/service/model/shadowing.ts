/**
 * Shadowed statuses (docs/spec-decisions.md, "Shadowed statuses"). In the order the simulator follows
 * ("Simulator order"), the error_mapping entries of the exact status, then of its 4XX/5XX range, are tried
 * first; an error_codes entry with a condition is tried before the first of them without a condition, a
 * code without a condition only after all of them. So a status in the maps_from_http of a code without a
 * condition is never answered by that code when its YAML document's error_mapping has an entry with a
 * code and no condition for that status or its range — unless that entry gives the same code.
 */
import type { CodeDef, MappingEntry, StatusRef } from './model';

/** The first error_mapping entry with a code and no condition, per document and status key (`0:404`, `0:5XX`). */
export type CatchAlls = ReadonlyMap<string, MappingEntry>;

export function catchAlls(mappings: readonly MappingEntry[]): CatchAlls {
  const out = new Map<string, MappingEntry>();
  for (const m of mappings) {
    if (!m.status.valid || !m.code || m.condition) continue;
    const k = `${m.section}:${String(m.status.value)}`;
    if (!out.has(k)) out.set(k, m);
  }
  return out;
}

/** The range key of a status: `5XX` for 503 (a range is its own). */
export const rangeOf = (value: number | string): string => (typeof value === 'number' ? `${Math.floor(value / 100)}XX` : value);

/** The error_mapping entry that always answers `status` before `code` is tried, or undefined when the code can answer it. */
export function shadowingEntry(code: CodeDef, status: StatusRef, all: CatchAlls): MappingEntry | undefined {
  if (code.condition || !status.valid || !all.size) return undefined;
  const m = all.get(`${code.section}:${String(status.value)}`) ?? all.get(`${code.section}:${rangeOf(status.value)}`);
  return m && m.code!.value !== code.name ? m : undefined;
}
