/**
 * A worker thread of `check` (cli/parallel.ts; the bundled dist/cli.js itself, started with WORKER_MARK): indexes its share of the files, then validates them
 * against the whole workspace's declarations, one file at a time (each model dropped after use, so a
 * worker's memory is bounded by one file plus the declarations). Uses the shared node/workspacePass path.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { createAdapterService, createWorkspaceIndex, type CodeDeclaration, type ServiceOptions } from '../service';
import { pathFromUri } from '../node/bytePaths';
import { indexFiles, validateFiles } from '../node/workspacePass';
import { deps } from './deps';
import { readText } from './checkFiles';
import { slim, type FromWorker, type ReadFailure, type ToWorker } from './parallel';

const post = (m: FromWorker) => parentPort!.postMessage(m);

/** Marks a worker thread started for `check` (dist/cli.js is its own worker script). */
export const WORKER_MARK = 'mcp-aql-check-worker';

function runCheckWorker(): void {
  parentPort!.on('message', (m: ToWorker) => {
    const index = createWorkspaceIndex();
    const service = createAdapterService({ ...deps, workspace: index });
    const byUri = new Map(m.uris.map((u, i) => [u, m.opts.sets[m.opts.of[i]!]!] as const));
    const opts = (uri: string): ServiceOptions => byUri.get(uri) ?? {};
    const failed: ReadFailure[] = [];
    const read = (uri: string) => readText(pathFromUri(uri), f => failed.push(f));
    try {
      if (m.type === 'index') {
        const out: { uri: string; adapter: boolean; decls: readonly CodeDeclaration[]; refs: string[] }[] = [];
        for (const r of indexFiles(service, index, m.uris, read, opts)) {
          out.push({ uri: r.uri, adapter: index.has(r.uri), decls: index.declaredIn(r.uri).map(slim), refs: index.referencedIn(r.uri) });
          index.remove(r.uri);
        }
        post({ type: 'indexed', files: out, failed });
      } else {
        for (const [uri, decls] of m.declarations) index.update(uri, decls, []);
        for (const r of validateFiles(service, m.uris, read, opts))
          post({ type: 'result', uri: r.uri, diagnostics: r.diagnostics, text: r.diagnostics.length ? r.text : '' });
        post({ type: 'validated', failed });
      }
    } catch (e) {
      post({ type: 'error', message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
    }
  });
}

if (!isMainThread && (workerData as { mark?: string } | undefined)?.mark === WORKER_MARK) runCheckWorker();
