/**
 * Keeps the service's workspace index current: a scan of the workspace folders (adapter files only, any
 * number of them, in slices that yield to requests), watched-file events, and the live text of open
 * documents. Reads files, never writes. Indexing itself is the shared path of node/workspacePass. A folder is
 * untrusted (docs/robustness.md, "Hostile repositories"): each real directory is scanned once, links leading
 * out of the workspace folder are not followed, only regular files are read (node/walkTree,
 * node/readRegularFile).
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { DEFAULT_MAX_FILE_SIZE, type AdapterService, type ServiceOptions, type WorkspaceIndex } from '../service';
import { fileUri, pathFromUri } from '../node/bytePaths';
import { readRegularFile } from '../node/readRegularFile';
import { isInside, LINK_OUTSIDE, walkTree, type WalkNote } from '../node/walkTree';
import { fileEntries, indexFiles, indexText, toIndex } from '../node/workspacePass';
import type { IndexThread } from '../node/indexThread';

const SKIP = new Set(['node_modules', '.git', 'dist', 'out', '.cache', '.e2e', '.vscode-test']);
const CANDIDATE = /\.(?:ya?ml|json|md)$/i;
/** Work in slices of this many milliseconds, then yield to pending requests. */
export const SLICE_MS = 8;
/**
 * The longest the scan waits between two files for the editor's own work (`ScanOptions.yieldTo`): a
 * validation that never ends (a client that never answers workspace/configuration), or one document
 * after another, must not stop the scan.
 */
const YIELD_LIMIT_MS = 2000;
/**
 * Files at least this long are read in the scan's thread (`scanInThread`); shorter ones here, where their step is a
 * few milliseconds: a workspace of small files never starts the thread (its start and its own heap cost more, about
 * 0.7 s of CPU and 45 MB at peak beside 12 MiB of adapters; docs/performance.md).
 */
const THREAD_FROM = 64 * 1024;
/** The longest the scan waits, before its first file, for the documents already open (`ScanOptions.first`). */
const FIRST_LIMIT_MS = 1000;

/**
 * Yield to the event loop for three of its turns. A message read from the client while the last step
 * ran reaches its handler two turns later: vscode-jsonrpc's stream reader decodes it in a `setImmediate`
 * (its read semaphore), then the connection handles one queued message per `setImmediate`. One turn
 * would resume the scan before the message is handled; three let it be handled — a `didOpen` registers
 * its validation, which `yieldTo` then waits for — before the next file. (Over IPC the reader has no
 * semaphore: one turn fewer.)
 */
const settleTurns = () => new Promise<void>(res => setImmediate(() => setImmediate(() => setImmediate(res))));

interface ScanProgress {
  readonly seen: number;
  readonly indexed: number;
}

interface ScanOptions {
  stopped?: () => boolean;
  progress?: (p: ScanProgress) => void;
  /** Work that goes before the scan's next file (the open documents' validations): a promise to wait for, or nothing. */
  yieldTo?: () => Promise<void> | undefined;
  /**
   * What to wait for (at most FIRST_LIMIT_MS) before the first file: the documents already open validated
   * once (a pulling client asks a moment after `didOpen`).
   */
  first?: () => Promise<void> | undefined;
}

export class WorkspaceIndexer {
  private readonly open = new Set<string>();
  /** The file the scan's thread is reading, and how to stop it (`opened`). */
  private inThread: { readonly uri: string; readonly stop: () => void } | undefined;
  private firstScan = false;
  private readonly firstScanWaiters: (() => void)[] = [];
  /** The scanned workspace folders, as given and as real paths: links may not lead out of them. */
  private readonly roots: { dir: string; real: string }[] = [];
  constructor(
    private readonly service: AdapterService,
    readonly index: WorkspaceIndex,
    private readonly log: (msg: string) => void = () => {},
    /** A thread to read the scan's files in (node/indexThread.ts); without it, the scan reads them in slices here. */
    private readonly thread?: () => IndexThread,
  ) {}

  /**
   * Whether the first scan of the workspace folders has finished (or there was nothing to scan): until
   * then a code name found nowhere may be declared in a file the scan has not read yet.
   */
  get complete(): boolean {
    return this.firstScan && !this.awaiting.size;
  }
  /** Open documents whose codes wait for their first check's model (`awaitModel`): until filed, the index lacks them. */
  private readonly awaiting = new Set<string>();
  /** An opened document is indexed from its model once its first check has built it: the index is not complete until then. */
  awaitModel(uri: string): void {
    this.awaiting.add(uri);
  }
  /** Its wait is over (filed, closed or never to be): returns whether that made the index complete. */
  modelIndexed(uri: string): boolean {
    return this.awaiting.delete(uri) && this.complete;
  }
  /** The first scan finished (or failed, or there are no folders): what it has not read is not there. */
  firstScanDone(): void {
    this.firstScan = true;
    for (const w of this.firstScanWaiters.splice(0)) w();
  }
  /** Resolves once the first scan has finished. */
  whenComplete(): Promise<void> {
    return this.firstScan ? Promise.resolve() : new Promise(res => this.firstScanWaiters.push(res));
  }

  /** Index one document's codes from its live text; returns whether what other files depend on changed. */
  updateDocument(doc: TextDocument, opts: ServiceOptions): boolean {
    return indexText(this.service, this.index, doc.uri, doc, opts);
  }

  /**
   * A document was opened: its live text is indexed from now on. If the scan's thread is reading it from disk, that
   * read is thrown away (its entries would not be filed) and the thread is ended at once: its heap (a 2 MiB adapter's
   * read: about 100 MB with the thread's own start) is then not held while the opened document's model is built
   * (bench/NOTES.md, "the open's peak"). The scan starts another thread for its next large file.
   */
  opened(uri: string): void {
    this.open.add(uri);
    if (this.inThread?.uri === uri) this.inThread.stop();
  }
  /** A document was closed: its text on disk is what counts again. Returns whether its codes changed. */
  closed(uri: string, opts: ServiceOptions): boolean {
    this.open.delete(uri);
    this.awaiting.delete(uri);
    return this.readFromDisk(uri, opts);
  }
  isOpen(uri: string): boolean {
    return this.open.has(uri);
  }

  /** Re-read a file from disk (a watched-file event for a file that is not open). */
  readFromDisk(uri: string, opts: ServiceOptions): boolean {
    if (this.open.has(uri)) return false;
    let changed = false;
    for (const r of indexFiles(
      this.service,
      this.index,
      [uri],
      u => this.readText(u, opts),
      () => opts,
      undefined,
      true,
      Infinity,
    ))
      changed = r.changed;
    return changed;
  }

  /**
   * The text of a file on disk, or undefined when it cannot be read, is over mcpAql.maxFileSize, is not
   * a regular file (a FIFO would block), or is reached through a link leading out of its workspace folder.
   */
  readText(uri: string, opts: ServiceOptions): string | undefined {
    let path: string;
    try {
      path = pathFromUri(uri);
    } catch {
      return undefined;
    }
    const root = this.roots.find(r => {
      const rel = relative(r.dir, path);
      return !rel.startsWith('..') && !isAbsolute(rel);
    });
    if (root) {
      let real: string | undefined;
      try {
        // One realpath(3) call: the JavaScript realpathSync lstat's every component of every file's path.
        real = realpathSync.native(path);
      } catch {
        /* missing: the read says so */
      }
      if (real && !isInside(real, root.real)) {
        this.log(`${path}: ${LINK_OUTSIDE}`);
        return undefined;
      }
    }
    const read = readRegularFile(path, opts.maxFileSize ?? DEFAULT_MAX_FILE_SIZE);
    if (read.ok) return read.bytes.toString('utf8');
    if (read.reason !== 'too-large') this.log(`${path}: not read: ${read.message}`);
    return undefined;
  }

  remove(uri: string): boolean {
    const had = this.index.signature(uri) !== '';
    this.index.remove(uri);
    return had;
  }

  /**
   * Scan folders for adapter files and index them, every file (no cap), in slices of SLICE_MS that
   * yield to the event loop so requests are answered meanwhile, and wait for `yieldTo` (an opened
   * document's first diagnostics wait for the file in progress, not for the scan). Every file takes the
   * fast index scan (`modelFrom` Infinity): a step through a large file's model would be four times as
   * long. Open documents keep their live text. Returns how many files declare codes.
   */
  async scan(
    folderUris: readonly string[],
    options: ServiceOptions | ((uri: string) => ServiceOptions),
    o: ScanOptions = {},
  ): Promise<number> {
    const opts = typeof options === 'function' ? options : () => options;
    let seen = 0,
      indexed = 0;
    const note = (n: WalkNote) => this.log(`scan: ${n.path}: ${n.message.replace(/ \(--follow-symlinks to follow\)$/, '')}`);
    const uris = (function* (self: WorkspaceIndexer) {
      for (const f of folderUris) {
        const root = self.addRoot(f);
        if (root)
          for (const uri of candidateFiles(f, note)) {
            seen++;
            if (!self.open.has(uri)) yield uri;
          }
      }
    })(this);
    // Between files: let waiting messages in, then let the editor's work finish and its answers go out
    // (vscode-jsonrpc writes a message from a `setImmediate` too), before the next file.
    const pause = async (before = o.yieldTo, limit = YIELD_LIMIT_MS) => {
      await settleTurns();
      const until = Date.now() + limit;
      for (let first = before?.(); first && Date.now() < until; first = before?.()) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([first, new Promise(res => (timer = setTimeout(res, until - Date.now())))]);
        clearTimeout(timer);
        await settleTurns();
      }
    };
    await pause(() => o.first?.() ?? o.yieldTo?.(), FIRST_LIMIT_MS);
    await pause();
    if (this.thread) return this.scanInThread(this.thread, uris, opts, o, pause, () => seen);
    let sliceStart = Date.now();
    for (const r of indexFiles(this.service, this.index, uris, u => this.readText(u, opts(u)), opts, undefined, true, Infinity)) {
      if (this.index.declaredIn(r.uri).length) indexed++;
      if (Date.now() - sliceStart >= SLICE_MS) {
        o.progress?.({ seen, indexed });
        await pause();
        if (o.stopped?.()) break;
        sliceStart = Date.now();
      }
    }
    return indexed;
  }

  /**
   * The scan's files of THREAD_FROM or more read in a thread of their own (started at the first one, ended with
   * the scan), filed here: this thread only reads each file from disk and files its entries, so an opened
   * document's validation never waits for a file being read. A file opened meanwhile keeps its live text. If the
   * thread fails, the rest of the scan reads its files here.
   */
  private async scanInThread(
    start: () => IndexThread,
    uris: Iterable<string>,
    opts: (uri: string) => ServiceOptions,
    o: ScanOptions,
    pause: () => Promise<void>,
    seen: () => number,
  ): Promise<number> {
    let thread: IndexThread | undefined;
    let broken = false;
    let indexed = 0;
    let sliceStart = Date.now();
    try {
      for (const uri of uris) {
        let waited = false;
        const options = opts(uri);
        const text = this.readText(uri, options);
        if (text === undefined) this.index.remove(uri);
        else {
          const from = toIndex(this.index, uri, text, options);
          if (from !== undefined && text.length < THREAD_FROM) {
            if (!this.open.has(uri)) indexText(this.service, this.index, uri, text, options, undefined, true, Infinity);
          } else if (from !== undefined && !broken && !this.open.has(uri)) {
            let stopped = false;
            try {
              waited = true;
              const reader = (thread ??= start());
              this.inThread = {
                uri,
                stop: () => {
                  stopped = true;
                  if (thread === reader) thread = undefined;
                  reader.close();
                },
              };
              const entries = await reader.entries(uri, text, options);
              if (!this.open.has(uri)) fileEntries(this.index, uri, entries, from);
            } catch (e) {
              // Stopped because the file was opened (`opened`): not a failure, the next file gets a new thread.
              if (!stopped) {
                broken = true;
                this.log(`the scan's thread failed (${e instanceof Error ? e.message : String(e)}): the scan goes on here`);
              }
            } finally {
              this.inThread = undefined;
            }
          }
          if (from !== undefined && broken && !this.open.has(uri))
            indexText(this.service, this.index, uri, text, options, undefined, true, Infinity);
        }
        if (this.index.declaredIn(uri).length) indexed++;
        // Small files read here go in slices, as without a thread; after a file read in the thread, a pause at once.
        if (waited || Date.now() - sliceStart >= SLICE_MS) {
          o.progress?.({ seen: seen(), indexed });
          await pause();
          if (o.stopped?.()) break;
          sliceStart = Date.now();
        }
      }
    } finally {
      thread?.close();
    }
    if (thread && !broken) this.log(`scan: the files were read in the scan's thread`);
    return indexed;
  }

  /** Remember a workspace folder (its real path bounds the links followed); false when it is not a folder on disk. */
  private addRoot(folderUri: string): boolean {
    let dir: string, real: string;
    try {
      dir = fileURLToPath(folderUri);
      real = realpathSync(dir);
    } catch {
      return false;
    }
    if (!this.roots.some(r => r.dir === dir)) this.roots.push({ dir, real });
    return true;
  }
}

/**
 * Candidate adapter files under a folder URI (by extension; the service decides what is an adapter):
 * each real directory once, no link leading out of the folder, regular files only; what is skipped goes to `onNote`.
 */
function* candidateFiles(folderUri: string, onNote?: (n: WalkNote) => void): Generator<string> {
  let dir: string, real: string;
  try {
    dir = fileURLToPath(folderUri);
    real = realpathSync(dir);
  } catch {
    return;
  }
  for (const f of walkTree(dir, { root: real, skip: SKIP, candidate: n => CANDIDATE.test(n), maxDepth: 32 }, onNote)) yield fileUri(f.path);
}
