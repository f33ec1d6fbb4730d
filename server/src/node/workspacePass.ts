/**
 * The one "adapter files → index → validate" path shared by the CLI, the server's workspace indexer
 * and its Validate Workspace request. Pure over a `read` function (the caller decides where text comes
 * from: disk, an open document); models of files read here are dropped after use, so memory stays
 * bounded by one file, not the workspace.
 */
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from 'vscode-languageserver-types';
import {
  maxSizeOf,
  piecesOf,
  sourceOf,
  type AdapterService,
  type IndexEntries,
  type LiveEntries,
  type ServiceOptions,
  type TextSource,
  type WorkspaceIndex,
} from '../service';

/** A file's text, or undefined when it cannot be read (or is over the size limit for indexing). */
type ReadText = (uri: string) => string | undefined;

/**
 * Files read from disk at least this long are indexed through their model, which is then parked (or
 * kept for the CLI's validation: one parse of a large file, not two). Smaller files take the service's
 * fast index scan, which builds no model. The server's scan passes `Infinity` (`modelFrom`): it
 * validates nothing, and one step of its scan must stay short, since an opened file's first diagnostics
 * wait for the step in progress (a 550 KB adapter: about 150 ms by the fast scan, 600 ms by its model).
 */
export const MODEL_INDEX_SIZE = 256 * 1024;

/**
 * Per index, what each file was last indexed from (a fingerprint of its text and the options) and the
 * index's signature for it then: indexing the same text again (the editor opening a file the scan just
 * indexed: 220 ms at 10,000 codes) is skipped while the index still holds what that indexing put there.
 */
const indexedFrom = new WeakMap<WorkspaceIndex, Map<string, { readonly from: string; readonly signature: string }>>();

/** Two 32-bit multiplicative hashes of the text (and its length) in one pass: 64 bits against an accidental match. */
export function fingerprint(text: TextSource): string {
  let a = 0x811c9dc5,
    b = 0x9e3779b9;
  // Piece by piece for an open document kept in pieces (not made whole for this); the same value as the whole text's.
  for (const piece of piecesOf(text))
    for (let i = 0; i < piece.length; i++) {
      const c = piece.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
    }
  return `${text.length}:${(a >>> 0).toString(36)}:${(b >>> 0).toString(36)}`;
}

/**
 * Whether to keep the model a file was indexed through (the fast scan could not read it) for its
 * validation, instead of parking it: the caller validates it next and drops it then (`validateFiles`
 * forgets each model it used).
 */
export type KeepModel = (uri: string, text: string) => boolean;

/**
 * Index one file from its text (non-adapters are removed from the index). Returns whether what
 * other files depend on (its declared codes, categories, details keys) changed. `remember`: note what
 * the file was indexed from (a fingerprint of its text and options), so that indexing the same text
 * again is skipped; a caller that never indexes a file twice (the CLI's scan) saves the fingerprint.
 * `modelFrom`: a text read from disk at least this long is read through its model (MODEL_INDEX_SIZE).
 */
export function indexText(
  service: AdapterService,
  index: WorkspaceIndex,
  uri: string,
  text: string | TextDocument,
  opts: ServiceOptions,
  keep?: KeepModel,
  remember = true,
  modelFrom = MODEL_INDEX_SIZE,
): boolean {
  const doc = typeof text === 'string' ? TextDocument.create(uri, 'yaml', 0, text) : text;
  const before = index.signature(uri);
  const done = indexedFrom.get(index);
  const last = done?.get(uri);
  // A text over its size limit is not read (its one file.too-large): indexing it again costs less than its
  // fingerprint (a 200 MB text: 0.6 s), so it gets none and is never taken as unchanged.
  const source = sourceOf(doc);
  const over = source.length > maxSizeOf(opts);
  const from = !over && (remember || last) ? `${fingerprint(source)}|${JSON.stringify(opts)}` : '';
  if (last && from !== '' && last.from === from && last.signature === before) {
    // The editor opened the file the scan just indexed (or re-indexed an unchanged text): nothing to redo,
    // and a model parked for it stays parked (park() here would drop it).
    return false;
  }
  // An open document (the editor's): from its current model, as the index compares it, else as a text read from disk.
  const e = typeof text === 'string' ? readEntries(service, doc, opts, modelFrom) : readLive(service, doc, opts);
  if (e) index.update(uri, e.declarations, e.occurrences);
  else index.remove(uri);
  if (typeof text === 'string' && !(keep && service.holdsModel(uri) && keep(uri, doc.getText()))) service.park(uri);
  const after = index.signature(uri);
  if (remember) (done ?? indexedFrom.set(index, new Map()).get(index)!).set(uri, { from, signature: after });
  else done?.delete(uri); // what it noted before is not what the index holds now
  return after !== before;
}

/**
 * `indexText` in two halves, for entries read elsewhere (the editor's scan thread, node/indexThread.ts): what
 * the text is noted as (its fingerprint and the options), or undefined when the index already holds what this
 * text gave it (nothing to read again)…
 */
export function toIndex(index: WorkspaceIndex, uri: string, text: string, opts: ServiceOptions): string | undefined {
  const last = indexedFrom.get(index)?.get(uri);
  const over = text.length > maxSizeOf(opts);
  const from = over ? '' : `${fingerprint(text)}|${JSON.stringify(opts)}`;
  return last && from !== '' && last.from === from && last.signature === index.signature(uri) ? undefined : from;
}

/** …and filing its entries (undefined: not an adapter) under that note. Returns whether what other files depend on changed. */
export function fileEntries(index: WorkspaceIndex, uri: string, entries: IndexEntries | undefined, from: string): boolean {
  const before = index.signature(uri);
  if (entries) index.update(uri, entries.declarations, entries.occurrences);
  else index.remove(uri);
  const after = index.signature(uri);
  const done = indexedFrom.get(index) ?? indexedFrom.set(index, new Map()).get(index)!;
  if (from === '') done.delete(uri);
  else done.set(uri, { from, signature: after });
  return after !== before;
}

/**
 * One file's entries as `indexText` files them, without an index or the bookkeeping an editor's index
 * needs (a CLI thread sends them on: cli/checkWorker.ts); undefined when the file is not an adapter.
 */
export function entriesOf(service: AdapterService, uri: string, text: string, opts: ServiceOptions): IndexEntries | undefined {
  const e = readEntries(service, TextDocument.create(uri, 'yaml', 0, text), opts, MODEL_INDEX_SIZE);
  service.park(uri);
  return e;
}

/** A document's index entries, undefined when it is not an adapter; a text of `modelFrom` or more is read through its model. */
function readEntries(service: AdapterService, doc: TextDocument, opts: ServiceOptions, modelFrom: number): IndexEntries | undefined {
  if (!service.isAdapter(doc, opts)) return undefined;
  return service.indexEntries(doc, opts, { model: sourceOf(doc).length >= modelFrom });
}

/**
 * An open document's index entries: read from its current model as the index compares them (`liveIndexEntries`),
 * else as a text read from disk is, never building a model for it.
 */
function readLive(service: AdapterService, doc: TextDocument, opts: ServiceOptions): LiveEntries | undefined {
  if (!service.isAdapter(doc, opts)) return undefined;
  return service.liveIndexEntries(doc, opts) ?? service.indexEntries(doc, opts, { model: false });
}

/**
 * Index every file of `uris` (unreadable ones are removed); yields after each file, so a caller can slice
 * the work. `remember`, `modelFrom`: as for `indexText` (the editor's scan, whose files the editor may open next).
 */
export function* indexFiles(
  service: AdapterService,
  index: WorkspaceIndex,
  uris: Iterable<string>,
  read: ReadText,
  opts: (uri: string) => ServiceOptions,
  keep?: KeepModel,
  remember = false,
  modelFrom = MODEL_INDEX_SIZE,
): Generator<{ uri: string; changed: boolean }> {
  for (const uri of uris) {
    const text = read(uri);
    if (text === undefined) {
      const had = index.signature(uri) !== '';
      index.remove(uri);
      yield { uri, changed: had };
      continue;
    }
    yield { uri, changed: indexText(service, index, uri, text, opts(uri), keep, remember, modelFrom) };
  }
}

interface FileResult {
  readonly uri: string;
  readonly text: string;
  readonly diagnostics: Diagnostic[];
}

/**
 * Validate every adapter file of `uris` against the service's workspace; yields one result per adapter
 * file (non-adapters and unreadable files yield nothing). `open(uri)` gives a live document whose
 * cached model must be kept.
 */
export function* validateFiles(
  service: AdapterService,
  uris: Iterable<string>,
  read: ReadText,
  opts: (uri: string) => ServiceOptions,
  open: (uri: string) => TextDocument | undefined = () => undefined,
): Generator<FileResult> {
  for (const uri of uris) {
    const live = open(uri);
    const text = live ? live.getText() : read(uri);
    if (text === undefined) continue;
    const doc = live ?? TextDocument.create(uri, 'yaml', 0, text);
    const o = opts(uri);
    if (!service.isAdapter(doc, o)) continue;
    const diagnostics = service.validate(doc, o);
    if (!live) service.forget(uri);
    yield { uri, text, diagnostics };
  }
}
