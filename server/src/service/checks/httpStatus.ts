/**
 * http.invalid-status and http.category-mismatch: statuses of error_mapping keys and maps_from_http
 * items; a status outside the HTTP range of its code's category (error-codes.md s3.2) is information.
 */
import { Code } from '../codes';
import type { CodeDef, MappingEntry, StatusRef } from '../model/model';
import { statusInCategory, type RegistryIndex } from '../model/registry';
import { categoryOf, createResolver } from '../workspace/resolve';
import type { Check, Problem, Resolver } from './types';

export const httpStatus: Check = {
  name: 'httpStatus',
  run({ model, registry, workspace }, emit) {
    const resolver = createResolver(model.codes, registry, workspace, model.uri);
    // A status shared through an alias is reported once (runChecks would fold the repeats anyway).
    const seen = new Set<StatusRef>();
    const first = (s: StatusRef) => !seen.has(s) && seen.add(s) !== undefined;
    for (const c of model.codes) codeStatusProblems(c, registry, emit, first);
    const mismatchSeen = new Set<string>();
    for (const m of model.mappings) mappingStatusProblems(m, registry, resolver, emit, first, mismatchSeen);
  },
};

const invalid = (s: StatusRef, where: string, emit: (p: Problem) => void, first: (s: StatusRef) => boolean) => {
  if (s.valid || !first(s)) return;
  emit({
    code: Code.HttpInvalidStatus,
    start: s.span.start,
    end: s.span.end,
    message: `'${s.raw}' is not an HTTP status (${where}: an integer 100–599, or a 4XX / 5XX range).`,
  });
};

/** http.* of one error_codes entry's maps_from_http: reads the entry and the registry. */
export function codeStatusProblems(c: CodeDef, registry: RegistryIndex, emit: (p: Problem) => void, first = (_: StatusRef) => true): void {
  const cat = categoryOf(c);
  for (const s of c.mapsFromHttp) {
    invalid(s, 'maps_from_http', emit, first);
    if (s.valid && cat) mismatch(registry, cat, s, c.name, emit);
  }
}

/** http.* of one error_mapping entry: reads the entry and the category of the code it resolves to. */
export function mappingStatusProblems(
  m: MappingEntry,
  registry: RegistryIndex,
  resolver: Resolver,
  emit: (p: Problem) => void,
  first = (_: StatusRef) => true,
  mismatchSeen = new Set<string>(),
): void {
  invalid(m.status, 'error_mapping key', emit, first);
  const name = m.code?.value;
  if (!m.status.valid || !name) return;
  const r = resolver.code(name);
  const cat = r?.category?.replace(/_$/, '');
  // A list entry is reported on its own `code:`; a single entry on its status key.
  if (cat && m.index !== null && m.code) {
    mismatch(registry, cat, m.status, name, emit, m.code.span);
    return;
  }
  const key = `${m.status.span.start}:${name}`;
  if (cat && !mismatchSeen.has(key)) {
    mismatchSeen.add(key);
    mismatch(registry, cat, m.status, name, emit);
  }
}

function mismatch(
  registry: RegistryIndex,
  category: string,
  s: StatusRef,
  code: string,
  emit: (p: Problem) => void,
  at: { start: number; end: number } = s.span,
): void {
  const cat = registry.category(category);
  if (!cat) return;
  if (typeof s.value === 'number' ? statusInCategory(cat, s.value) : someInHundred(cat, Number(String(s.value)[0]) * 100)) return;
  const range = cat.http_range.length
    ? cat.http_range.join('/')
    : cat.http_range_min !== undefined
      ? `${cat.http_range_min}+`
      : 'none (generator-time only)';
  emit({
    code: Code.HttpCategoryMismatch,
    start: at.start,
    end: at.end,
    message: `${s.raw} is outside the HTTP range of category ${cat.name} (${range}, error-codes.md s3.2) that ${code} belongs to.`,
  });
}

/** Whether a status of the hundred from `first` (a range key: 5XX) is in the category's range. */
function someInHundred(cat: Parameters<typeof statusInCategory>[0], first: number): boolean {
  for (let st = first; st < first + 100; st++) if (statusInCategory(cat, st)) return true;
  return false;
}
