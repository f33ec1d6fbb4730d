/**
 * A thread of `check` (cli/parallel.ts; the bundled dist/cli.js itself, started with WORKER_MARK, or the main thread):
 * indexes the batches of files it is given, takes every declared name once, then validates batches, each
 * against the declarations its files need (cli/batchWorkspace.ts), one file at a time (each model dropped
 * after use, so a worker's memory is bounded by one file, the run's names and a batch's declarations).
 * Uses the shared node/workspacePass path.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { createAdapterService, createWorkspaceIndex, type ServiceOptions } from '../service';
import { pathFromUri } from '../node/bytePaths';
import { indexFiles, validateFiles } from '../node/workspacePass';
import { deps } from './deps';
import { readText } from './checkFiles';
import { BatchWorkspace } from './batchWorkspace';
import { packIndexed, slim } from './declarationsPack';
import { type FromWorker, type IndexedFile, type ReadFailure, type ToWorker, type ValidatedFile } from './parallel';

const post = (m: FromWorker) => parentPort!.postMessage(m);

/** Marks a worker thread started for `check` (dist/cli.js is its own worker script). */
export const WORKER_MARK = 'mcp-aql-check-worker';

/**
 * What a check thread does with each message: `names` is kept (no answer), a batch is answered. The
 * worker thread posts the answers; the main thread runs one of these too, as one of the pool's
 * threads (cli/parallel.ts `LocalPort`).
 */
export function checkHandler(): (m: ToWorker) => FromWorker | undefined {
  // The index pass files each file in an index of its own and takes it out again (that index stays
  // empty; indexing reads no other file); validation reads the run's names (`names`, once) and each
  // batch's declarations (cli/batchWorkspace.ts).
  const index = createWorkspaceIndex();
  const workspace = new BatchWorkspace();
  const service = createAdapterService({ ...deps, workspace });
  return m => {
    try {
      if (m.type === 'names') {
        workspace.setNames(m.json);
        return undefined;
      }
      const byUri = new Map(m.uris.map((u, i) => [u, m.opts.sets[m.opts.of[i]!]!] as const));
      const opts = (uri: string): ServiceOptions => byUri.get(uri) ?? {};
      const failed: ReadFailure[] = [];
      const read = (uri: string) => readText(pathFromUri(uri), f => failed.push(f));
      if (m.type === 'index') {
        const files: IndexedFile[] = [];
        for (const r of indexFiles(service, index, m.uris, read, opts)) {
          files.push({ uri: r.uri, adapter: index.has(r.uri), decls: index.declaredIn(r.uri).map(slim), refs: index.dependsOn(r.uri) });
          index.remove(r.uri);
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
