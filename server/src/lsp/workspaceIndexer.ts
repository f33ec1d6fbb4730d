/**
 * Keeps the service's workspace index current: a scan of the workspace folders at start (adapter
 * files only, bounded), watched-file events, and the live text of open documents. Reads files, never
 * writes. A folder is untrusted (issue 13): each real directory is scanned once, links leading out of
 * the workspace folder are not followed, only regular files are read.
 */
import { realpathSync } from 'node:fs';
import { relative, isAbsolute } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readRegularFile } from '../fs/readRegularFile';
import { isInside, LINK_OUTSIDE, walkTree } from '../fs/walkTree';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createWorkspaceIndex, type AdapterService, type ServiceOptions, type WorkspaceIndex } from '../service';

const SKIP = new Set(['node_modules', '.git', 'dist', 'out', '.cache', '.e2e', '.vscode-test']);
const CANDIDATE = /\.(?:ya?ml|json|md)$/i;
export const MAX_SCANNED_FILES = 5000;
const DEFAULT_MAX = 4.5 * 1024 * 1024;

export class WorkspaceIndexer {
  readonly index: WorkspaceIndex = createWorkspaceIndex();
  private readonly open = new Set<string>();
  /** The workspace folders, as given and as real paths. */
  private readonly roots: { dir: string; real: string }[] = [];
  constructor(private readonly service: AdapterService, private readonly log: (msg: string) => void = () => {}) {}

  /** Index one document's codes; returns whether its declared code names changed. */
  updateDocument(doc: TextDocument, opts: ServiceOptions): boolean {
    const before = names(this.index, doc.uri);
    if (!this.service.isAdapter(doc, opts)) { this.index.remove(doc.uri); return before !== ''; }
    this.index.update(doc.uri, this.service.declaredCodes(doc, opts), this.service.codeOccurrences(doc, opts));
    return names(this.index, doc.uri) !== before;
  }

  opened(uri: string): void { this.open.add(uri); }
  closed(uri: string, opts: ServiceOptions): void { this.open.delete(uri); this.readFromDisk(uri, opts); }
  isOpen(uri: string): boolean { return this.open.has(uri); }

  /**
   * A file's text, if it may be read: a regular file, not over maxFileSize, not reached through a
   * link that leads out of the workspace folder it lies in.
   */
  readText(uri: string, opts: ServiceOptions): string | { why: string; tooLarge?: boolean } {
    let path: string;
    try { path = fileURLToPath(uri); } catch { return { why: 'not a file: URI' }; }
    const root = this.roots.find(r => { const rel = relative(r.dir, path); return !rel.startsWith('..') && !isAbsolute(rel); });
    if (root) {
      let real: string | undefined;
      try { real = realpathSync(path); } catch { /* missing: the read says so */ }
      if (real && !isInside(real, root.real)) return { why: LINK_OUTSIDE };
    }
    const read = readRegularFile(path, opts.maxFileSize ?? DEFAULT_MAX);
    return read.ok ? read.bytes.toString('utf8') : { why: read.message, tooLarge: read.reason === 'too-large' };
  }

  /** Re-read a file from disk (a watched-file event for a file that is not open). */
  readFromDisk(uri: string, opts: ServiceOptions): boolean {
    if (this.open.has(uri)) return false;
    const text = this.readText(uri, opts);
    if (typeof text !== 'string') {
      const had = names(this.index, uri) !== '';
      this.index.remove(uri);
      return had || !!text.tooLarge;
    }
    return this.updateDocument(TextDocument.create(uri, 'yaml', 0, text), opts);
  }

  remove(uri: string): boolean { const had = names(this.index, uri) !== ''; this.index.remove(uri); return had; }

  /** Scan folders for adapter files; returns how many were indexed. */
  scan(folderUris: readonly string[], opts: ServiceOptions): number {
    let seen = 0, indexed = 0;
    for (const f of folderUris) {
      let dir: string, real: string;
      try { dir = fileURLToPath(f); real = realpathSync(dir); } catch { continue; /* not a file: URI, or gone */ }
      if (!this.roots.some(r => r.dir === dir)) this.roots.push({ dir, real });
      walkTree(dir, { root: real, skip: SKIP, candidate: n => CANDIDATE.test(n), maxDepth: 12 }, p => {
        if (++seen > MAX_SCANNED_FILES) return false;
        const uri = pathToFileURL(p).href;
        if (this.open.has(uri)) return;
        this.readFromDisk(uri, opts);
        if (this.index.declaredIn(uri).length) indexed++;
      }, n => this.log(`scan: ${n.path}: ${n.message.replace(/ \(--follow-symlinks to follow\)$/, '')}`));
    }
    return indexed;
  }
}

/** The code names a file declares, with their categories: what other files' diagnostics depend on. */
function names(index: WorkspaceIndex, uri: string): string {
  return index.declaredIn(uri).map(d => `${d.code}:${d.category ?? ''}:${d.details.map(x => x.name).join('+')}`).join(',');
}
