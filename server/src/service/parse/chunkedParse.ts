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
import type { Section } from '../model/model';
import { flat } from './flat';
import { Shifter } from './shiftModel';
import { remapRanges, repairTabs, TAB_INDENT, type TabError } from './tabs';

export interface ChunkError { readonly start: number; readonly end: number; readonly message: string; readonly code: string }

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
}

type Role = 'top' | 'header' | 'error_codes' | 'error_mapping';

/** The chunks of the last parse of one document, by text (several for identical texts). */
export type ChunkStore = Map<string, Chunk[]>;

export interface ChunkedParse {
  readonly doc: Document.Parsed;
  /** The one section (region) and what was extracted from it, in file offsets. */
  readonly section: Section;
  readonly extracted: Extracted;
  readonly errors: readonly ChunkError[];
  readonly store: ChunkStore;
  /** How many chunks had to be parsed (the rest came from the store). */
  readonly parsed: number;
}

const UNSAFE = /(?:^|[\s[{,])![^\s[\]{},]|^%|^(?:---|\.\.\.)(?:\s|$)|(?:^|[\s{,])<<[ \t]*:/m;
/** A chunk that may hold an anchor or alias: what it means depends on other chunks, so it is re-extracted. */
const ANCHOR_OR_ALIAS = /[&*]/;
const SPLIT_BLOCK = /^(?:error_codes|error_mapping)[ \t]*:[ \t]*(?:#[^\n]*)?\r?$/;

interface Piece { start: number; end: number; sub?: Piece[]; header?: Piece }

export function parseChunked(text: string, base: number, options: object, prev: ChunkStore | undefined): ChunkedParse | undefined {
  if (UNSAFE.test(text)) return undefined;
  const top = splitTop(text);
  if (!top) return undefined;
  const store: ChunkStore = new Map();
  const used = new Set<Chunk>();
  const errors: ChunkError[] = [];
  let parsed = 0;
  const take = (start: number, end: number): Chunk | undefined => {
    const t = text.slice(start, end);
    let chunk = prev?.get(t)?.find(c => !used.has(c));
    if (!chunk) {
      chunk = parseChunk(flat(t), options, start);
      parsed++;
      if (!chunk) return undefined;
    } else if (chunk.placedAt !== start) {
      const shifter = new Shifter(start - chunk.placedAt);
      for (const p of chunk.pairs) shifter.pair(p);
      chunk.placedAt = start;
    }
    used.add(chunk);
    const list = store.get(chunk.text);
    if (list) list.push(chunk); else store.set(chunk.text, [chunk]);
    for (const e of chunk.errors) errors.push({ ...e, start: e.start + start, end: e.end + start });
    return chunk;
  };

  const placed: [Chunk, Role][] = [];
  const root = new YAMLMap();
  for (const piece of top) {
    if (!piece.sub) {
      const c = take(piece.start, piece.end);
      if (!c) return undefined;
      root.items.push(...c.pairs);
      placed.push([c, 'top']);
      continue;
    }
    const head = take(piece.header!.start, piece.header!.end);
    if (!head || head.pairs.length !== 1) return undefined;
    const role: Role = String((head.pairs[0]!.key as { value?: unknown }).value) === 'error_codes' ? 'error_codes' : 'error_mapping';
    const block = new YAMLMap();
    for (const s of piece.sub) {
      const c = take(s.start, s.end);
      if (!c) return undefined;
      block.items.push(...c.pairs);
      placed.push([c, role]);
    }
    const first = block.items[0]?.key as Node | undefined, last = block.items[block.items.length - 1];
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
    if (!c.extracted || c.extractedAt === undefined || c.extractedAs !== role || ANCHOR_OR_ALIAS.test(c.text)) {
      c.extracted = { codes: [], mappings: [], params: [] };
      if (role === 'top') extractTopPairs(section, c.pairs, c.extracted);
      else if (role === 'error_codes') extractCodePairs(section, c.pairs, c.extracted);
      else if (role === 'error_mapping') extractMappingPairs(section, c.pairs, c.extracted);
    } else if (c.extractedAt !== at) {
      const shifter = new Shifter(at - c.extractedAt);
      c.extracted.codes.forEach(x => shifter.code(x));
      c.extracted.mappings.forEach(x => shifter.mapping(x));
      c.extracted.params.forEach(x => shifter.param(x));
    }
    c.extractedAt = at;
    c.extractedAs = role;
    extracted.codes.push(...c.extracted.codes);
    extracted.mappings.push(...c.extracted.mappings);
    extracted.params.push(...c.extracted.params);
  }
  return { doc, section, extracted, errors, store, parsed };
}

function endOf(p: Pair | undefined): number {
  if (!p) return 0;
  const v = p.value as Node | null, k = p.key as Node | null;
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
  const errors = [...tabErrors, ...d.errors.map(e => ({ start: f(e.pos[0]), end: Math.max(f(e.pos[1]), f(e.pos[0])), message: e.message, code: e.code }))];
  const contents = d.contents as Node | null;
  if (!isMap(contents)) return errors.length || contents ? undefined : { text: t, pairs: [], errors, placedAt: at };
  const pairs = contents.items as Pair[];
  if (toOriginal) remapRanges(pairs, toOriginal);
  if (at !== 0) { const shifter = new Shifter(at); for (const p of pairs) shifter.pair(p); }
  return { text: t, pairs, errors, placedAt: at };
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
        if (sub.length) sub[sub.length - 1]!.end = i; else headerEnd = i;
        sub.push({ start: i, end: lineEnd });
        pos = lineEnd;
        continue;
      } else if (!sub.length) return;
    }
    if (sub.length) sub[sub.length - 1]!.end = lineEnd; else headerEnd = lineEnd;
    pos = lineEnd;
  }
  if (!sub.length) return;
  p.header = { start: p.start, end: headerEnd };
  p.sub = sub;
}
