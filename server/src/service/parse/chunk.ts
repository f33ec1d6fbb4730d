/**
 * One chunk of the chunked parse (parse/chunkedParse.ts): a top-level key, the header of an
 * error_codes / error_mapping block, or one entry of such a block. Parsed on its own, placed at its
 * offset in the region, extracted once per role and moved (ranges and spans) when an edit above it
 * moves it.
 */
import { Document, isMap, type Node, type Pair, type YAMLMap } from 'yaml';
import { composeYaml } from './compose';
import { fastPairs } from './fastChunk';
import { kept } from './flat';
import { MAX_NESTING } from '../util/nesting';
import type { Section, Span } from '../model/model';
import { extractCodePairs, extractMappingPairs, extractTopPairs, type Extracted } from './extract';
import { collectRanges, collectSpans } from './shiftModel';
import { remapRanges, repairTabs, TAB_INDENT, type TabError } from './tabs';
import type { TextSource } from '../model/textSource';
import { withText } from '../util/pieceText';

export interface ChunkError {
  readonly start: number;
  readonly end: number;
  readonly message: string;
  readonly code: string;
}

export type Role = 'top' | 'header' | 'error_codes' | 'error_mapping';

export interface Chunk {
  readonly text: string;
  readonly pairs: Pair[];
  /** Errors relative to the chunk's start. */
  readonly errors: readonly ChunkError[];
  /** Where the nodes' ranges currently place the chunk (region offset). */
  placedAt: number;
  /** What extract() found in the chunk, with file offsets as of `extractedAt` (= base + placedAt then). */
  extracted?: Extracted;
  extractedAt?: number;
  /** The same text means different things under error_codes and under error_mapping. */
  extractedAs?: Role;
  /** Holds `&` or `*`: what it means depends on other chunks (re-extracted on every parse). */
  readonly anchors: boolean;
  /** Every node range of `pairs` and every span of `extracted`, once each (collected when parsed and extracted). */
  ranges?: number[][];
  spans?: Span[];
  /** The parse that last placed it. */
  gen?: number;
  /** Looked at by parse/hollow.ts (its entry hollowed, or found not to read back as it is). */
  hollowed: boolean;
}

/** The errors of every chunk without any (most of them): one list, not one per chunk. */
const NO_ERRORS: readonly ChunkError[] = Object.freeze([]);

/** A chunk that may hold an anchor or alias: what it means depends on other chunks, so it is re-extracted. */
const ANCHOR_OR_ALIAS = /[&*]/;

export function parseChunk(t: string, options: object, at: number): Chunk | undefined {
  // Built in place (its ranges collected only if an edit above it ever moves it).
  const fast = fastPairs(t, options, at);
  if (fast) return newChunk(t, fast, NO_ERRORS, at, false, undefined);
  // A chunk of error_codes / error_mapping sits one level down in the document (under the root): nested
  // too deep, it composes to nothing (below: undefined), and the whole parse reports it.
  const compose = (x: string) => composeYaml(x, options, MAX_NESTING - 1).docs;
  let docs = compose(t);
  let tabErrors: readonly TabError[] = [];
  let toOriginal: ((x: number) => number) | undefined;
  if (docs.some(d => d.errors.length) && TAB_INDENT.test(t)) {
    const r = repairTabs(t)!;
    docs = compose(r.text);
    tabErrors = r.errors;
    toOriginal = r.toOriginal;
  }
  if (docs.length !== 1) return undefined;
  const d = docs[0]!;
  const f = toOriginal ?? ((x: number) => x);
  const found = [
    ...tabErrors,
    ...d.errors.map(e => ({ start: f(e.pos[0]), end: Math.max(f(e.pos[1]), f(e.pos[0])), message: e.message, code: e.code })),
  ];
  const errors = found.length ? found : NO_ERRORS;
  const contents = d.contents as Node | null;
  const anchors = ANCHOR_OR_ALIAS.test(t);
  if (!isMap(contents)) return errors.length || contents ? undefined : newChunk(t, [], errors, at, anchors, undefined);
  const pairs = contents.items as Pair[];
  if (toOriginal) remapRanges(pairs, toOriginal);
  const chunk = newChunk(t, pairs, errors, 0, anchors, collectRanges(pairs));
  placeChunk(chunk, at);
  return chunk;
}

/**
 * A chunk with every field present from the start, in one order: chunks then share one hidden class, so the move of
 * every chunk after an edit (placeChunk, moveSpans) stays optimised instead of meeting a new shape per way a chunk
 * was made and filled in (the first keystrokes after an open deoptimised it on "wrong map").
 */
function newChunk(
  text: string,
  pairs: Pair[],
  errors: readonly ChunkError[],
  placedAt: number,
  anchors: boolean,
  ranges: number[][] | undefined,
): Chunk {
  return {
    text,
    pairs,
    errors,
    placedAt,
    extracted: undefined,
    extractedAt: undefined,
    extractedAs: undefined,
    anchors,
    ranges,
    spans: undefined,
    gen: undefined,
    hollowed: false,
  };
}

/** Moves the chunk's node ranges so that it starts at region offset `at`. */
export function placeChunk(chunk: Chunk, at: number): void {
  if (chunk.placedAt === at) return;
  const d = at - chunk.placedAt;
  for (const r of (chunk.ranges ??= collectRanges(chunk.pairs))) {
    r[0] = r[0]! + d;
    r[1] = r[1]! + d;
    r[2] = r[2]! + d;
  }
  chunk.placedAt = at;
}

/** Extracts the chunk as `role` at file offset `at`, or moves what was extracted before. */
export function extractChunk(c: Chunk, role: Role, section: Section, at: number): Extracted {
  if (!c.extracted || c.extractedAt === undefined || c.extractedAs !== role || c.anchors) {
    const x: Extracted = { codes: [], mappings: [], params: [] };
    c.spans = undefined;
    if (role === 'top') extractTopPairs(section, c.pairs, x);
    else if (role === 'error_codes') extractCodePairs(section, c.pairs, x);
    else if (role === 'error_mapping') extractMappingPairs(section, c.pairs, x);
    // Kept with the chunk for the next parse: lists of their own size (one entry's, not room for 17), empty ones shared.
    c.extracted = { codes: kept(x.codes), mappings: kept(x.mappings), params: kept(x.params) };
  } else if (c.extractedAt !== at) moveSpans(c, at);
  c.extractedAt = at;
  c.extractedAs = role;
  return c.extracted;
}

/** Moves the spans of what was extracted from `c` to file offset `at`. */
export function moveSpans(c: Chunk, at: number): void {
  if (!c.extracted || c.extractedAt === undefined || c.extractedAt === at) return;
  const d = at - c.extractedAt;
  for (const s of (c.spans ??= collectSpans(c.extracted))) {
    (s as { start: number }).start += d;
    (s as { end: number }).end += d;
  }
  c.extractedAt = at;
}

export function endOf(p: Pair | undefined): number {
  if (!p) return 0;
  const v = p.value as Node | null,
    k = p.key as Node | null;
  return v?.range?.[1] ?? k?.range?.[1] ?? 0;
}

/**
 * The one section of an assembled parse: `root` (its range set from its first key to its last value) as
 * the contents of a document spanning `text`, which starts at `base` in the file.
 */
export function assembledSection(root: YAMLMap, text: TextSource, base: number, options: object): Section {
  placeRoot(root);
  const doc = new Document(undefined, options) as Document.Parsed;
  doc.contents = root as unknown as Document.Parsed['contents'];
  (doc as { range: [number, number, number] }).range = [0, text.length, text.length];
  // `text` made whole only when read (util/pieceText.ts, withText): the keystroke path reads `source`.
  return withText({ index: 0, base, doc }, text);
}

/** Sets `root`'s range from its first key to its last value. */
export function placeRoot(root: YAMLMap): void {
  const firstKey = root.items[0]?.key as Node | undefined;
  const end = endOf(root.items[root.items.length - 1]);
  root.range = [firstKey?.range?.[0] ?? 0, end, end];
}
