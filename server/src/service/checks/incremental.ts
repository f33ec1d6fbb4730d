/**
 * The checks of one document, kept from one validation to the next (one state per document): what a
 * keystroke costs is proportional to the entries it changed, plus loops over the entries that only
 * compare objects and lengths. The result is the same problem list, in the same order, as running
 * every check over the whole model (runChecks); a check that throws makes this validation a full run.
 *
 * - yaml syntax, aliases: as they are (the syntax list; the alias walk only when the document holds an alias).
 * - text: the invalid characters of the changed part only (textScan.ts).
 * - duplicate keys and schema: per entry of each top-level mapping (blockPairs.ts).
 * - code names, templates, statuses, mapping codes, conditions: per entry (entryRecords.ts).
 * - unreachable entries and precedence: from the mapping entries and the statuses claimed per code;
 *   shadowed statuses from the codes' statuses and the mapping entries without a condition.
 */
import type { Node } from 'yaml';
import { isMap, isScalar } from '../parse/yamlNodes';
import type { CodeDef, MappingEntry, Section } from '../model/model';
import { keyString } from '../parse/extract';
import { createResolver } from '../workspace/resolve';
import { aliases } from './aliases';
import { blockDuplicates, blockSchema, newBlockState, syncBlock, type BlockState } from './blockPairs';
import { duplicateProblem, keyName, walk } from './duplicateKeys';
import {
  codeRecord,
  commonEnds,
  LocalNames,
  localResolver,
  mappingRecord,
  place,
  Slot,
  replaceRange,
  stillValid,
  type EntryRecord,
} from './entryRecords';
import { checks } from './index';
import { mappingCodeProblems, precedence, shadowedStatuses, suggestCodes, unreachableEntries, type Claim } from './mappingChecks';
import { onePerSpan } from './onePerSpan';
import { collector, runChecks } from './runChecks';
import { blockTypeProblem, rootTypeProblem, wholeSchemaProblems } from './schemaChecks';
import { invalidCharacter, MAX_REPORTS } from './text';
import { scanText, type TextScan } from './textScan';
import type { CheckContext, EntryEnv, Problem } from './types';
import { yamlSyntax } from './yamlSyntax';
import { hasAliasNodes } from './aliasNodes';
import { ambiguousUses } from './crossFile';
import { withoutSalvaged } from './salvaged';
import { sourceText } from '../util/pieceText';

/** The order of `checks` this file reproduces; another order runs every check in full. */
const ORDER = [
  'yamlSyntax',
  'text',
  'aliases',
  'duplicateKeys',
  'schema',
  'codeNames',
  'templates',
  'httpStatus',
  'mappings',
  'conditions',
  'crossFile',
];
const sameOrder = checks.length === ORDER.length && checks.every((c, i) => c.name === ORDER[i]);

export interface CheckState {
  text?: TextScan;
  codes: readonly CodeDef[];
  codeRecs: EntryRecord<CodeDef>[];
  mappings: readonly MappingEntry[];
  mappingRecs: EntryRecord<MappingEntry>[];
  names: LocalNames;
  /** Status (as String(value)) → the codes whose maps_from_http claim it. */
  claimed: Map<string, Set<CodeDef>>;
  /** `section:occurrence:top-level key` (blockKeys) → the block's pairs. */
  blocks: Map<string, BlockState>;
}

export function createCheckState(): CheckState {
  return { codes: [], codeRecs: [], mappings: [], mappingRecs: [], names: new LocalNames(), claimed: new Map(), blocks: new Map() };
}

/** runChecks(checks, ctx), computed from what `state` kept of the document's previous validation. */
export function runChecksCached(state: CheckState, ctx: CheckContext): Problem[] {
  if (!sameOrder) return runChecks(checks, ctx);
  try {
    return withoutSalvaged(ctx.model, incremental(state, ctx));
  } catch {
    Object.assign(state, createCheckState());
    return runChecks(checks, ctx);
  }
}

function claim(state: CheckState, c: CodeDef, add: boolean): void {
  for (const s of c.mapsFromHttp) {
    const k = String(s.value);
    let set = state.claimed.get(k);
    if (add) {
      if (!set) state.claimed.set(k, (set = new Set()));
      set.add(c);
    } else if (set) {
      set.delete(c);
      if (!set.size) state.claimed.delete(k);
    }
  }
}

function claims(state: CheckState, status: string, position: (c: CodeDef) => number): Claim[] | undefined {
  const set = state.claimed.get(status);
  if (!set) return undefined;
  const out: Claim[] = [];
  for (const c of set.size > 1 ? [...set].sort((a, b) => position(a) - position(b)) : set)
    for (const s of c.mapsFromHttp) if (String(s.value) === status) out.push({ start: s.span.start, end: s.span.end, code: c.name });
  return out;
}

function incremental(state: CheckState, ctx: CheckContext): Problem[] {
  const { model, registry, workspace } = ctx;
  const { problems, emit } = collector();
  yamlSyntax.run(ctx, emit);

  // The text as the keystroke path reads it (in pieces when the document is: util/pieceText.ts), never made whole here.
  const source = sourceText(model);
  state.text = scanText(state.text, source);
  const hits = state.text.hits;
  for (let i = 0; i < hits.length && i < MAX_REPORTS; i++) emit(invalidCharacter(source.charCodeAt(hits[i]!), hits[i]!));

  aliases.run(ctx, emit);

  const blocks = new Map<string, BlockState>();
  const names = new Map<Section, string[]>();
  const blockOf = (s: Section, i: number, map: Parameters<typeof syncBlock>[2]): BlockState => {
    let keys = names.get(s);
    if (!keys) names.set(s, (keys = blockKeys(s)));
    const key = keys[i]!;
    let st = blocks.get(key);
    if (st) return st;
    st = state.blocks.get(key) ?? newBlockState();
    syncBlock(s, st, map);
    blocks.set(key, st);
    return st;
  };
  for (const s of model.sections) sectionDuplicates(s, blockOf, emit);
  for (const s of model.sections) sectionSchema(s, ctx, blockOf, emit);
  state.blocks = blocks;

  // Entries: records of new entries, then of those whose inputs changed; every record placed.
  const params = new Map(model.params.map(p => [p.name, p] as const));
  let full: ReturnType<typeof createResolver> | undefined;
  // Where a code sits in model.codes (the order createResolver and the checks read), made when first asked.
  let positions: Map<CodeDef, number> | undefined;
  const position = (c: CodeDef) => (positions ??= new Map(model.codes.map((x, i) => [x, i] as const))).get(c) ?? Infinity;
  const fullResolver = () => (full ??= createResolver(model.codes, registry, workspace, model.uri));
  const env: EntryEnv = {
    text: source,
    registry,
    resolver: localResolver(state.names, position, registry, workspace, model.uri, fullResolver),
    param: name => params.get(name),
  };
  const [cp, cq] = commonEnds(state.codes, model.codes);
  const goneCodes = state.codes.slice(cp, state.codes.length - cq);
  const newCodes = model.codes.slice(cp, model.codes.length - cq);
  for (const c of goneCodes) {
    state.names.remove(c);
    claim(state, c, false);
  }
  for (const c of newCodes) {
    state.names.add(c);
    claim(state, c, true);
  }
  replaceRange(
    state.codeRecs,
    cp,
    goneCodes.length,
    newCodes.map(c => codeRecord(c, env)),
  );
  state.codes = model.codes;
  const codeRecs = state.codeRecs;
  // Records with something to say, in document order: only they are read below.
  const busyCodes: EntryRecord<CodeDef>[] = [];
  for (let i = 0; i < codeRecs.length; i++) {
    let r = codeRecs[i]!;
    if ((r.params || r.pinned) && !stillValid(r, env)) codeRecs[i] = r = codeRecord(r.entry, env);
    // A record without problems has nothing to move.
    if (!r.empty) {
      place(r);
      busyCodes.push(r);
    }
  }
  const [mp, mq] = commonEnds(state.mappings, model.mappings);
  const newMappings = model.mappings.slice(mp, model.mappings.length - mq);
  replaceRange(
    state.mappingRecs,
    mp,
    state.mappings.length - mq - mp,
    newMappings.map(m => mappingRecord(m, env, workspace, model.uri)),
  );
  state.mappings = model.mappings;
  const mappingRecs = state.mappingRecs;
  const busyMappings: EntryRecord<MappingEntry>[] = [];
  for (let i = 0; i < mappingRecs.length; i++) {
    let r = mappingRecs[i]!;
    if (!stillValid(r, env, r.entry.code?.value)) mappingRecs[i] = r = mappingRecord(r.entry, env, workspace, model.uri);
    if (!r.empty) {
      place(r);
      busyMappings.push(r);
    }
  }

  const each = (slot: number, out: (p: Problem) => void, withMappings: boolean) => {
    for (const r of busyCodes) for (const p of r.slots[slot]!) out(p);
    if (withMappings) for (const r of busyMappings) for (const p of r.slots[slot]!) out(p);
  };
  each(Slot.CodeNames, emit, false);
  each(Slot.Templates, onePerSpan(emit), true);
  each(Slot.Http, emit, true);
  const near = (word: string) => suggestCodes(fullResolver(), registry)(word);
  for (const r of busyMappings) {
    if (r.unknown) mappingCodeProblems(r.entry, env.resolver, near, workspace, model.uri, emit);
    else for (const p of r.slots[Slot.Mappings]!) emit(p);
  }
  unreachableEntries(model, emit);
  precedence(model.mappings, k => claims(state, k, position), emit);
  shadowedStatuses(model, emit);
  each(Slot.Conditions, emit, true);
  ambiguousUses(model.mappings, name => state.names.has(name), registry, workspace, model.uri, emit);
  return problems;
}

type BlockOf = (s: Section, i: number, map: Parameters<typeof syncBlock>[2]) => BlockState;

/**
 * What each top-level pair's block state is kept under: the section, the key and how many pairs of that key come
 * before it, not its position, so that a top-level key added or removed above a block keeps the block's per-entry
 * records (which alone remember the entries' duplicate keys and schema problems: blockPairs.ts).
 */
function blockKeys(s: Section): string[] {
  const root = s.doc.contents as Node | null;
  if (!isMap(root)) return [];
  const seen = new Map<string, number>();
  return root.items.map(top => {
    const k = keyString(top) ?? '';
    const n = seen.get(k) ?? 0;
    seen.set(k, n + 1);
    return `${s.index}:${n}:${k}`;
  });
}

/** duplicateKeys over one section: the root's own keys as its walk does, each top-level mapping per entry. */
function sectionDuplicates(s: Section, blockOf: BlockOf, emit: (p: Problem) => void): void {
  const root = s.doc.contents as Node | null;
  if (!isMap(root)) {
    walk(s, root, 0, emit);
    return;
  }
  const seen = new Map<string, Node>();
  root.items.forEach((pair, i) => {
    const k = pair.key as Node | null;
    if (isScalar(k) && k.range) {
      const name = keyName(k);
      const first = seen.get(name);
      if (first?.range) emit(duplicateProblem(s, name, k.range, first.range));
      else seen.set(name, k);
    }
    const v = pair.value as Node | null;
    if (isMap(v)) blockDuplicates(s, blockOf(s, i, v), emit);
    else walk(s, v, 1, emit);
  });
}

/** schema over one section, as the schema check does it, each block's entries cached per pair. */
function sectionSchema(s: Section, ctx: CheckContext, blockOf: BlockOf, emit: (p: Problem) => void): void {
  const root = s.doc.contents as Node | null;
  if (!isMap(root)) {
    if (ctx.model.kind !== 'json') rootTypeProblem(s, root, emit);
    return;
  }
  const push = onePerSpan(emit);
  if (!ctx.validateEntry || hasAliasNodes(s)) {
    wholeSchemaProblems(s, ctx.validateSchema, push);
    return;
  }
  const firstOf = new Map<string, number>();
  root.items.forEach((top, i) => {
    if (isScalar(top.key) && !firstOf.has(String(top.key.value))) firstOf.set(String(top.key.value), i);
  });
  root.items.forEach((top, i) => {
    const block = keyString(top);
    if (block !== 'error_codes' && block !== 'error_mapping') return;
    const v = top.value as Node | null;
    if (!isMap(v)) {
      blockTypeProblem(s, block, v, push);
      return;
    }
    const validate = block === 'error_codes' ? ctx.validateEntry!.code : ctx.validateEntry!.mapping;
    blockSchema(s, blockOf(s, i, v), block, validate, firstOf.get(block) === i, push);
  });
}
