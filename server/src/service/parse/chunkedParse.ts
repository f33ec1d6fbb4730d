/**
 * Incremental parsing for large YAML files (ARCHITECTURE.md, "The incremental parse"). The region is split on
 * lines into top-level chunks, and the `error_codes` / `error_mapping` blocks further into one chunk per
 * entry. Each chunk is parsed on its own and cached by its exact text; a keystroke re-parses only the chunk
 * it touched. Cached chunks that moved have their node ranges shifted, and the chunks are assembled into one
 * Document that looks to every reader exactly like a whole-file parse.
 *
 * Anything this line-based split cannot be sure of (anchors and aliases, directives, several
 * documents, flow or sequence roots, tabs in indentation, a chunk that does not parse to one mapping)
 * returns undefined and the caller parses the whole region instead.
 */
import { Pair, YAMLMap, type Node } from 'yaml';
import type { Extracted } from './extract';
import { assembledSection, endOf, extractChunk, parseChunk, placeChunk, type Chunk, type ChunkError, type Role } from './chunk';
import { flat } from './flat';
import { collectSpans } from './shiftModel';
import type { ChunkedParse, ChunkState } from './chunkState';
import { patchEntry } from './patchEntry';
import { diff, reuseLayout, type Change, type Piece as LayoutPiece } from './reuseLayout';
import { splitTop } from './splitLayout';

/** The chunks of the last parse of one document, by text (several for identical texts). */
type ChunkStore = Map<string, Chunk[]>;

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

const UNSAFE = /(?:^|[\s[{,])![^\s[\]{},]|^%|^(?:---|\.\.\.)(?:\s|$)|(?:^|[\s{,])<<[ \t]*:/m;

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
  if (prevState && !prevState.consumed) {
    const ch = change ?? diff(prevState.text, text);
    const patched = patchEntry(text, base, options, prevState, ch, unsafe);
    if (patched !== 'general') return patched;
    top = reuseLayout(prevState.pieces, prevState.text, text, ch, unsafe);
  }
  if (prevState) prevState.consumed = true;
  if (!top) {
    if (unsafe(text)) return undefined;
    top = splitTop(text);
  }
  if (!top) return undefined;
  let prev: ChunkStore | undefined;
  const gen = ++generation;
  const errors: ChunkError[] = [];
  const faulty: Piece[] = [];
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
    placeChunk(chunk, start);
    piece.chunk = chunk;
    chunk.gen = gen;
    if (chunk.errors.length) faulty.push(piece);
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
  const section = assembledSection(root, text, base, options);
  const extracted: Extracted = { codes: [], mappings: [], params: [] };
  let anchors = false;
  for (const [c, role] of placed) {
    const x = extractChunk(c, role, section, base + c.placedAt);
    anchors ||= c.anchors;
    for (const d of x.codes) extracted.codes.push(d);
    for (const m of x.mappings) extracted.mappings.push(m);
    for (const p of x.params) extracted.params.push(p);
  }
  // What moves when an edit above a chunk moves it, collected now rather than on the first keystroke after an
  // open (which moves every entry after it), and in one pass, so the lists lie together in memory.
  for (const [c] of placed) if (!c.spans && !c.anchors && c.extracted) c.spans = collectSpans(c.extracted);
  return {
    doc: section.doc,
    section,
    extracted,
    errors,
    state: { pieces: top, text, root, extracted, faulty, anchors },
    parsed,
    path: 'chunks',
  };
}
