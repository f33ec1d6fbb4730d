/**
 * Keeps the service's workspace index current: a scan of the workspace folders at start (adapter
 * files only, bounded), watched-file events, and the live text of open documents. Reads files, never
 * writes.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createWorkspaceIndex, type AdapterService, type ServiceOptions, type WorkspaceIndex } from '../service';

const SKIP = new Set(['node_modules', '.git', 'dist', 'out', '.cache', '.e2e', '.vscode-test']);
const CANDIDATE = /\.(?:ya?ml|json|md)$/i;
export const MAX_SCANNED_FILES = 5000;

export class WorkspaceIndexer {
  readonly index: WorkspaceIndex = createWorkspaceIndex();
  private readonly open = new Set<string>();
  constructor(private readonly service: AdapterService) {}

  /** Index one document's codes; returns whether its declared code names changed. */
  updateDocument(doc: TextDocument, opts: ServiceOptions): boolean {
    const before = names(this.index, doc.uri);
    if (!this.service.isAdapter(doc, opts)) { this.index.remove(doc.uri); return before !== ''; }
    this.index.update(doc.uri, this.service.declaredCodes(doc, opts), this.service.codeOccurrences(doc, opts));
    return names(this.index, doc.uri) !== before;
  }

  opened(uri: string): void { this.open.add(uri); }
  /** A document was closed: its text on disk is what counts again. Returns whether its codes changed. */
  closed(uri: string, opts: ServiceOptions): boolean { this.open.delete(uri); return this.readFromDisk(uri, opts); }
  isOpen(uri: string): boolean { return this.open.has(uri); }

  /** Re-read a file from disk (a watched-file event for a file that is not open). */
  readFromDisk(uri: string, opts: ServiceOptions): boolean {
    if (this.open.has(uri)) return false;
    const text = this.readText(uri, opts);
    if (text === undefined) return this.remove(uri);
    return this.updateDocument(TextDocument.create(uri, 'yaml', 0, text), opts);
  }

  /** The text of a file on disk, or undefined when it cannot be read or is over mcpAql.maxFileSize. */
  readText(uri: string, opts: ServiceOptions): string | undefined {
    try {
      const path = fileURLToPath(uri);
      if (statSync(path).size > (opts.maxFileSize ?? 4.5 * 1024 * 1024)) return undefined;
      return readFileSync(path, 'utf8');
    } catch { return undefined; }
  }

  remove(uri: string): boolean { const had = names(this.index, uri) !== ''; this.index.remove(uri); return had; }

  /** Scan folders for adapter files; returns how many were indexed. */
  scan(folderUris: readonly string[], opts: ServiceOptions): number {
    let seen = 0, indexed = 0;
    const walk = (dir: string, depth: number) => {
      if (depth > 12 || seen > MAX_SCANNED_FILES) return;
      let entries: string[];
      try { entries = readdirSync(dir); } catch { return; }
      for (const name of entries) {
        if (SKIP.has(name) || seen > MAX_SCANNED_FILES) continue;
        const p = join(dir, name);
        let st;
        try { st = statSync(p); } catch { continue; }
        if (st.isDirectory()) walk(p, depth + 1);
        else if (st.isFile() && CANDIDATE.test(name)) {
          seen++;
          const uri = pathToFileURL(p).href;
          if (this.open.has(uri)) continue;
          this.readFromDisk(uri, opts);
          if (this.index.declaredIn(uri).length) indexed++;
        }
      }
    };
    for (const f of folderUris) { try { walk(fileURLToPath(f), 0); } catch { /* not a file: URI */ } }
    return indexed;
  }
}

/** The code names a file declares, with their categories: what other files' diagnostics depend on. */
function names(index: WorkspaceIndex, uri: string): string {
  return index.declaredIn(uri).map(d => `${d.code}:${d.category ?? ''}:${d.details.map(x => x.name).join('+')}`).join(',');
}
