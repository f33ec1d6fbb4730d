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
import { extractCodePairs, extractingViews, extractMappingPairs, extractTopPairs, type Extracted } from './extract';
import type { Section } from '../model/model';
import { assembledSection, endOf, extractChunk, parseChunk, placeChunk, placeRoot, type Chunk, type ChunkError, type Role } from './chunk';
import { flat } from './flat';
import { collectSpans } from './shiftModel';
import type { ChunkedParse, ChunkState } from './chunkState';
import { patchEntry } from './patchEntry';
import { hollowAsParsed, hollowsAsParsed } from './hollow';
import { diff, reuseLayout, type Change, type Piece as LayoutPiece } from './reuseLayout';
import { splitTop } from './splitLayout';
import type { TextSource } from '../model/textSource';

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
  source: TextSource,
  base: number,
  options: object,
  prevState: ChunkState | undefined,
  change?: Change,
  once = false,
): ChunkedParse | undefined {
  const unsafe = (t: string) => UNSAFE.test(t);
  let top: Piece[] | undefined;
  // The keystroke path (patchEntry) reads the text near the edit only, in pieces when the document is; the general
  // path reads all of it, as one string.
  if (prevState && !prevState.consumed && change) {
    const patched = patchEntry(source, base, options, prevState, change, unsafe);
    if (patched !== 'general') return patched;
  }
  const text = source.toString();
  if (prevState && !prevState.consumed) {
    const old = prevState.text.toString();
    const ch = change ?? diff(old, text);
    if (!change) {
      const patched = patchEntry(text, base, options, prevState, ch, unsafe);
      if (patched !== 'general') return patched;
    }
    top = reuseLayout(prevState.pieces, old, text, ch, unsafe);
  }
  if (prevState) prevState.consumed = true;
  if (!top) {
    if (unsafe(text)) return undefined;
    top = splitTop(text);
  }
  if (!top) return undefined;
  if (once && !prevState) return readOnce(top, text, base, options);
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
        // The first parse of a document (its open) keeps each chunk's text as a view into the whole text, which the
        // model and the document keep anyway (a 14 MiB adapter: 16 MB of copies spared); a later parse copies, so
        // that a cached chunk never keeps a later version's whole text alive (flat.ts).
        chunk = parseChunk(prevState ? flat(t) : t, options, start);
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
  const extracted: Extracted = { codes: [], mappings: [], params: [] };
  let anchors = false;
  let section: Section | undefined;
  const extractOne = (c: Chunk, role: Role) => {
    const x = extractChunk(c, role, section!, base + c.placedAt);
    anchors ||= c.anchors;
    for (const d of x.codes) extracted.codes.push(d);
    for (const m of x.mappings) extracted.mappings.push(m);
    for (const p of x.params) extracted.params.push(p);
  };
  if (!prevState && hollowsAsParsed(text)) {
    // The open of a big region: each chunk extracted as soon as it is placed, and its entry hollowed (parse/hollow.ts),
    // so that the nodes of every entry never live at once. From the first chunk holding `&` or `*` on, extraction waits
    // for the whole Document, as below (an alias is resolved over the whole Document), and nothing more is hollowed.
    section = assembledSection(root, text, base, options);
    let rest = -1;
    const use = (c: Chunk, role: Role) => {
      placed.push([c, role]);
      if (rest < 0 && c.anchors) rest = placed.length - 1;
      if (rest >= 0) return;
      extractOne(c, role);
      if (role === 'error_codes') hollowAsParsed(c, options);
    };
    if (!extractingViews(text, () => assembleRoot(root, top, take, use))) return undefined;
    placeRoot(root); // now that its items are all there
    if (rest >= 0) extractingViews(text, () => placed.slice(rest).forEach(([c, role]) => extractOne(c, role)));
  } else {
    if (!assembleRoot(root, top, take, (c, role) => void placed.push([c, role]))) return undefined;
    section = assembledSection(root, text, base, options);
    const extractAll = () => placed.forEach(([c, role]) => extractOne(c, role));
    // The first parse (the open): its chunks' texts are views into `text` (above), and so may what they extract be.
    if (prevState) extractAll();
    else extractingViews(text, extractAll);
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

/**
 * The chunked parse of a text read once (`once`: the CLI; nothing keeps its chunks for a later parse). Each chunk
 * is extracted as soon as it is parsed, straight into the model's lists, and then only its nodes stay (in the
 * assembled Document): no chunk, per-chunk extraction, span list or copy of the chunk's text outlives its turn,
 * which would otherwise be garbage of the size of the model by the end of the parse (a 14 MiB adapter: some
 * 150 MB at the peak; bench/NOTES.md, "Big files"). The model is the one parseChunked's general path gives:
 * the same chunks, extracted in the same order. From the first chunk holding `&` or `*` on, extraction waits for
 * the whole Document, as on that path (an alias is resolved over the whole Document).
 */
function readOnce(top: Piece[], text: string, base: number, options: object): ChunkedParse | undefined {
  const errors: ChunkError[] = [];
  const root = new YAMLMap();
  const section = assembledSection(root, text, base, options);
  const extracted: Extracted = { codes: [], mappings: [], params: [] };
  let deferred: [Chunk, Role][] | undefined;
  let anchors = false;
  let parsed = 0;
  const take = (piece: Piece): Chunk | undefined => {
    // A view into `text`, not a copy: `text` outlives the model's nodes anyway.
    const chunk = parseChunk(text.slice(piece.start, piece.end), options, piece.start);
    if (!chunk) return undefined;
    parsed++;
    for (const e of chunk.errors) errors.push({ ...e, start: e.start + piece.start, end: e.end + piece.start });
    return chunk;
  };
  const use = (c: Chunk, role: Role) => {
    anchors ||= c.anchors;
    if (c.anchors) deferred ??= [];
    if (deferred) deferred.push([c, role]);
    else extractAs(c.pairs, role, section, extracted);
  };
  // What is extracted keeps views into `text`, which the model keeps (extract.ts, extractingViews).
  const assembled = extractingViews(text, () => {
    if (!assembleRoot(root, top, take, use)) return false;
    placeRoot(root); // now that its items are all there
    for (const [c, role] of deferred ?? []) extractAs(c.pairs, role, section, extracted);
    return true;
  });
  if (!assembled) return undefined;
  return {
    doc: section.doc,
    section,
    extracted,
    errors,
    state: { pieces: [], text, root, extracted, faulty: [], anchors },
    parsed,
    path: 'chunks',
  };
}

/**
 * Fills `root` with the chunks `take` gives for the layout `top`, in order: top-level pairs as they are, each
 * split block (error_codes / error_mapping) as a new mapping of its entries' pairs under its header's key;
 * `use` gets each chunk with its role as it is placed. False when a piece does not parse on its own.
 */
function assembleRoot(
  root: YAMLMap,
  top: readonly Piece[],
  take: (p: Piece) => Chunk | undefined,
  use: (c: Chunk, role: Role) => void,
): boolean {
  for (const piece of top) {
    if (!piece.sub) {
      const c = take(piece);
      if (!c) return false;
      for (const p of c.pairs) root.items.push(p);
      use(c, 'top');
      continue;
    }
    const head = take(piece.header!);
    if (!head || head.pairs.length !== 1) return false;
    const role: Role = String((head.pairs[0]!.key as { value?: unknown }).value) === 'error_codes' ? 'error_codes' : 'error_mapping';
    const block = new YAMLMap();
    for (const s of piece.sub) {
      const c = take(s);
      if (!c) return false;
      for (const p of c.pairs) block.items.push(p);
      use(c, role);
    }
    const first = block.items[0]?.key as Node | undefined,
      last = block.items[block.items.length - 1];
    const lastEnd = endOf(last);
    block.range = [first?.range?.[0] ?? piece.sub[0]!.start, lastEnd, lastEnd];
    // The header chunk's pair is shared with the store: give it a fresh pair so the cached one keeps its null value.
    root.items.push(new Pair(head.pairs[0]!.key, block));
  }
  return true;
}

function extractAs(pairs: readonly Pair[], role: Role, section: Section, out: Extracted): void {
  if (role === 'top') extractTopPairs(section, pairs, out);
  else if (role === 'error_codes') extractCodePairs(section, pairs, out);
  else if (role === 'error_mapping') extractMappingPairs(section, pairs, out);
}
