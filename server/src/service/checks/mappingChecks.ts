/**
 * mapping.unknown-code, mapping.warning-code, mapping.unreachable-entry, mapping.precedence:
 * what error_mapping entries point at and how they compete.
 */
import { Code, type UnknownCodeData } from '../codes';
import { closest } from '../util/closest';
import type { MappingEntry } from '../model/model';
import { createResolver, firstDeclaration } from '../workspace/resolve';
import type { Check } from './types';

const statusKey = (m: MappingEntry) => String(m.status.value);
const fileName = (uri: string) => decodeURIComponent(uri.replace(/^.*\//, ''));

export const mappings: Check = {
  name: 'mappings',
  run({ model, registry, workspace }, emit) {
    const resolver = createResolver(model.codes, registry, workspace, model.uri);
    let names: string[] | undefined;
    for (const m of model.mappings) {
      const code = m.code;
      if (!code) continue;
      const r = resolver.code(code.value);
      if (!r) {
        names ??= resolver.allNames().filter(n => registry.byCode.get(n)?.kind !== 'warning');
        const suggestions = closest(code.value, names, 3);
        const outside = firstDeclaration(workspace.outsideScope?.(code.value, model.uri) ?? []);
        emit({
          code: Code.MappingUnknownCode,
          start: code.span.start,
          end: code.span.end,
          message: outside
            ? `'${code.value}' is declared in ${fileName(outside.uri)}, outside this file's code scope (mcpAql.codeScope); declare it here or widen the scope.`
            : `'${code.value}' is neither a registry code nor declared in error_codes${suggestions.length ? `. Did you mean ${suggestions[0]}?` : '.'}`,
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
    // Lists (ours): first matching entry wins, so anything after an unconditional entry never fires.
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
        const first = m.node?.items[0]?.key as { range?: [number, number, number] } | undefined;
        const at = first?.range
          ? {
              start: model.sections.find(s => s.index === m.section)!.base + first.range[0],
              end: model.sections.find(s => s.index === m.section)!.base + first.range[1],
            }
          : m.entrySpan;
        const earlier = catchAll ?? (m.condition ? seenConditions.get(m.condition.value.trim()) : undefined);
        if (earlier) {
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
    // Precedence between error_mapping and maps_from_http (digest C-35).
    const claimed = new Map<string, { start: number; end: number; code: string }[]>();
    for (const c of model.codes)
      for (const s of c.mapsFromHttp) {
        const k = String(s.value);
        const list = claimed.get(k) ?? [];
        list.push({ start: s.span.start, end: s.span.end, code: c.name });
        claimed.set(k, list);
      }
    const reported = new Set<number>();
    for (const m of model.mappings) {
      const others = claimed.get(statusKey(m));
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
  },
};
