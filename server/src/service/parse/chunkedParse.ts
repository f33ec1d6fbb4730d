/**
 * Incremental parsing for large YAML files (issue 6). The region is split on lines into top-level
 * chunks, and the `error_codes` / `error_mapping` blocks further into one chunk per entry. Each chunk
 * is parsed on its own and cached by its exact text; a keystroke re-parses only the chunk it touched.
 * Cached chunks that moved have their node ranges shifted, and the chunks are assembled into one
 * Document that looks to every reader exactly like a whole-file parse.
 *
 * Anything this line-based split cannot be sure of (anchors and aliases, directives, several
 * documents, flow or sequence roots, tabs in indentation, a chunk that does not parse to one mapping)
 * returns undefined and the caller parses the whole region instead.
 */
import { Composer, Document, isMap, Pair, Parser, YAMLMap, type Node } from 'yaml';
import { extractCodePairs, extractMappingPairs, extractTopPairs, type Extracted } from './extract';
import type { Section, Span } from '../model/model';
import { flat } from './flat';
import { collectRanges, collectSpans } from './shiftModel';
import { diff, reuseLayout, type Change, type Piece as LayoutPiece } from './reuseLayout';
import { remapRanges, repairTabs, TAB_INDENT, type TabError } from './tabs';

interface ChunkError {
  readonly start: number;
  readonly end: number;
  readonly message: string;
  readonly code: string;
}

interface Chunk {
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
  /** Every node range of `pairs` and every span of `extracted`, once each (collected when first moved). */
  ranges?: number[][];
  spans?: Span[];
  /** The parse that last placed it. */
  gen?: number;
}

type Role = 'top' | 'header' | 'error_codes' | 'error_mapping';

/** The chunks of the last parse of one document, by text (several for identical texts). */
type ChunkStore = Map<string, Chunk[]>;

/** What the next parse of the same document reuses: the layout of this text, each piece with its chunk. */
export interface ChunkState {
  readonly pieces: LayoutPiece<Chunk>[];
  readonly text: string;
}

/** Chunks by text, for a parse that had to split the text again. */
function storeOf(pieces: readonly LayoutPiece<Chunk>[]): ChunkStore {
  const store: ChunkStore = new Map();
  const add = (p: LayoutPiece<Chunk> | undefined) => {
    const c = p?.chunk;
    if (!c) return;
    const list = store.get(c.text);
    if (list) list.push(c);
    else store.set(c.text, [c]);
  };
  for (const p of pieces) {
    add(p);
    add(p.header);
    p.sub?.forEach(add);
  }
  return store;
}

/** Marks the chunks taken by one parse (a chunk is placed once). */
let generation = 0;

interface ChunkedParse {
  readonly doc: Document.Parsed;
  /** The one section (region) and what was extracted from it, in file offsets. */
  readonly section: Section;
  readonly extracted: Extracted;
  readonly errors: readonly ChunkError[];
  readonly state: ChunkState;
  /** How many chunks had to be parsed (the rest came from the store). */
  readonly parsed: number;
}

const UNSAFE = /(?:^|[\s[{,])![^\s[\]{},]|^%|^(?:---|\.\.\.)(?:\s|$)|(?:^|[\s{,])<<[ \t]*:/m;
/** A chunk that may hold an anchor or alias: what it means depends on other chunks, so it is re-extracted. */
const ANCHOR_OR_ALIAS = /[&*]/;
const SPLIT_BLOCK = /^(?:error_codes|error_mapping)[ \t]*:[ \t]*(?:#[^\n]*)?\r?$/;

type Piece = LayoutPiece<Chunk>;

export function parseChunked(
  text: string,
  base: number,
  options: object,
  prevState: ChunkState | undefined,
  change?: Change,
): ChunkedParse | undefined {
  const unsafe = (t: string) => UNSAFE.test(t);
  let top: Piece[] | undefined;
  if (prevState) top = reuseLayout(prevState.pieces, prevState.text, text, change ?? diff(prevState.text, text), unsafe);
  if (!top) {
    if (unsafe(text)) return undefined;
    top = splitTop(text);
  }
  if (!top) return undefined;
  let prev: ChunkStore | undefined;
  const gen = ++generation;
  const errors: ChunkError[] = [];
  let parsed = 0;
  const take = (piece: Piece): Chunk | undefined => {
    const { start, end } = piece;
    const hint = piece.chunk;
    let chunk: Chunk | undefined;
    if (hint && hint.gen !== gen && hint.text.length === end - start) chunk = hint;
    else {
      const t = text.slice(start, end);
      if (prevState) prev ??= storeOf(prevState.pieces);
      chunk = prev?.get(t)?.find(c => c.gen !== gen);
      if (!chunk) {
        chunk = parseChunk(flat(t), options, start);
        parsed++;
        if (!chunk) return undefined;
      }
    }
    if (chunk.placedAt !== start) {
      const d = start - chunk.placedAt;
      for (const r of (chunk.ranges ??= collectRanges(chunk.pairs))) {
        r[0] = r[0]! + d;
        r[1] = r[1]! + d;
        r[2] = r[2]! + d;
      }
      chunk.placedAt = start;
    }
    piece.chunk = chunk;
    chunk.gen = gen;
    for (const e of chunk.errors) errors.push({ ...e, start: e.start + start, end: e.end + start });
    return chunk;
  };

  const placed: [Chunk, Role][] = [];
  const root = new YAMLMap();
  for (const piece of top) {
    if (!piece.sub) {
      const c = take(piece);
      if (!c) return undefined;
      root.items.push(...c.pairs);
      placed.push([c, 'top']);
      continue;
    }
    const head = take(piece.header!);
    if (!head || head.pairs.length !== 1) return undefined;
    const role: Role = String((head.pairs[0]!.key as { value?: unknown }).value) === 'error_codes' ? 'error_codes' : 'error_mapping';
    const block = new YAMLMap();
    for (const s of piece.sub) {
      const c = take(s);
      if (!c) return undefined;
      block.items.push(...c.pairs);
      placed.push([c, role]);
    }
    const first = block.items[0]?.key as Node | undefined,
      last = block.items[block.items.length - 1];
    const lastEnd = endOf(last);
    block.range = [first?.range?.[0] ?? piece.sub[0]!.start, lastEnd, lastEnd];
    // The header chunk's pair is shared with the store: give it a fresh pair so the cached one keeps its null value.
    root.items.push(new Pair(head.pairs[0]!.key, block));
  }
  const firstKey = root.items[0]?.key as Node | undefined;
  const end = endOf(root.items[root.items.length - 1]);
  root.range = [firstKey?.range?.[0] ?? 0, end, end];
  const doc = new Document(undefined, options) as Document.Parsed;
  doc.contents = root as unknown as Document.Parsed['contents'];
  (doc as { range: [number, number, number] }).range = [0, text.length, text.length];
  const section: Section = { index: 0, base, text, doc };
  const extracted: Extracted = { codes: [], mappings: [], params: [] };
  for (const [c, role] of placed) {
    const at = base + c.placedAt;
    if (!c.extracted || c.extractedAt === undefined || c.extractedAs !== role || c.anchors) {
      c.extracted = { codes: [], mappings: [], params: [] };
      c.spans = undefined;
      if (role === 'top') extractTopPairs(section, c.pairs, c.extracted);
      else if (role === 'error_codes') extractCodePairs(section, c.pairs, c.extracted);
      else if (role === 'error_mapping') extractMappingPairs(section, c.pairs, c.extracted);
    } else if (c.extractedAt !== at) {
      const d = at - c.extractedAt;
      for (const s of (c.spans ??= collectSpans(c.extracted))) {
        (s as { start: number }).start += d;
        (s as { end: number }).end += d;
      }
    }
    c.extractedAt = at;
    c.extractedAs = role;
    extracted.codes.push(...c.extracted.codes);
    extracted.mappings.push(...c.extracted.mappings);
    extracted.params.push(...c.extracted.params);
  }
  return { doc, section, extracted, errors, state: { pieces: top, text }, parsed };
}

function endOf(p: Pair | undefined): number {
  if (!p) return 0;
  const v = p.value as Node | null,
    k = p.key as Node | null;
  return v?.range?.[1] ?? k?.range?.[1] ?? 0;
}

function parseChunk(t: string, options: object, at: number): Chunk | undefined {
  const compose = (x: string) => [...new Composer(options).compose(new Parser().parse(x), true, x.length)];
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
  const errors = [
    ...tabErrors,
    ...d.errors.map(e => ({ start: f(e.pos[0]), end: Math.max(f(e.pos[1]), f(e.pos[0])), message: e.message, code: e.code })),
  ];
  const contents = d.contents as Node | null;
  const anchors = ANCHOR_OR_ALIAS.test(t);
  if (!isMap(contents)) return errors.length || contents ? undefined : { text: t, pairs: [], errors, placedAt: at, anchors };
  const pairs = contents.items as Pair[];
  if (toOriginal) remapRanges(pairs, toOriginal);
  const chunk: Chunk = { text: t, pairs, errors, placedAt: 0, anchors };
  if (at !== 0) {
    for (const r of (chunk.ranges = collectRanges(pairs))) {
      r[0] = r[0]! + at;
      r[1] = r[1]! + at;
      r[2] = r[2]! + at;
    }
    chunk.placedAt = at;
  }
  return chunk;
}

/** Split into top-level key chunks; error_codes / error_mapping further into entries. */
function splitTop(text: string): Piece[] | undefined {
  const pieces: Piece[] = [];
  let cur: Piece | undefined;
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const lineEnd = nl < 0 ? text.length : nl + 1;
    const c = text[pos]!;
    // A tab-indented line continues the current key (the chunk's parse reports the tab).
    if (c !== ' ' && c !== '#' && c !== '\n' && c !== '\r' && c !== '\t') {
      if (c === '-' || c === '{' || c === '[' || c === '?') return undefined;
      if (cur) cur.end = pos;
      cur = { start: cur ? pos : 0, end: lineEnd };
      pieces.push(cur);
    }
    if (cur) cur.end = lineEnd;
    pos = lineEnd;
  }
  if (!pieces.length) return undefined;
  pieces[pieces.length - 1]!.end = text.length;
  for (const p of pieces) {
    const firstNl = text.indexOf('\n', p.start);
    const headEnd = firstNl < 0 || firstNl >= p.end ? p.end : firstNl + 1;
    if (SPLIT_BLOCK.test(text.slice(p.start, headEnd).replace(/\n$/, ''))) splitBlock(text, p, headEnd);
  }
  return pieces;
}

function splitBlock(text: string, p: Piece, headEnd: number): void {
  const sub: Piece[] = [];
  let indent = -1;
  let pos = headEnd;
  let headerEnd = headEnd;
  while (pos < p.end) {
    const nl = text.indexOf('\n', pos);
    const lineEnd = nl < 0 || nl >= p.end ? p.end : nl + 1;
    let i = pos;
    while (i < lineEnd && text[i] === ' ') i++;
    const c = text[i];
    const blank = i >= lineEnd || c === '\n' || c === '\r' || c === '#';
    if (!blank) {
      const ind = i - pos;
      if (indent < 0) indent = ind;
      if (c === '\t') {
        if (!sub.length) return;
      } else if (ind < indent) return;
      else if (ind === indent) {
        if (c === '-' || c === '?' || c === '{' || c === '[') return;
        // An entry starts at its key, not at its line: the indentation before the key belongs to the
        // previous chunk, where a whole parse also places an empty value that ends there.
        if (sub.length) sub[sub.length - 1]!.end = i;
        else headerEnd = i;
        sub.push({ start: i, end: lineEnd });
        pos = lineEnd;
        continue;
      } else if (!sub.length) return;
    }
    if (sub.length) sub[sub.length - 1]!.end = lineEnd;
    else headerEnd = lineEnd;
    pos = lineEnd;
  }
  if (!sub.length) return;
  p.header = { start: p.start, end: headerEnd };
  p.sub = sub;
}
