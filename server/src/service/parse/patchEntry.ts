/**
 * The keystroke path of the chunked parse (ARCHITECTURE.md, "The incremental parse"): an edit inside one
 * error_codes / error_mapping entry that keeps the line-based split (reuseLayout.ts's locateEdit) re-parses
 * that entry alone and splices it into the previous parse's results: the block's items in place (the previous
 * parse is consumed), the root's, the extracted codes, mappings and params as copies of the previous arrays with the
 * entry's slice replaced (each version's own: the checks compare two versions' lists, and createResolver memoises per list);
 * every other chunk keeps its nodes and extracted objects (the same objects, so per-entry caches stay valid);
 * the chunks after the edit move by the edit's length. Nothing is sliced, hashed or split but the entry.
 */
import { Pair, YAMLMap, type Node } from 'yaml';
import { assembledSection, endOf, extractChunk, parseChunk, type Chunk, type ChunkError, type Role } from './chunk';
import { collectRanges, collectSpans } from './shiftModel';
import type { ChunkedParse, ChunkState } from './chunkState';
import type { Extracted } from './extract';
import { flat } from './flat';
import { locateEdit, type Change, type Piece } from './reuseLayout';
import type { TextSource } from '../model/textSource';

/**
 * The parse of `text` from `prev` and the edit `change`, or undefined when the edited entry does not
 * parse on its own (the caller then parses the whole region), or 'general' when this path does not
 * apply (the caller's general chunked parse does; `prev` is then left untouched).
 */
export function patchEntry(
  text: TextSource,
  base: number,
  options: object,
  prev: ChunkState,
  change: Change,
  unsafe: (t: string) => boolean,
): ChunkedParse | undefined | 'general' {
  if (prev.anchors) return 'general';
  const pieces = prev.pieces;
  const site = locateEdit(pieces, prev.text, text, change, unsafe);
  if (!site) return 'general';
  const block = pieces[site.top]!;
  const subs = block.sub!;
  const leaf = subs[site.sub]!;
  const old = leaf.chunk;
  const head = block.header?.chunk;
  if (!old?.extracted || !head || head.pairs.length !== 1) return 'general';
  const chunk = parseChunk(flat(text.slice(leaf.start, site.newEnd)), options, leaf.start);
  if (chunk?.anchors) return 'general';
  prev.consumed = true;
  if (!chunk) return undefined;
  const role: Role = String((head.pairs[0]!.key as { value?: unknown }).value) === 'error_codes' ? 'error_codes' : 'error_mapping';
  const oldX = old.extracted;
  const oldBlock = prev.root.items.find(p => p.key === head.pairs[0]!.key)!;
  const blockItems = (oldBlock.value as YAMLMap).items as Pair[];
  // Where the entry's pairs and extracted objects sit in the previous arrays (found before the layout moves).
  const blockAt = indexIn(blockItems, old.pairs, () => countBefore(pieces, site.top, site.sub, c => c.pairs.length, true));
  const at = (all: readonly object[], mine: readonly object[], of: (x: Extracted) => readonly object[]) =>
    indexIn(all, mine, () => countBefore(pieces, site.top, site.sub, c => (c.extracted ? of(c.extracted).length : 0), false));
  // Counted only when the entry had none of them (rare: where to insert is then not known by identity).
  const codesAt = () => at(prev.extracted.codes, oldX.codes, x => x.codes);
  const mappingsAt = () => at(prev.extracted.mappings, oldX.mappings, x => x.mappings);
  const paramsAt = () => at(prev.extracted.params, oldX.params, x => x.params);

  // The layout and the chunks after the edit move by its length (nodes and extracted spans): movePieces.
  const { delta } = site;
  leaf.end = site.newEnd;
  leaf.chunk = chunk;
  block.end += delta;
  movePieces(subs, site.sub + 1, subs.length, delta, base, true);
  for (let i = site.top + 1; i < pieces.length; i++) {
    const p = pieces[i]!;
    if (p.sub) {
      p.start += delta;
      p.end += delta;
      // The block's assembled mapping (chunkedParse.ts assembleRoot) moves with its entries: completion and the
      // other features find the node at a position through its range.
      const key = p.header!.chunk!.pairs[0]?.key;
      const map = prev.root.items.find(q => q.key === key)?.value as YAMLMap | undefined;
      if (map?.range) map.range = [map.range[0] + delta, map.range[1] + delta, map.range[2] + delta];
      movePieces([p.header!], 0, 1, delta, base, false);
      movePieces(p.sub, 0, p.sub.length, delta, base, true);
    } else movePieces([p], 0, 1, delta, base, true);
  }

  // The assembled document: a new root and block mapping holding the same pairs, the entry's replaced. The block's
  // items are the previous parse's array, spliced in place: that parse is consumed (its nodes moved above), and a
  // copy per keystroke (10,000 pairs at 10,000 codes) outlived enough scavenges to be promoted, about 0.07 MB of
  // old-space garbage a keystroke until the next full collection (bench/NOTES.md, "memory over long typing sessions"). The new mapping
  // and root keep what is memoised per node (util/objectMemo.ts) to this version.
  const items = blockItems;
  items.splice(blockAt, old.pairs.length, ...chunk.pairs);
  const map = new YAMLMap();
  map.items = items;
  const first = items[0]?.key as Node | undefined;
  const lastEnd = endOf(items[items.length - 1]);
  map.range = [first?.range?.[0] ?? subs[0]!.start, lastEnd, lastEnd];
  const root = new YAMLMap();
  root.items = prev.root.items.slice();
  root.items[prev.root.items.indexOf(oldBlock)] = new Pair(head.pairs[0]!.key, map);
  const section = assembledSection(root, text, base, options);

  const x = extractChunk(chunk, role, section, base + leaf.start);
  // What the next keystroke above this entry moves, collected now (one entry's): the move then never meets a chunk
  // without them, so it is not deoptimised by a path it has not run yet (the second keystroke at another entry).
  chunk.ranges ??= collectRanges(chunk.pairs);
  chunk.spans ??= collectSpans(x);
  const splice = <T>(all: readonly T[], from: () => number, removed: number, added: readonly T[]): T[] => {
    const out = all.slice();
    if (removed || added.length) out.splice(from(), removed, ...added);
    return out;
  };
  const extracted: Extracted = {
    codes: splice(prev.extracted.codes, codesAt, oldX.codes.length, x.codes),
    mappings: splice(prev.extracted.mappings, mappingsAt, oldX.mappings.length, x.mappings),
    params: splice(prev.extracted.params, paramsAt, oldX.params.length, x.params),
  };

  // Errors in layout order: only the chunks that have some are visited.
  const faulty = prev.faulty.filter(p => p !== leaf);
  if (chunk.errors.length) {
    let i = 0;
    while (i < faulty.length && faulty[i]!.start < leaf.start) i++;
    faulty.splice(i, 0, leaf);
  }
  const errors: ChunkError[] = [];
  for (const p of faulty) for (const e of p.chunk!.errors) errors.push({ ...e, start: e.start + p.start, end: e.end + p.start });
  return {
    doc: section.doc,
    section,
    extracted,
    errors,
    state: { pieces, text, root, extracted, faulty, anchors: false },
    parsed: 1,
    path: 'entry',
    change,
  };
}

/**
 * Moves pieces `from` to `to` (excluded) of `ps` by `delta`: each piece, its chunk's node ranges (parse/chunk.ts placeChunk) and, with
 * `spans`, the spans of what was extracted from it (moveSpans; `base`: the region's file offset). Every loop is in this
 * one function, with no call per chunk or per range: the first keystroke after an open moves every later entry
 * (263,000 ranges and spans at 10,000 codes) through code that never ran before, and V8 optimises one long loop
 * where it stands (on-stack replacement) instead of first interpreting 10,000 calls of a function not yet optimised.
 */
function movePieces(ps: readonly Piece<Chunk>[], from: number, to: number, delta: number, base: number, spans: boolean): void {
  for (let j = from; j < to; j++) {
    const p = ps[j]!;
    p.start += delta;
    p.end += delta;
    const c = p.chunk!;
    const at = p.start;
    if (c.placedAt !== at) {
      const d = at - c.placedAt;
      const rs = (c.ranges ??= collectRanges(c.pairs));
      for (let k = 0; k < rs.length; k++) {
        const r = rs[k]!;
        r[0] = r[0]! + d;
        r[1] = r[1]! + d;
        r[2] = r[2]! + d;
      }
      c.placedAt = at;
    }
    const fileAt = base + at;
    if (spans && c.extracted && c.extractedAt !== undefined && c.extractedAt !== fileAt) {
      const d = fileAt - c.extractedAt;
      const ss = (c.spans ??= collectSpans(c.extracted)) as { start: number; end: number }[];
      for (let k = 0; k < ss.length; k++) {
        const s = ss[k]!;
        s.start += d;
        s.end += d;
      }
      c.extractedAt = fileAt;
    }
  }
}

/**
 * Entries a warm-up moves at most: enough for V8 to compile the move where it runs (on-stack replacement after a few
 * thousand turns of its loop), few enough that a message arriving meanwhile waits a few milliseconds at most.
 */
export const WARM_UP_ENTRIES = 4000;

/**
 * Moves the pieces of `state` (a parse whose region starts at file offset `base`) one character on and back, as a
 * keystroke in the first entry moves them — every top-level piece and header, and the first `limit` entries of the
 * blocks: a warm-up for the language server's idle time after an open, so that V8 has compiled the move when the
 * first keystroke comes (bench/NOTES.md, "sixth sitting"). Leaves every offset as it found it; does nothing (false)
 * on a state the keystroke path would not move, or whose chunks are not each placed at their piece (a move there
 * would not be undone exactly).
 */
export function rehearseMove(state: ChunkState, base: number, limit = WARM_UP_ENTRIES): boolean {
  if (state.consumed || state.anchors) return false;
  const placed = (p: Piece<Chunk> | undefined, spans: boolean) =>
    !p ||
    !p.chunk ||
    (p.chunk.placedAt === p.start &&
      (!spans || !p.chunk.extracted || p.chunk.extractedAt === undefined || p.chunk.extractedAt === base + p.start));
  // How many entries of each block move (the first ones, `limit` in all).
  let left = limit;
  const counts = state.pieces.map(p => {
    const n = p.sub ? Math.min(p.sub.length, left) : 0;
    left -= n;
    return n;
  });
  for (const [i, p] of state.pieces.entries()) {
    if (!(p.sub ? placed(p.header, false) && p.sub.slice(0, counts[i]).every(s => placed(s, true)) : placed(p, true))) return false;
  }
  for (const d of [1, -1])
    for (const [i, p] of state.pieces.entries()) {
      if (p.sub) {
        p.start += d;
        p.end += d;
        movePieces([p.header!], 0, 1, d, base, false);
        movePieces(p.sub, 0, counts[i]!, d, base, true);
      } else movePieces([p], 0, 1, d, base, true);
    }
  return true;
}

/** Where `mine` (a run of `all`) starts in `all`: found by identity, or counted when `mine` is empty. */
function indexIn(all: readonly object[], mine: readonly object[], counted: () => number): number {
  if (!mine.length) return counted();
  const i = all.indexOf(mine[0]!);
  return i < 0 ? counted() : i;
}

/**
 * How many items the chunks before entry `si` of block `ti` give (each chunk counted by `size`): of the
 * block alone (`inBlock`), or of every placed chunk before it (top-level keys and entries of other blocks).
 */
function countBefore(pieces: readonly Piece<Chunk>[], ti: number, si: number, size: (c: Chunk) => number, inBlock: boolean): number {
  let n = 0;
  if (!inBlock)
    for (let i = 0; i < ti; i++) {
      const p = pieces[i]!;
      if (p.sub) for (const s of p.sub) n += size(s.chunk!);
      else n += size(p.chunk!);
    }
  const subs = pieces[ti]!.sub!;
  for (let j = 0; j < si; j++) n += size(subs[j]!.chunk!);
  return n;
}
