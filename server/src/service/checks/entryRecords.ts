/**
 * The per-entry part of the checks, cached per entry object. The incremental parse keeps an unchanged
 * entry's CodeDef / MappingEntry object (its spans moved to the current offsets), so a record made for
 * that object stays true while what else it read is unchanged: the operation parameters a template
 * named (by value), and for a mapping the object its code resolves to (this file's CodeDef, the
 * registry's code, another file's declaration). Problems are kept with the entry's start at the time
 * and moved (relocate.ts) when the entry moved. Lists are matched by object identity from both ends,
 * so a keystroke computes the records of the edited entries only.
 */
import type { CodeDef, MappingEntry, OperationParam } from '../model/model';
import type { RegistryIndex } from '../model/registry';
import type { WorkspaceCodes } from '../model/workspace';
import { resolveIn } from '../workspace/resolve';
import { codeNameProblems } from './codeNameChecks';
import { conditionProblems } from './conditionChecks';
import { codeStatusProblems, mappingStatusProblems } from './httpStatus';
import { mappingCodeProblems } from './mappingChecks';
import { allWithin, shiftAll } from './relocate';
import { codeTemplateProblems, mappingTemplateProblems } from './templateChecks';
import type { EntryEnv, Problem, Resolver } from './types';

/** Slots, in the order of the checks that own them. */
export const Slot = { CodeNames: 0, Templates: 1, Http: 2, Mappings: 3, Conditions: 4 } as const;
const SLOTS = 5;
const NONE: readonly Problem[] = Object.freeze([]);

export interface EntryRecord<E> {
  readonly entry: E;
  /** entrySpan.start when the problems were last placed. */
  base: number;
  slots: (readonly Problem[])[];
  /** No problem in any slot (nothing to move or emit). */
  readonly empty: boolean;
  /** Operation parameters read (name → what was found), when any. */
  readonly params?: ReadonlyMap<string, string>;
  /** Mapping entries: what the code resolved to (undefined: unknown, or no code). */
  readonly target?: object;
  /** Mapping entries whose code resolves to nothing: mapping.unknown-code is computed per validation. */
  readonly unknown?: boolean;
  /** Some offset lies outside the entry (a list entry's status key, an alias's source): recomputed per validation. */
  readonly pinned?: boolean;
}

/** Does every offset of the record lie inside its entry, so the whole record moves with it? */
const movesWithEntry = (slots: readonly (readonly Problem[])[], span: { start: number; end: number }): boolean =>
  slots.every(s => allWithin(s, span.start, span.end));

const paramSig = (p: OperationParam | undefined): string => (p ? `${p.operation}\u0000${p.type ?? ''}` : '');

/** What a code name resolves to, as an object whose identity changes when the answer does. */
export function targetOf(resolver: Resolver, name: string | undefined): object | undefined {
  if (name === undefined) return undefined;
  const r = resolver.code(name);
  return r === undefined ? undefined : r.source === 'file' ? r.def : r.source === 'registry' ? r.reg : r.decl;
}

/** The env with parameter reads recorded. */
function recording(env: EntryEnv): { env: EntryEnv; reads: Map<string, string> } {
  const reads = new Map<string, string>();
  return {
    reads,
    env: {
      ...env,
      param: name => {
        const p = env.param(name);
        reads.set(name, paramSig(p));
        return p;
      },
    },
  };
}

function newSlots(): Problem[][] {
  return Array.from({ length: SLOTS }, () => []);
}

const isEmpty = (slots: Problem[][]): boolean => slots.every(s => s.length === 0);

/** Shared by every record without problems (most of them), which is never moved. */
const EMPTY_SLOTS: readonly (readonly Problem[])[] = Object.freeze(Array.from({ length: SLOTS }, () => NONE));

function compact(slots: Problem[][]): (readonly Problem[])[] {
  return isEmpty(slots) ? (EMPTY_SLOTS as (readonly Problem[])[]) : slots.map(s => (s.length ? s : NONE));
}

export function codeRecord(c: CodeDef, env: EntryEnv): EntryRecord<CodeDef> {
  const slots = newSlots();
  const { env: e, reads } = recording(env);
  codeNameProblems(c, env.registry, p => slots[Slot.CodeNames]!.push(p));
  codeTemplateProblems(c, e, p => slots[Slot.Templates]!.push(p));
  codeStatusProblems(c, env.registry, p => slots[Slot.Http]!.push(p));
  if (c.condition) conditionProblems(c.condition, p => slots[Slot.Conditions]!.push(p));
  const pinned = !movesWithEntry(slots, c.entrySpan) || undefined;
  return {
    entry: c,
    base: c.entrySpan.start,
    slots: compact(slots),
    empty: isEmpty(slots),
    params: reads.size ? reads : undefined,
    pinned,
  };
}

export function mappingRecord(m: MappingEntry, env: EntryEnv, workspace: WorkspaceCodes, uri: string): EntryRecord<MappingEntry> {
  const slots = newSlots();
  const { env: e, reads } = recording(env);
  const target = targetOf(env.resolver, m.code?.value);
  const unknown = m.code !== undefined && target === undefined;
  mappingTemplateProblems(m, e, p => slots[Slot.Templates]!.push(p));
  mappingStatusProblems(m, env.registry, env.resolver, p => slots[Slot.Http]!.push(p));
  // mapping.unknown-code reads every code name (its suggestions): never cached.
  if (!unknown)
    mappingCodeProblems(
      m,
      env.resolver,
      () => [],
      workspace,
      uri,
      p => slots[Slot.Mappings]!.push(p),
    );
  if (m.condition) conditionProblems(m.condition, p => slots[Slot.Conditions]!.push(p));
  const pinned = !movesWithEntry(slots, m.entrySpan) || undefined;
  return {
    entry: m,
    base: m.entrySpan.start,
    slots: compact(slots),
    empty: isEmpty(slots) && !unknown,
    params: reads.size ? reads : undefined,
    target,
    unknown,
    pinned,
  };
}

/** Is the record still what a fresh computation would give (apart from its position)? */
export function stillValid(r: EntryRecord<CodeDef | MappingEntry>, env: EntryEnv, name?: string): boolean {
  if (r.pinned) return false;
  if (r.params) for (const [n, sig] of r.params) if (paramSig(env.param(n)) !== sig) return false;
  if (name !== undefined && targetOf(env.resolver, name) !== r.target) return false;
  return true;
}

/** Move the record's problems to its entry's current place. */
export function place(r: EntryRecord<CodeDef | MappingEntry>): void {
  const now = r.entry.entrySpan.start;
  if (now === r.base) return;
  const delta = now - r.base;
  if (!r.empty) r.slots = r.slots.map(s => shiftAll(s, delta));
  r.base = now;
}

/** Length of the common prefix and suffix of two lists, by identity (the suffix never overlaps the prefix). */
export function commonEnds<T>(a: readonly T[], b: readonly T[]): [number, number] {
  const n = Math.min(a.length, b.length);
  let p = 0;
  while (p < n && a[p] === b[p]) p++;
  let q = 0;
  const A = a.length - 1,
    B = b.length - 1;
  while (q < n - p && a[A - q] === b[B - q]) q++;
  return [p, q];
}

/** `list.splice(start, remove, ...items)` without spreading a long list into arguments. */
export function replaceRange<T>(list: T[], start: number, remove: number, items: readonly T[]): void {
  if (items.length < 1024) {
    list.splice(start, remove, ...items);
    return;
  }
  const tail = list.slice(start + remove);
  list.length = start;
  for (const x of items) list.push(x);
  for (const x of tail) list.push(x);
}

/** First declaration of each code name in this file, kept up to date from the entries that came and went. */
export class LocalNames {
  private readonly byName = new Map<string, CodeDef[]>();

  add(c: CodeDef): void {
    const list = this.byName.get(c.name);
    if (list) list.push(c);
    else this.byName.set(c.name, [c]);
  }

  remove(c: CodeDef): void {
    const list = this.byName.get(c.name);
    if (!list) return;
    const i = list.indexOf(c);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) this.byName.delete(c.name);
  }

  /** Does this file declare `name`? */
  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** The declaration that comes first in `codes` (the model's list, which createResolver reads in order). */
  first(name: string, position: (c: CodeDef) => number): CodeDef | undefined {
    const list = this.byName.get(name);
    if (!list) return undefined;
    if (list.length === 1) return list[0];
    let best = list[0]!;
    for (const c of list) if (position(c) < position(best)) best = c;
    return best;
  }
}

/**
 * A resolver over the incrementally kept local names, with createResolver's order (this file, the
 * registry, other files). `allNames` and `nearest` (suggestions) come from `full`.
 */
export function localResolver(
  names: LocalNames,
  position: (c: CodeDef) => number,
  registry: RegistryIndex,
  workspace: WorkspaceCodes,
  uri: string,
  full: () => Resolver,
): Resolver {
  return {
    code: name => resolveIn(names.first(name, position), name, registry, workspace, uri),
    allNames: prefix => full().allNames(prefix),
    nearest: (word, limit, accept) => full().nearest(word, limit, accept),
  };
}
