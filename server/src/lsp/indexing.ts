/**
 * Keeping the workspace index current, driven by events (never by a diagnostics computation): the
 * initial scan of the workspace folders, watched-file events (one watcher, registered here
 * dynamically), and open documents — indexed when opened, re-indexed when typing pauses, re-read from
 * disk when closed. When a file's declared codes change, the *other* open files are re-validated.
 */
import { DidChangeWatchedFilesNotification, FileChangeType } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { maxSizeOf, sourceOf, type ServiceOptions } from '../service';
import type { ServerContext } from './context';
import { SLICE_MS } from './workspaceIndexer';
import { toServiceOptions } from './settings';
import { timeline } from './timeline';

/** Glob of the files whose changes can change the index (adapter candidates). */
const WATCHED_GLOB = '**/*.{yaml,yml,json,md}';

export interface DocumentIndexing {
  opened(doc: TextDocument): void;
  changed(doc: TextDocument): void;
  closed(uri: string): void;
  dispose(): void;
}

/**
 * An open document's codes matter only to other files: re-index once typing pauses, not per keystroke.
 * A pause is this long plus one validation of an edit, so that in a large file the re-index does not
 * land between a keystroke and the next one's diagnostics.
 */
const REINDEX_DELAY_MS = 300;

/**
 * An opened document this long (characters) is indexed from the model its first check builds, not by the fast
 * index scan before it: the scan's tree of the whole text was the open's largest garbage (about 200 MB at 14 MiB,
 * bench/NOTES.md "ninth sitting — a big file without its nodes"), and the check builds the model anyway. Meanwhile
 * the index counts as incomplete, so what depends on the document's codes is held back (scanGate.ts), never wrong.
 */
export const INDEX_FROM_MODEL_AT = 4 << 20;
/** How long such a document's first check is waited for (ms; a 14 MiB adapter's takes about 5 s of CPU). */
const FIRST_CHECK_WAIT_MS = 30_000;
/** How often, and how far apart (ms), such a document's filing waits for its model to be the current one again. */
const MODEL_TRIES = 20;
const MODEL_RETRY_MS = 100;

export function registerIndexing(ctx: ServerContext): DocumentIndexing {
  const { connection, indexer, scheduler } = ctx;
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const indexedVersion = new Map<string, number>();
  /** The options each document was last indexed with, and the latest options known for the workspace. */
  const usedOpts = new Map<string, ServiceOptions>();
  let latest: ServiceOptions = {};
  const indexNow = (doc: TextDocument, o: ServiceOptions) => {
    indexedVersion.set(doc.uri, doc.version);
    usedOpts.set(doc.uri, o);
    if (indexer.updateDocument(doc, o)) scheduler.refreshAll(doc.uri);
  };
  /**
   * Index synchronously with the options known now (so the document's codes never go missing while
   * settings are fetched), then again if its own settings say otherwise (mcpAql.files, maxFileSize).
   */
  const reindex = (doc: TextDocument) => {
    if (indexedVersion.get(doc.uri) === doc.version) return;
    indexNow(doc, usedOpts.get(doc.uri) ?? latest);
    void ctx.opts(doc.uri).then(o => {
      latest = { ...o, ignored: false };
      const now = ctx.documents.get(doc.uri);
      if (now && indexedVersion.get(doc.uri) === now.version && !sameIndexing(o, usedOpts.get(doc.uri))) indexNow(now, o);
    });
  };

  connection.onInitialized(() => {
    timeline(ctx.log, 'server initialized');
    if (ctx.features().watchedFilesRegistration) {
      void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: WATCHED_GLOB }] });
    }
    const folders = ctx.folders();
    // No folder, nothing to wait for: an opened file's diagnostics are complete from the first.
    if (!folders.length) indexer.firstScanDone();
    void (async () => {
      const t0 = Date.now();
      const editor = toServiceOptions(await ctx.settings.forUri(folders[0] ?? 'file:///'));
      latest = editor;
      // Progress in the editor's status bar, when the client shows server-initiated progress.
      const progress =
        folders.length && ctx.features().workDoneProgress
          ? await connection.window.createWorkDoneProgress().catch(() => undefined)
          : undefined;
      progress?.begin('MCP-AQL: indexing the workspace', undefined, '', false);
      if (folders.length) ctx.log(`scanning ${folders.length} folder(s) for adapter files; open files are checked first`);
      timeline(ctx.log, 'server scan');
      let shown = 0;
      const report = (seen: number) => {
        if (progress && Date.now() - shown >= 250) {
          shown = Date.now();
          progress.report(`${seen} files`);
        }
      };
      // Each file under its own config file (.mcp-aql.yaml: files, ignore, maxFileSize). The open documents'
      // validations go first: the scan waits for them between files.
      const n = await indexer
        .scan(folders, uri => ctx.withConfig(uri, editor), {
          stopped: ctx.isDown,
          progress: p => report(p.seen),
          yieldTo: () => scheduler.idle(),
          first: () => scheduler.checkedOnce(ctx.documents.all().map(d => d.uri)),
        })
        .finally(() => progress?.done());
      ctx.log(`indexed ${indexer.index.size} adapter file(s), ${n} declaring codes, in ${folders.length} folder(s), ${Date.now() - t0} ms`);
      timeline(ctx.log, 'server scanned');
    })()
      .catch(e => ctx.log(`workspace scan failed: ${e instanceof Error ? e.stack : String(e)}`))
      .finally(() => {
        // What was held back while the scan ran (scanGate.ts), and what resolves now, is published.
        if (folders.length) {
          indexer.firstScanDone();
          scheduler.refreshAll();
        }
      });
  });

  connection.onDidChangeWatchedFiles(async ({ changes }) => {
    let changed = ctx.configFilesChanged(changes.map(c => c.uri));
    let sliceStart = Date.now();
    for (const c of changes) {
      const o = await ctx.opts(c.uri);
      changed = (c.type === FileChangeType.Deleted ? indexer.remove(c.uri) : indexer.readFromDisk(c.uri, o)) || changed;
      // A branch switch can change thousands of files: yield to requests between slices, as the scan does.
      if (Date.now() - sliceStart >= SLICE_MS) {
        await new Promise(res => setImmediate(res));
        sliceStart = Date.now();
      }
    }
    if (changed) scheduler.refreshAll();
  });

  /**
   * Big documents opened and not indexed yet: their first check's model will be (`opened`). The open's own change
   * event (the library sends one after each open) and edits before that check do not index them by the fast scan.
   */
  const awaitingModel = new Set<string>();
  /**
   * Files opened big document `uri` from its model once that model is the current one: the idle-time rehearsal of a
   * keystroke (rehearseKeystroke.ts) validates a copy right after the first check, and a document indexed meanwhile
   * would be read by the fast scan, now beside the whole model (a 14 MiB adapter: 600 MB at the peak). Tried again
   * a little later, a few times, then filed whatever the model.
   */
  const fileFromModel = (uri: string, o: ServiceOptions, tries: number): void => {
    if (!awaitingModel.has(uri)) return; // closed meanwhile
    const now = ctx.documents.get(uri);
    if (now && !ctx.isDown() && !indexedVersion.has(uri)) {
      // Only an adapter within the size limit has a model to wait for (one too large is filed as having no codes).
      const modelled = () => sourceOf(now).length <= maxSizeOf(o) && ctx.service.isAdapter(now, o);
      if (tries > 0 && ctx.service.liveIndexEntries(now, o) === undefined && modelled()) {
        setTimeout(() => fileFromModel(uri, o, tries - 1), MODEL_RETRY_MS);
        return;
      }
      latest = { ...o, ignored: false };
      indexNow(now, o);
    }
    awaitingModel.delete(uri);
    // Held back until now, everywhere (this document's own mapping included): publish them.
    if (indexer.modelIndexed(uri)) scheduler.refreshAll();
  };
  return {
    opened(doc) {
      indexer.opened(doc.uri);
      if (sourceOf(doc).length < INDEX_FROM_MODEL_AT) return reindex(doc);
      indexer.awaitModel(doc.uri);
      awaitingModel.add(doc.uri);
      // The options its check is made with (its folder's config files too), asked now: known when the check is done.
      const opts = ctx.opts(doc.uri).catch(() => latest);
      // A client that never asks for its diagnostics does not hold the index incomplete for long: the fast scan then.
      const atMost = new Promise<void>(res => (setTimeout(res, FIRST_CHECK_WAIT_MS) as { unref?: () => void }).unref?.());
      void Promise.race([scheduler.checkedOnce([doc.uri]) ?? Promise.resolve(), atMost])
        .then(() => opts)
        .then(o => fileFromModel(doc.uri, o, MODEL_TRIES));
    },
    changed(doc) {
      if (awaitingModel.has(doc.uri)) return;
      clearTimeout(timers.get(doc.uri));
      timers.set(
        doc.uri,
        setTimeout(
          () => {
            timers.delete(doc.uri);
            const now = ctx.documents.get(doc.uri);
            if (now && !ctx.isDown()) reindex(now);
          },
          indexedVersion.has(doc.uri) ? REINDEX_DELAY_MS + Math.min(scheduler.editCost, 2000) : 0,
        ),
      );
    },
    closed(uri) {
      awaitingModel.delete(uri);
      clearTimeout(timers.get(uri));
      timers.delete(uri);
      indexedVersion.delete(uri);
      usedOpts.delete(uri);
      if (!indexer.isOpen(uri)) return;
      void ctx.opts(uri).then(o => {
        if (indexer.closed(uri, o)) scheduler.refreshAll();
      });
    },
    dispose() {
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
    },
  };
}

/** Whether two option sets index a file the same way (which files are adapters, the size limit). */
function sameIndexing(a: ServiceOptions, b: ServiceOptions | undefined): boolean {
  return (
    !!b && a.maxFileSize === b.maxFileSize && !!a.ignored === !!b.ignored && JSON.stringify(a.files ?? []) === JSON.stringify(b.files ?? [])
  );
}
