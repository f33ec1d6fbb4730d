/**
 * A thread of `check` (cli/check/pool.ts; the bundled dist/cli.js itself, started with WORKER_MARK, or the main thread):
 * indexes the batches of files it is given, takes every declared name once, then validates batches, each
 * against the declarations its files need (cli/check/batchWorkspace.ts), one file at a time (each model dropped
 * after use, so a worker's memory is bounded by one file, the run's names and a batch's declarations).
 * Uses the shared node/workspacePass path.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { createAdapterService, type ServiceOptions } from '../../service';
import { pathFromUri } from '../../node/bytePaths';
import { entriesOf, validateFiles } from '../../node/workspacePass';
import { deps } from '../deps';
import { readText } from './inProcess';
import { BatchWorkspace } from './batchWorkspace';
import { packIndexed, slim } from './declarationsPack';
import type { IndexedFile, ReadFailure } from '../indexedFile';
import type { FromWorker, ToWorker, ValidatedFile } from './messages';

const post = (m: FromWorker) => parentPort!.postMessage(m);

/** Marks a worker thread started for `check` (dist/cli.js is its own worker script). */
export const WORKER_MARK = 'mcp-aql-check-worker';

/**
 * What a check thread does with each message: `names` is kept (no answer), a batch is answered. The
 * worker thread posts the answers; the main thread runs one of these too, as one of the pool's
 * threads (cli/check/pool.ts `LocalPort`).
 */
export function checkHandler(): (m: ToWorker) => FromWorker | undefined {
  // The index pass sends each file's entries on as it reads them (indexing reads no other file);
  // validation reads the run's names (`names`, once) and each batch's declarations (cli/check/batchWorkspace.ts).
  const workspace = new BatchWorkspace();
  const service = createAdapterService({ ...deps, workspace });
  return m => {
    try {
      if (m.type === 'names') {
        workspace.useNames(m.names);
        return undefined;
      }
      const byUri = new Map(m.uris.map((u, i) => [u, i] as const));
      const opts = (uri: string): ServiceOptions => {
        const i = byUri.get(uri);
        return i === undefined ? {} : m.opts.sets[m.opts.of[i]!]!;
      };
      const failed: ReadFailure[] = [];
      const read = (uri: string) => {
        const i = byUri.get(uri);
        return readText(i === undefined ? pathFromUri(uri) : m.paths[i]!, f => failed.push(f));
      };
      if (m.type === 'index') {
        const files: IndexedFile[] = [];
        for (const uri of m.uris) {
          const text = read(uri);
          const e = text === undefined ? undefined : entriesOf(service, uri, text, opts(uri));
          files.push(
            e
              ? { uri, adapter: true, decls: e.declarations.map(slim), refs: [...new Set(e.occurrences.map(o => o.code))] }
              : { uri, adapter: false, decls: [], refs: [] },
          );
        }
        return { type: 'indexed', batch: m.batch, json: packIndexed(files), failed };
      }
      workspace.setBatch(m.json);
      const results: ValidatedFile[] = [];
      for (const r of validateFiles(service, m.uris, read, opts))
        results.push({ uri: r.uri, diagnostics: r.diagnostics, text: r.diagnostics.length ? r.text : '' });
      return { type: 'validated', batch: m.batch, results, failed, declarations: workspace.received };
    } catch (e) {
      return { type: 'error', message: e instanceof Error ? (e.stack ?? e.message) : String(e) };
    }
  };
}

function runCheckWorker(): void {
  const handle = checkHandler();
  parentPort!.on('message', (m: ToWorker) => {
    const answer = handle(m);
    if (answer) post(answer);
  });
}

if (!isMainThread && (workerData as { mark?: string } | undefined)?.mark === WORKER_MARK) runCheckWorker();
