/**
 * The models of one service, per document: built once per (uri, version, text, options), refused past the size
 * limit or the nesting limit, re-parsed in part after an edit the language server reported
 * (`edited`), and the one parked model a later open of the same text reuses (`park`).
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { AdapterModel } from '../model/model';
import { nestingOverflow, type TooDeep } from '../util/nesting';
import { buildModel } from './buildModel';
import type { ChunkState } from './chunkState';
import { rehearseMove } from './patchEntry';
import { lfLineEnds } from './lineEnds';
import { mergeChanges, type Change } from './reuseLayout';
import { classify, type Classified } from './sourceFile';
import { maxSizeOf } from './sizeLimit';
import type { TextSource } from '../model/textSource';
import { sourceOf } from '../util/pieceText';

/** The options that change a document's model. */
export interface ModelOptions {
  /** Extra globs of adapter files. */
  readonly files?: readonly string[];
  readonly maxFileSize?: number;
  /** YAML regions at least this long are parsed incrementally. */
  readonly chunkThreshold?: number;
}

/** One edit in offsets: [start, end) of the text before it became `text`. */
export interface TextChange {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

export interface ModelCache {
  /** The model of this version of the document, built if not cached; undefined: not an adapter, too large or too deep. */
  modelOf(doc: TextDocument, opts?: ModelOptions): AdapterModel | undefined;
  /** Where the last `modelOf` of `uri` found its text nested past the limit (it then built no model). */
  deepOf(uri: string): TooDeep | undefined;
  /** Whether the cache holds an entry for this exact version and text of the document, built under these options. */
  isCurrent(doc: TextDocument, opts?: ModelOptions): boolean;
  /** Whether the cache holds an entry for `uri`, with or without a model. */
  has(uri: string): boolean;
  /** Whether a model of `uri` is cached. */
  holdsModel(uri: string): boolean;
  /** Drops the entry of `uri` (a version read once) and nothing else. */
  drop(uri: string): void;
  /** Drops everything kept for `uri`: its model, its pending edits, its parked model. */
  forget(uri: string): void;
  /** Forgets `uri` but keeps its model as the one parked model. */
  park(uri: string): void;
  /** Version `from` of `uri` became `to` by these edits. */
  edited(uri: string, from: number, to: number, changes: readonly TextChange[]): void;
  /** The keystroke path's move rehearsed on the cached model of `uri` (patchEntry.ts rehearseMove); nothing else changes. */
  warmUp(uri: string): boolean;
}

/** `once`: each text is read once (the CLI), so models are built whole, not in reusable chunks. */
export function createModelCache(once: boolean | undefined): ModelCache {
  /** Per uri: the model of one version and text, built under the options `key` names (keyOf). */
  const cache = new Map<string, { version: number; text: TextSource; key: string; model: AdapterModel | undefined; deep?: TooDeep }>();
  /** Per uri: the union of the edits from version `from` to version `to` (offsets of `to`'s text at the new end). */
  const pending = new Map<string, { from: number; to: number; change: Change }>();
  /** The last model `park`ed, with the options it was built with. */
  let parked: { uri: string; text: TextSource; key: string; model: AdapterModel | undefined } | undefined;

  const forget = (uri: string) => {
    cache.delete(uri);
    pending.delete(uri);
    if (parked?.uri === uri) parked = undefined;
  };
  return {
    modelOf(doc, opts) {
      // In pieces when the document keeps it so (the language server's): read near the edit on the keystroke path.
      const text = sourceOf(doc);
      const key = keyOf(opts);
      const cached = cache.get(doc.uri);
      // A model built under other options (a settings change) is not reused, not even as the previous parse.
      const hit = cached?.key === key ? cached : undefined;
      if (hit && hit.version === doc.version && sameText(hit.text, text)) return hit.model;
      if (!hit && parked?.uri === doc.uri && parked.key === key && sameText(parked.text, text)) {
        const model = parked.model;
        parked = undefined;
        if (model && text.length <= maxSizeOf(opts)) {
          cache.set(doc.uri, { version: doc.version, text, key, model });
          return model;
        }
      }
      const p = pending.get(doc.uri);
      pending.delete(doc.uri);
      const change = p && hit && p.from === hit.version && p.to === doc.version ? p.change : undefined;
      // Lone CRs read as LF (parse/lineEnds.ts), as buildModel reads them: front matter and nesting are found in that text.
      // A text over the size limit is not read at all (not even for its line ends).
      const lf = text.length > maxSizeOf(opts) ? undefined : lfLineEnds(text).text;
      const cls = lf === undefined ? undefined : classify(doc.uri, lf, opts?.files);
      const deep =
        cls && lf !== undefined && !(hit?.model && !hit.deep && change && withinLine(hit.text, text, change))
          ? deepIn(cls, lf.toString())
          : undefined;
      const model =
        cls && !deep
          ? buildModel(doc.uri, text, opts?.files, { previous: hit?.model, chunkThreshold: opts?.chunkThreshold, change, once })
          : undefined;
      cache.set(doc.uri, { version: doc.version, text, key, model, deep });
      return model;
    },
    deepOf: uri => cache.get(uri)?.deep,
    isCurrent(doc, opts) {
      const hit = cache.get(doc.uri);
      return !!hit && hit.version === doc.version && sameText(hit.text, sourceOf(doc)) && hit.key === keyOf(opts);
    },
    has: uri => cache.has(uri),
    holdsModel: uri => !!cache.get(uri)?.model,
    drop: uri => cache.delete(uri),
    forget,
    park(uri) {
      const hit = cache.get(uri);
      forget(uri);
      if (hit?.model) parked = { uri, text: hit.text, key: hit.key, model: hit.model };
    },
    edited(uri, from, to, changes) {
      let p = pending.get(uri);
      if (p && p.to !== from) p = undefined;
      let change = p?.change;
      for (const c of changes) {
        const next: Change = { start: c.start, oldEnd: c.end, newEnd: c.start + c.text.length };
        change = change ? mergeChanges(change, next) : next;
      }
      if (change) pending.set(uri, { from: p?.from ?? from, to, change });
      else pending.delete(uri);
    },
    warmUp(uri) {
      const model = cache.get(uri)?.model;
      const state = model?.parseState as ChunkState | undefined;
      return !!state && Array.isArray(state.pieces) && model!.sections.length === 1 && rehearseMove(state, model!.sections[0]!.base);
    },
  };
}

/**
 * Whether two texts are the same: the same object (a version in pieces is one object), or equal strings. Two
 * different objects of the same length are compared whole (an open of a parked file: both strings already).
 */
function sameText(a: TextSource, b: TextSource): boolean {
  return a === b || (a.length === b.length && a.toString() === b.toString());
}

/** The options a model was built under (ModelOptions), as one comparable text. */
function keyOf(opts: ModelOptions | undefined): string {
  return JSON.stringify([opts?.files ?? [], maxSizeOf(opts), opts?.chunkThreshold ?? null]);
}

/** Where the file's YAML (or JSON) text nests past MAX_NESTING, by the linear scan that runs before any parse. */
export function deepIn(cls: Classified, text: string): TooDeep | undefined {
  return nestingOverflow(text, cls.region.start, cls.region.end);
}

/**
 * A keystroke: an edit inside one line of a text that was scanned and found shallow. It spares the
 * keystroke the nesting scan of the whole file; the parse's own depth check (parse/compose.ts) still
 * guards the composer.
 */
function withinLine(before: TextSource, after: TextSource, c: Change): boolean {
  if (c.oldEnd - c.start > 256 || c.newEnd - c.start > 256) return false;
  const lineBreak = /[\r\n]/;
  return !lineBreak.test(before.slice(c.start, c.oldEnd)) && !lineBreak.test(after.slice(c.start, c.newEnd));
}
