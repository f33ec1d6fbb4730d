/**
 * Keeps the service's workspace index current: a scan of the workspace folders (adapter files only,
 * any number of them, in slices that yield to requests), watched-file events, and the live text of
 * open documents. Reads files, never writes. Indexing itself is the shared path of node/workspacePass.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { DEFAULT_MAX_FILE_SIZE, type AdapterService, type ServiceOptions, type WorkspaceIndex } from '../service';
import { indexFiles, indexText } from '../node/workspacePass';

const SKIP = new Set(['node_modules', '.git', 'dist', 'out', '.cache', '.e2e', '.vscode-test']);
const CANDIDATE = /\.(?:ya?ml|json|md)$/i;
/** Work in slices of this many milliseconds, then yield to pending requests. */
export const SLICE_MS = 15;

export interface ScanProgress { readonly seen: number; readonly indexed: number }

export class WorkspaceIndexer {
  private readonly open = new Set<string>();
  constructor(private readonly service: AdapterService, readonly index: WorkspaceIndex) {}

  /** Index one document's codes from its live text; returns whether what other files depend on changed. */
  updateDocument(doc: TextDocument, opts: ServiceOptions): boolean { return indexText(this.service, this.index, doc.uri, doc, opts); }

  opened(uri: string): void { this.open.add(uri); }
  /** A document was closed: its text on disk is what counts again. Returns whether its codes changed. */
  closed(uri: string, opts: ServiceOptions): boolean { this.open.delete(uri); return this.readFromDisk(uri, opts); }
  isOpen(uri: string): boolean { return this.open.has(uri); }

  /** Re-read a file from disk (a watched-file event for a file that is not open). */
  readFromDisk(uri: string, opts: ServiceOptions): boolean {
    if (this.open.has(uri)) return false;
    let changed = false;
    for (const r of indexFiles(this.service, this.index, [uri], u => this.readText(u, opts), () => opts)) changed = r.changed;
    return changed;
  }

  /** The text of a file on disk, or undefined when it cannot be read or is over mcpAql.maxFileSize. */
  readText(uri: string, opts: ServiceOptions): string | undefined {
    try {
      const path = fileURLToPath(uri);
      if (statSync(path).size > (opts.maxFileSize ?? DEFAULT_MAX_FILE_SIZE)) return undefined;
      return readFileSync(path, 'utf8');
    } catch { return undefined; }
  }

  remove(uri: string): boolean { const had = this.index.signature(uri) !== ''; this.index.remove(uri); return had; }

  /**
   * Scan folders for adapter files and index them, every file (no cap), in slices of SLICE_MS that
   * yield to the event loop so requests are answered meanwhile. Open documents keep their live text.
   * Returns how many files declare codes.
   */
  async scan(folderUris: readonly string[], opts: ServiceOptions, o: { stopped?: () => boolean; progress?: (p: ScanProgress) => void } = {}): Promise<number> {
    let seen = 0, indexed = 0;
    const uris = (function* (self: WorkspaceIndexer) {
      for (const f of folderUris) for (const uri of candidateFiles(f)) { seen++; if (!self.open.has(uri)) yield uri; }
    })(this);
    let sliceStart = Date.now();
    for (const r of indexFiles(this.service, this.index, uris, u => this.readText(u, opts), () => opts)) {
      if (this.index.declaredIn(r.uri).length) indexed++;
      if (Date.now() - sliceStart >= SLICE_MS) {
        o.progress?.({ seen, indexed });
        await new Promise(res => setImmediate(res));
        if (o.stopped?.()) break;
        sliceStart = Date.now();
      }
    }
    return indexed;
  }
}

/** Candidate adapter files under a folder URI (by extension; the service decides what is an adapter). */
export function* candidateFiles(folderUri: string): Generator<string> {
  let root: string;
  try { root = fileURLToPath(folderUri); } catch { return; }
  const stack: [string, number][] = [[root, 0]];
  while (stack.length) {
    const [dir, depth] = stack.pop()!;
    if (depth > 32) continue;
    let entries: string[];
    try { entries = readdirSync(dir); } catch { continue; }
    for (const name of entries) {
      if (SKIP.has(name)) continue;
      const p = join(dir, name);
      let st;
      try { st = statSync(p); } catch { continue; }
      if (st.isDirectory()) stack.push([p, depth + 1]);
      else if (st.isFile() && CANDIDATE.test(name)) yield pathToFileURL(p).href;
    }
  }
}
