/**
 * `check` in this process (`--jobs 1`, standard input, a fix pass): the index pass and the validation
 * share one index and one service (cli/check/checkFiles.ts drives them; cli/check/pool.ts is the threaded
 * backend). Each file is parsed once: a file the fast index scan cannot read (anchors, tags, block
 * scalars…) is indexed through its model, which is kept (within KEEP_TEXT) until its validation reads
 * it. A run without a fix pass or a cache validates against the index its index pass built, which holds
 * what a worker's validation reads (`slim` declarations), not a second one rebuilt from them.
 */
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from 'vscode-languageserver-types';
import {
  createAdapterService,
  createWorkspaceIndex,
  itemsOf,
  maxSizeOf,
  type AdapterService,
  type CodeDeclaration,
  type ServiceOptions,
  type WorkspaceCodes,
  type WorkspaceIndex,
} from '../../service';
import { pathFromUri } from '../../node/bytePaths';
import { readRegularFile } from '../../node/readRegularFile';
import { indexFiles, indexText, validateFiles } from '../../node/workspacePass';
import { BatchWorkspace, DeclarationsByCode, type NamesPerFile } from './batchWorkspace';
import { slim } from './declarationsPack';
import { deps } from '../deps';
import { fullCollection } from '../collections';
import type { IndexedFile, ReadFailure } from '../indexedFile';

const decoder = new TextDecoder('utf-8', { fatal: false });

/** Read a file's text, or record why it cannot be read (a worker does the same and sends the failure back). */
export function readText(path: string, failed: (f: ReadFailure) => void): string | undefined {
  const r = readRegularFile(path);
  if (r.ok) return decoder.decode(r.bytes);
  failed({ path, reason: r.reason, message: r.message });
  return undefined;
}

/**
 * Models kept from the index pass for the validation, in characters of their files' texts (a model
 * costs some ten times its text): past that, a file is parsed again when validated.
 */
export const KEEP_TEXT = 4 * 1024 * 1024;

export type Opts = (uri: string) => ServiceOptions;
/** Each file of the validation, in order: its result, or undefined when it gave none (unreadable now, not an adapter). */
export type OnResult = (uri: string, result: { diagnostics: Diagnostic[]; text: string } | undefined) => void;

export interface Backend {
  index(uris: readonly string[]): Promise<IndexedFile[]>;
  /** Between the passes (in-process only): apply the fix pass; returns the re-indexed files. */
  fix?(adapters: readonly string[]): Promise<IndexedFile[]>;
  /**
   * Validate against `declarations`; `refs(uri)`: the code names whose declarations the file's
   * diagnostics read (`WorkspaceIndex.dependsOn`). `asIndexed`: the declarations are exactly what the
   * index pass gave (no cache, no fix), in its order.
   */
  validate(
    uris: readonly string[],
    declarations: [string, readonly CodeDeclaration[]][],
    refs: (uri: string) => readonly string[],
    onResult: OnResult,
    asIndexed: boolean,
    /** Every declared name per file, when `declarations` holds only those the files need (not with `asIndexed`). */
    names?: NamesPerFile,
  ): Promise<void>;
  close(): Promise<void>;
}

/** How the in-process run reads: texts that replace the files' (standard input), a fix pass between the passes. */
export interface InProcessPass {
  readonly texts?: ReadonlyMap<string, string>;
  /**
   * The run checks this one file and keeps no cache: its validation reads only other files' declarations, so it
   * is not indexed; its text is read once and kept for its validation (a 14 MiB adapter: no index of its 67,500
   * codes beside its model; a file over its size limit is not read again; bench/NOTES.md, "Big files").
   */
  readonly alone?: boolean;
  readonly fix?: (
    service: AdapterService,
    adapters: readonly string[],
    read: (uri: string) => string | undefined,
  ) => Promise<ReadonlyMap<string, string>>;
}

const indexed = (index: WorkspaceIndex, uri: string): IndexedFile => ({
  uri,
  adapter: index.has(uri),
  decls: index.declaredIn(uri).map(slim),
  refs: index.dependsOn(uri),
});

/**
 * Without a fix pass (which reads other files' declarations and uses in full), the index files each
 * declaration as a worker's validation reads it, so the validation can read this index as it is.
 */
function slimming(index: WorkspaceIndex): WorkspaceIndex {
  const view = Object.create(index) as WorkspaceIndex;
  view.update = (uri, decls, occs) => index.update(uri, itemsOf(decls).map(slim), occs);
  return view;
}

/** A workspace that reads whichever `current` gives. */
function viewOf(current: () => WorkspaceCodes): WorkspaceCodes {
  return {
    declarations: (code, except) => current().declarations(code, except),
    allDeclarations: except => current().allDeclarations(except),
    names: (except, prefix) => current().names?.(except, prefix) ?? [],
    nearNames: (word, limit, except, accept) => current().nearNames?.(word, limit, except, accept) ?? [],
    occurrences: (code, except) => current().occurrences(code, except),
  };
}

/** `index`: the run's index (a test passes one that counts); `pathOf`: each URI's file, as listed. */
export function inProcess(
  opts: Opts,
  failed: (f: ReadFailure) => void,
  pass: InProcessPass,
  index: WorkspaceIndex = createWorkspaceIndex(),
  pathOf: (uri: string) => string = pathFromUri,
): Backend {
  // The validation reads the index pass's index, or (declarations given by the cache) the names of
  // every declaration and the declarations the validated files need, as a worker does.
  let workspace: WorkspaceCodes = index;
  // Made at the first file (a `--cache` run with nothing changed reads none: no schema to compile).
  let made: AdapterService | undefined;
  const service = () => (made ??= createAdapterService({ ...deps, workspace: viewOf(() => workspace) }));
  const filing = pass.fix ? index : slimming(index);
  let texts = pass.texts ?? new Map<string, string>();
  /**
   * The index pass read a text over its size limit: its file gets one `file.too-large` and nothing is parsed, but
   * the text (and the bytes it was decoded from) would stay until the heap had grown to about twice what is live,
   * beside the validation's read of the same file: collected in full at once (a 200 MB file: a peak of 821 MB → 645).
   */
  let readOver = false;
  const read = (uri: string) => {
    const text = texts.get(uri) ?? readText(pathOf(uri), failed);
    if (text !== undefined && text.length > maxSizeOf(opts(uri))) readOver = true;
    return text;
  };
  /** Files whose model the index pass kept, with their texts' lengths. */
  const kept = new Map<string, number>();
  let keptText = 0;
  const keep = (uri: string, text: string) => {
    if (keptText + text.length > KEEP_TEXT) return false;
    keptText += text.length;
    kept.set(uri, text.length);
    return true;
  };
  return {
    async index(uris) {
      const out: IndexedFile[] = [];
      if (!uris.length) return out;
      if (pass.alone && !pass.fix && uris.length === 1) {
        const uri = uris[0]!;
        const text = read(uri);
        readOver = false; // kept for the validation, which reads nothing else
        if (text === undefined) return [{ uri, adapter: false, decls: [], refs: [] }];
        texts = new Map([...texts, [uri, text]]);
        const adapter = service().isAdapter(TextDocument.create(uri, 'yaml', 0, text), opts(uri));
        return [{ uri, adapter, decls: [], refs: [] }];
      }
      for (const r of indexFiles(service(), filing, uris, read, opts, keep)) {
        out.push(indexed(index, r.uri));
        if (readOver) readOver = !fullCollection();
      }
      return out;
    },
    fix:
      pass.fix &&
      (async adapters => {
        const fixed = await pass.fix!(service(), adapters, read);
        texts = new Map([...texts, ...fixed]);
        for (const [uri, text] of fixed) indexText(service(), index, uri, text, opts(uri));
        return [...fixed.keys()].map(uri => indexed(index, uri));
      }),
    async validate(uris, declarations, refs, onResult, asIndexed, names) {
      if (pass.fix) {
        // The same index, in the same order, as a worker reads.
        for (const uri of index.uris()) index.remove(uri);
        for (const [uri, decls] of declarations) index.update(uri, decls, []);
      } else if (!asIndexed) {
        const byCode = new DeclarationsByCode(declarations, names);
        const view = new BatchWorkspace();
        view.useNames(byCode.names);
        view.useBatch(byCode.forCodes(uris.flatMap(u => byCode.needs(u, refs(u)))));
        workspace = view;
      }
      for (const uri of uris) {
        let got: { diagnostics: Diagnostic[]; text: string } | undefined;
        for (const r of validateFiles(service(), [uri], read, opts))
          got = { diagnostics: r.diagnostics, text: r.diagnostics.length ? r.text : '' };
        // Validated (or not an adapter now): its model, if one was kept, is gone.
        keptText -= kept.get(uri) ?? 0;
        kept.delete(uri);
        if (pass.alone && !pass.texts?.has(uri)) texts = new Map([...texts].filter(([u]) => u !== uri));
        onResult(uri, got);
      }
    },
    async close() {
      /* nothing to release */
    },
  };
}
