/**
 * Keeping the workspace index current, driven by events (never by a diagnostics computation): the
 * initial scan of the workspace folders, watched-file events (one watcher, registered here
 * dynamically), and open documents — indexed when opened, re-indexed when typing pauses, re-read from
 * disk when closed. When a file's declared codes change, the *other* open files are re-validated.
 */
import { DidChangeWatchedFilesNotification, FileChangeType } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ServerContext } from './context';

/** Glob of the files whose changes can change the index (adapter candidates). */
export const WATCHED_GLOB = '**/*.{yaml,yml,json,md}';

export interface DocumentIndexing {
  opened(doc: TextDocument): void;
  changed(doc: TextDocument): void;
  closed(uri: string): void;
  dispose(): void;
}

/** An open document's codes matter only to other files: re-index once typing pauses, not per keystroke. */
const REINDEX_DELAY_MS = 300;

export function registerIndexing(ctx: ServerContext): DocumentIndexing {
  const { connection, indexer, scheduler } = ctx;
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const indexedVersion = new Map<string, number>();
  const reindex = async (doc: TextDocument) => {
    if (indexedVersion.get(doc.uri) === doc.version) return;
    indexedVersion.set(doc.uri, doc.version);
    if (indexer.updateDocument(doc, await ctx.opts(doc.uri))) scheduler.refreshAll(doc.uri);
  };

  connection.onInitialized(() => {
    if (ctx.features().watchedFilesRegistration) {
      void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: WATCHED_GLOB }] });
    }
    void (async () => {
      const folders = ctx.folders();
      const t0 = Date.now();
      const n = await indexer.scan(folders, await ctx.opts(folders[0] ?? 'file:///'), { stopped: ctx.isDown });
      ctx.log(`indexed ${indexer.index.size} adapter file(s), ${n} declaring codes, in ${folders.length} folder(s), ${Date.now() - t0} ms`);
      if (n) scheduler.refreshAll();
    })();
  });

  connection.onDidChangeWatchedFiles(async ({ changes }) => {
    let changed = false;
    for (const c of changes) {
      const o = await ctx.opts(c.uri);
      changed = (c.type === FileChangeType.Deleted ? indexer.remove(c.uri) : indexer.readFromDisk(c.uri, o)) || changed;
    }
    if (changed) scheduler.refreshAll();
  });

  return {
    opened(doc) { indexer.opened(doc.uri); void reindex(doc); },
    changed(doc) {
      clearTimeout(timers.get(doc.uri));
      timers.set(doc.uri, setTimeout(() => {
        timers.delete(doc.uri);
        const now = ctx.documents.get(doc.uri);
        if (now && !ctx.isDown()) void reindex(now);
      }, indexedVersion.has(doc.uri) ? REINDEX_DELAY_MS : 0));
    },
    closed(uri) {
      clearTimeout(timers.get(uri));
      timers.delete(uri);
      indexedVersion.delete(uri);
      if (!indexer.isOpen(uri)) return;
      void ctx.opts(uri).then(o => { if (indexer.closed(uri, o)) scheduler.refreshAll(); });
    },
    dispose() { for (const t of timers.values()) clearTimeout(t); timers.clear(); },
  };
}
