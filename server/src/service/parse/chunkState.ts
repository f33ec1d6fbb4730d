/**
 * What one chunked parse gives (`ChunkedParse`) and what it keeps for the next parse of the same
 * document (`ChunkState`): shared by the general path (chunkedParse.ts) and the keystroke path
 * (patchEntry.ts), which therefore need not import each other.
 */
import type { Document, YAMLMap } from 'yaml';
import type { Section } from '../model/model';
import type { Chunk, ChunkError } from './chunk';
import type { Extracted } from './extract';
import type { Change, Piece as LayoutPiece } from './reuseLayout';
import type { TextSource } from '../model/textSource';

/** What the next parse of the same document reuses: the layout of this text, each piece with its chunk. */
export interface ChunkState {
  readonly pieces: LayoutPiece<Chunk>[];
  /** The region's text (in pieces when the document is: the keystroke path reads it near the edit only). */
  readonly text: TextSource;
  /** The assembled root mapping and what was extracted from it (the keystroke path splices them). */
  readonly root: YAMLMap;
  readonly extracted: Extracted;
  /** The pieces whose chunk has errors, in order. */
  readonly faulty: readonly LayoutPiece<Chunk>[];
  /** Some chunk holds `&` or `*` (the keystroke path then leaves the parse to the general one). */
  readonly anchors: boolean;
  /** The text holds '<<' (set by buildModel: merge keys are then checked). */
  merges?: boolean;
  /** A later parse started from this state: its layout and chunks may have moved on since. */
  consumed?: boolean;
}

export interface ChunkedParse {
  readonly doc: Document.Parsed;
  /** The one section (region) and what was extracted from it, in file offsets. */
  readonly section: Section;
  readonly extracted: Extracted;
  readonly errors: readonly ChunkError[];
  readonly state: ChunkState;
  /** How many chunks had to be parsed (the rest came from the store). */
  readonly parsed: number;
  /** 'entry': the keystroke path (parse/patchEntry.ts) spliced one entry into the previous parse. */
  readonly path: 'entry' | 'chunks';
  /** On the keystroke path: the edit (region offsets). */
  readonly change?: Change;
}
