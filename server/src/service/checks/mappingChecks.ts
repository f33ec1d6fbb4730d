/**
 * mapping.unknown-code, mapping.warning-code, mapping.unreachable-entry, mapping.precedence,
 * mapping.shadowed-status: what error_mapping entries point at and how they compete.
 */
import { Code, type UnknownCodeData } from '../codes';
import type { AdapterModel, CodeDef, MappingEntry } from '../model/model';
import type { RegistryIndex } from '../model/registry';
import { catchAlls, shadowingEntry } from '../model/shadowing';
import type { WorkspaceCodes } from '../model/workspace';
import { createResolver, firstDeclaration } from '../workspace/resolve';
import type { Check, Problem, Resolver } from './types';

const statusKey = (m: MappingEntry) => String(m.status.value);
const fileName = (uri: string) => decodeURIComponent(uri.replace(/^.*\//, ''));

export const mappings: Check = {
  name: 'mappings',
  run({ model, registry, workspace }, emit) {
    const resolver = createResolver(model.codes, registry, workspace, model.uri);
    const near = suggestCodes(resolver, registry);
    for (const m of model.mappings) mappingCodeProblems(m, resolver, near, workspace, model.uri, emit);
    unreachableEntries(model, emit);
    // Each YAML document is an adapter of its own (docs/spec-decisions.md): a status is claimed within one.
    if (model.sections.length < 2) {
      const claimed = claimedStatuses(model.codes);
      precedence(model.mappings, k => claimed.get(k), emit);
    } else
      for (const sec of model.sections) {
        const claimed = claimedStatuses(model.codes.filter(c => c.section === sec.index));
        precedence(
          model.mappings.filter(m => m.section === sec.index),
          k => claimed.get(k),
          emit,
        );
      }
    shadowedStatuses(model, emit);
  },
};

/**
 * A maps_from_http status that an error_mapping entry for its range answers first, always
 * (model/shadowing.ts). A status the error_mapping has a key for is mapping.precedence's (one fact, one
 * diagnostic): only the range case is reported here.
 */
export function shadowedStatuses(model: AdapterModel, emit: (p: Problem) => void): void {
  if (!model.mappings.length) return;
  const all = catchAlls(model.mappings);
  if (!all.size) return;
  for (const c of model.codes)
    for (const s of c.mapsFromHttp) {
      const m = shadowingEntry(c, s, all);
      if (!m || m.status.value === s.value) continue;
      emit({
        code: Code.MappingShadowedStatus,
        start: s.span.start,
        end: s.span.end,
        message: `Never used: error_mapping[${m.status.raw}] has no condition and answers every ${s.raw} first, so ${c.name} never gets ${s.raw} (an error_codes entry without a condition is tried after error_mapping). Give ${c.name} a condition, map ${s.raw} to it in error_mapping, or remove ${s.raw}.`,
        related: [{ start: m.status.span.start, end: m.status.span.end, message: `error_mapping[${m.status.raw}] answers first` }],
        data: { code: c.name, status: s.raw },
      });
    }
}

/** A status claimed by maps_from_http: where, and by which code. */
export interface Claim {
  readonly start: number;
  readonly end: number;
  readonly code: string;
}

/** "Did you mean" for an unknown code: the three nearest known names, warning codes left out. */
export const suggestCodes =
  (resolver: Resolver, registry: RegistryIndex) =>
  (word: string): string[] =>
    resolver.nearest(word, 3, n => registry.byCode.get(n)?.kind !== 'warning');

/** mapping.unknown-code and mapping.warning-code of one entry: reads the entry and what its code resolves to. */
export function mappingCodeProblems(
  m: MappingEntry,
  resolver: Resolver,
  near: (word: string) => string[],
  workspace: WorkspaceCodes,
  uri: string,
  emit: (p: Problem) => void,
): void {
  const code = m.code;
  if (!code) return;
  const r = resolver.code(code.value);
  if (!r) {
    const suggestions = near(code.value);
    const outside = firstDeclaration(workspace.outsideScope?.(code.value, uri) ?? []);
    emit({
      code: Code.MappingUnknownCode,
      start: code.span.start,
      end: code.span.end,
      message: outside
        ? `'${code.value}' is declared in ${fileName(outside.uri)}, outside this file's code scope (mcpAql.codeScope); declare it here or widen the scope.`
        : `${suggestions.length ? `Did you mean ${suggestions[0]}? ` : ''}'${code.value}' is neither a registry code nor declared in error_codes.`,
      data: { code: code.value, suggestions, entryAt: m.status.span.start, index: m.index } satisfies UnknownCodeData,
    });
  } else if (r.kind === 'warning') {
    emit({
      code: Code.MappingWarningCode,
      start: code.span.start,
      end: code.span.end,
      message: `${code.value} is a warning code: warnings travel in successful responses (warnings.md s2.3), never as the error of a failed upstream call.`,
    });
  }
}

/** Lists (ours): first matching entry wins, so anything after an unconditional entry never fires. */
export function unreachableEntries(model: AdapterModel, emit: (p: Problem) => void): void {
  const byStatus = new Map<string, MappingEntry[]>();
  for (const m of model.mappings) {
    const k = `${m.section}:${m.status.span.start}`;
    const list = byStatus.get(k);
    if (list) list.push(m);
    else byStatus.set(k, [m]);
  }
  for (const list of byStatus.values()) {
    let catchAll: MappingEntry | undefined;
    const seenConditions = new Map<string, MappingEntry>();
    for (const m of list) {
      const earlier = catchAll ?? (m.condition ? seenConditions.get(m.condition.value.trim()) : undefined);
      if (earlier) {
        const first = m.node?.items[0]?.key as { range?: [number, number, number] } | undefined;
        const base = first?.range ? model.sections.find(s => s.index === m.section)!.base : 0;
        const at = first?.range ? { start: base + first.range[0], end: base + first.range[1] } : m.entrySpan;
        emit({
          code: Code.MappingUnreachableEntry,
          start: at.start,
          end: at.end,
          message: catchAll
            ? `Never used: an earlier entry for ${m.status.raw} has no condition and always matches first.`
            : `Never used: an earlier entry for ${m.status.raw} has the same condition and matches first.`,
          related: [{ start: earlier.entrySpan.start, end: earlier.entrySpan.start, message: 'the entry that matches first' }],
        });
        continue;
      }
      if (!m.condition) catchAll = m;
      else seenConditions.set(m.condition.value.trim(), m);
    }
  }
}

/** The statuses each code claims in maps_from_http, by status, in the order of the codes. */
export function claimedStatuses(codes: readonly CodeDef[]): Map<string, Claim[]> {
  const claimed = new Map<string, Claim[]>();
  for (const c of codes)
    for (const s of c.mapsFromHttp) {
      const k = String(s.value);
      const list = claimed.get(k) ?? [];
      list.push({ start: s.span.start, end: s.span.end, code: c.name });
      claimed.set(k, list);
    }
  return claimed;
}

/** Precedence between error_mapping and maps_from_http (digest C-35). */
export function precedence(
  mappings: readonly MappingEntry[],
  claimed: (status: string) => readonly Claim[] | undefined,
  emit: (p: Problem) => void,
): void {
  const reported = new Set<number>();
  for (const m of mappings) {
    const others = claimed(statusKey(m));
    if (!others || reported.has(m.status.span.start)) continue;
    reported.add(m.status.span.start);
    emit({
      code: Code.MappingPrecedence,
      start: m.status.span.start,
      end: m.status.span.end,
      message: `${m.status.raw} is claimed by error_mapping and by maps_from_http of ${[...new Set(others.map(o => o.code))].join(', ')}; the spec defines no precedence. Ours: error_mapping entries in order, except that an error_codes entry whose condition holds comes before an unconditional error_mapping entry; then the default table.`,
      related: others.map(o => ({ start: o.start, end: o.end, message: `maps_from_http of ${o.code}` })),
    });
  }
}
