/**
 * A worker thread of `check` (cli/parallel.ts): indexes its share of the files, then validates them
 * against the whole workspace's declarations, one file at a time (each model dropped after use, so a
 * worker's memory is bounded by one file plus the declarations). Uses the shared node/workspacePass path.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parentPort } from 'node:worker_threads';
import { createAdapterService, createWorkspaceIndex, type CodeDeclaration, type ServiceOptions } from '../service';
import { indexFiles, validateFiles } from '../node/workspacePass';
import { deps } from './deps';
import type { FromWorker, ToWorker } from './parallel';

const decoder = new TextDecoder('utf-8', { fatal: false });
const post = (m: FromWorker) => parentPort!.postMessage(m);

class ReadError extends Error { constructor(message: string, readonly uri: string) { super(message); } }

function read(uri: string): string {
  try { return decoder.decode(readFileSync(fileURLToPath(uri))); } catch (e) { throw new ReadError((e as Error).message, uri); }
}

parentPort!.on('message', (m: ToWorker) => {
  const index = createWorkspaceIndex();
  const service = createAdapterService({ ...deps, workspace: index });
  const opts: ServiceOptions = m.opts;
  try {
    if (m.type === 'index') {
      const out: { uri: string; adapter: boolean; decls: readonly CodeDeclaration[]; refs: string[] }[] = [];
      for (const r of indexFiles(service, index, m.uris, read, () => opts)) {
        out.push({ uri: r.uri, adapter: index.has(r.uri), decls: index.declaredIn(r.uri), refs: index.referencedIn(r.uri) });
        index.remove(r.uri);
      }
      post({ type: 'indexed', files: out });
    } else {
      for (const [uri, decls] of m.declarations) index.update(uri, decls, []);
      for (const r of validateFiles(service, m.uris, read, () => opts)) post({ type: 'result', uri: r.uri, diagnostics: r.diagnostics, text: r.diagnostics.length ? r.text : '' });
      post({ type: 'validated' });
    }
  } catch (e) {
    if (e instanceof ReadError) post({ type: 'error', uri: e.uri, message: e.message });
    else post({ type: 'error', message: e instanceof Error ? e.stack ?? e.message : String(e) });
  }
});
