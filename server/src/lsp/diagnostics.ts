/**
 * Diagnostics: pulled by clients that declare textDocument/diagnostic (refreshed when settings or
 * other files change), pushed to the others. A push validation starts as soon as the changes that are
 * already waiting have been read (leading edge, no fixed delay): changes that arrive together, or
 * while a validation of the same document runs, are validated once, at their newest version. A result
 * for a superseded version is never published.
 */
import type { Connection, Diagnostic, TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { shapeDiagnostic, type ClientFeatures } from './capabilities';
import { PieceDocument } from './pieceDocument';
import { REHEARSAL_MIN_LENGTH, rehearsalSite, rehearseKeystroke } from './rehearseKeystroke';
import { ServerDocuments } from './textDocuments';

interface DiagnosticsDeps {
  readonly connection: Connection;
  readonly documents: TextDocuments<TextDocument>;
  readonly features: () => ClientFeatures;
  /** Validate the current version of a document (empty for non-adapter files). */
  readonly compute: (doc: TextDocument) => Promise<Diagnostic[]>;
  readonly log: (msg: string) => void;
  /** Run `f` after this turn of the event loop (default `setImmediate`); tests drive it by hand. */
  readonly defer?: (f: () => void) => void;
  /** A clock in ms (default `Date.now`), for `editCost`. */
  readonly now?: () => number;
  /**
   * Once per open, as soon as the document's first diagnostics are written (pushed: the publication's write done;
   * pulled: the turn after the answer) and while nothing else is waiting or running, the keystroke path is warmed so a
   * first keystroke typed at once finds it compiled: a keystroke rehearsed on a copy of the document
   * (lsp/rehearseKeystroke.ts, with the server's documents), or where it has no site, the move alone on the model
   * (`service.warmUp`).
   */
  readonly warmUp?: (uri: string) => void;
  /** Run `f` a moment later (default: after WARM_UP_AFTER_MS); tests drive it by hand. */
  readonly later?: (f: () => void) => void;
  /** The smallest document (characters) whose warm-up is a rehearsed keystroke (default REHEARSAL_MIN_LENGTH); tests set 0. */
  readonly rehearseFrom?: number;
}

/** How long a warm-up that found validations waiting or running waits before it looks again. */
const WARM_UP_AFTER_MS = 50;
/** How many times the warm-up waits again while validations are waiting or running, before it gives up. */
const WARM_UP_TRIES = 20;

/** Push state of one document. */
interface Pending {
  /** Bumped by every schedule(). */
  seq: number;
  /** `seq` at the last look, and how many looks in a row found it unchanged. */
  looked: number;
  quiet: number;
  /** A look is deferred (a validation is about to start). */
  waiting: boolean;
  /** A validation runs; `again`: a change came meanwhile, validate once more after it. */
  running: boolean;
  again: boolean;
  /** One of the coalesced requests is an edit (its cost is measured). */
  edit: boolean;
}

/**
 * Looks in a row that must find no new change before a validation starts. The JSON-RPC connection
 * handles one message per turn of the event loop (setImmediate), after the look scheduled in the turn
 * before it: two quiet looks mean every change already read from the client has been applied.
 */
const QUIET_LOOKS = 2;

export class DiagnosticsScheduler {
  private readonly pending = new Map<string, Pending>();
  private lastCost = 0;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private refreshExcept: string | undefined;
  private disposed = false;
  /** Pull requests being answered, and who waits for no validation to be waiting or running (`idle`). */
  private pulls = 0;
  private readonly idleWaiters: (() => void)[] = [];
  /** Documents validated at least once since they were opened (pushed or pulled), for `checkedOnce`. */
  private readonly checked = new Set<string>();
  private readonly defer: (f: () => void) => void;
  private readonly now: () => number;
  private readonly later: (f: () => void) => void;
  private readonly rehearseFrom: number;
  constructor(private readonly d: DiagnosticsDeps) {
    this.rehearseFrom = d.rehearseFrom ?? REHEARSAL_MIN_LENGTH;
    this.defer = d.defer ?? (f => void setImmediate(f));
    this.now = d.now ?? Date.now;
    // Unref'd: a pending warm-up keeps no exiting process alive (a browser's timer id has no unref).
    this.later = d.later ?? (f => void (setTimeout(f, WARM_UP_AFTER_MS) as { unref?: () => void }).unref?.());
  }

  /** How long the last validation of an edit took (ms): work that should wait for a pause in typing waits this much longer. */
  get editCost(): number {
    return this.lastCost;
  }

  /** Pull: answer a textDocument/diagnostic request. */
  async pull(uri: string): Promise<Diagnostic[]> {
    const doc = this.d.documents.get(uri);
    if (!doc) return [];
    this.pulls++;
    try {
      return await this.run(doc);
    } finally {
      this.pulls--;
      // The answer is written once this turn's promises have run (the connection replies from them).
      this.checkedNow(uri, doc.version, new Promise(res => this.defer(() => res(undefined))));
      this.settle();
    }
  }

  /**
   * Undefined when every document of `uris` has been validated since it was opened (or was closed); else a
   * promise kept once each has. The workspace scan waits for it (bounded) before its first file: a pulling
   * client asks for an opened file's diagnostics a moment after `didOpen`, and should not find a file's
   * indexing in its way.
   */
  checkedOnce(uris: readonly string[]): Promise<void> | undefined {
    const left = () => uris.some(u => !this.checked.has(u) && this.d.documents.get(u));
    if (this.disposed || !left()) return undefined;
    return new Promise(res => {
      const again = () => (this.disposed || !left() ? res() : this.idleWaiters.push(again));
      this.idleWaiters.push(again);
    });
  }

  /**
   * Undefined when no validation is waiting or running (pushed or pulled); else a promise that resolves
   * once none is. The workspace scan waits for it between files, so an opened document's diagnostics
   * never wait for the scan.
   */
  idle(): Promise<void> | undefined {
    if (!this.busy()) return undefined;
    return new Promise(res => this.idleWaiters.push(res));
  }

  /**
   * Push: validate `uri` once the changes already waiting are read (no-op for pulling clients).
   * `fresh`: not an edit (open, settings, another file), so its cost says nothing about a keystroke's.
   */
  schedule(uri: string, fresh = false): void {
    if (this.disposed || this.d.features().pullDiagnostics) return;
    let p = this.pending.get(uri);
    if (!p) this.pending.set(uri, (p = { seq: 0, looked: 0, quiet: 0, waiting: false, running: false, again: false, edit: false }));
    p.seq++;
    if (!fresh) p.edit = true;
    if (p.running) p.again = true;
    else this.wait(uri, p);
  }

  /**
   * Everything open needs a new look (settings or another file changed). `changedUri` names the file
   * whose codes changed: its own diagnostics do not depend on them, so a pushing client does not get
   * it validated twice (a pulling client's refresh is global).
   */
  refreshAll(changedUri?: string): void {
    if (this.disposed) return;
    if (this.refreshTimer === undefined) this.refreshExcept = changedUri;
    else if (this.refreshExcept !== changedUri) this.refreshExcept = undefined;
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      const except = this.refreshExcept;
      if (this.d.features().pullDiagnostics) {
        // A refresh makes the client pull every open document again; when the one that changed is the only one open
        // (a file just opened and indexed), its pull already has the new index and a refresh would only repeat it.
        const others = this.d.documents.all().some(doc => doc.uri !== except);
        if (others && this.d.features().diagnosticRefresh) this.d.connection.languages.diagnostics.refresh().catch(() => undefined);
      } else for (const doc of this.d.documents.all()) if (doc.uri !== except) this.schedule(doc.uri, true);
    }, 100);
  }

  closed(uri: string): void {
    this.pending.delete(uri);
    this.checked.delete(uri);
    this.settle();
    if (!this.d.features().pullDiagnostics) this.d.connection.sendDiagnostics({ uri, diagnostics: [] }).catch(() => undefined);
  }

  dispose(): void {
    this.disposed = true;
    this.pending.clear();
    clearTimeout(this.refreshTimer);
    this.settle();
  }

  /**
   * `uri` was validated at `version`; the first time since it was opened, its warm-up runs once `written` (its
   * diagnostics are out): a keystroke typed at once after the open then finds the move compiled (bench/NOTES.md,
   * "ninth sitting").
   */
  private checkedNow(uri: string, version: number, written: Promise<unknown>): void {
    if (this.checked.has(uri)) return;
    this.checked.add(uri);
    if (this.d.warmUp) void written.then(() => this.warmUp(uri, version, WARM_UP_TRIES));
  }

  /**
   * The warm-up of `uri`: not if the document was closed or edited since `version` (a keystroke has run the path
   * itself); later again while validations wait or run. A message that arrives meanwhile waits for it: the rehearsed
   * keystroke and its undo, 21–40 ms at 10,000 codes (bench/NOTES.md, "ninth sitting"); the move alone, a few ms (at
   * most 4,000 entries moved, whatever the file's size).
   */
  private warmUp(uri: string, version: number, tries: number): void {
    if (this.disposed || this.d.documents.get(uri)?.version !== version || !this.checked.has(uri)) return;
    if (this.busy()) {
      if (tries > 1) this.later(() => this.warmUp(uri, version, tries - 1));
      return;
    }
    // A keystroke and its undo, validated as the first keystroke will be (lsp/rehearseKeystroke.ts): it moves every
    // entry too. Where it has no site, the move alone (`service.warmUp`).
    const docs = this.d.documents;
    const doc = docs.get(uri);
    if (
      docs instanceof ServerDocuments &&
      docs.edited &&
      doc instanceof PieceDocument &&
      doc.length >= this.rehearseFrom &&
      rehearsalSite(doc) !== undefined
    ) {
      rehearseKeystroke(
        doc,
        () => docs.get(uri),
        docs.edited,
        d => this.d.compute(d),
      ).catch(e => this.d.log(`rehearsal of ${uri} failed: ${e instanceof Error ? e.stack : String(e)}`));
      return;
    }
    try {
      this.d.warmUp!(uri);
    } catch (e) {
      this.d.log(`warm-up of ${uri} failed: ${e instanceof Error ? e.stack : String(e)}`);
    }
  }

  private busy(): boolean {
    if (this.disposed) return false;
    if (this.pulls) return true;
    for (const p of this.pending.values()) if (p.waiting || p.running) return true;
    return false;
  }

  /** Wake whoever waits for `idle` once nothing is waiting or running (a `checkedOnce` waiter looks again). */
  private settle(): void {
    if (this.idleWaiters.length && !this.busy()) for (const w of this.idleWaiters.splice(0)) w();
  }

  /** Start looking (once) for the moment no change is waiting any more. */
  private wait(uri: string, p: Pending): void {
    if (p.waiting) return;
    p.waiting = true;
    p.looked = p.seq;
    p.quiet = 0;
    const look = () => {
      if (this.disposed || this.pending.get(uri) !== p) return; // closed meanwhile
      if (p.seq !== p.looked) {
        p.looked = p.seq;
        p.quiet = 0;
      } else if (++p.quiet >= QUIET_LOOKS) {
        p.waiting = false;
        this.validate(uri, p);
        return;
      }
      this.defer(look);
    };
    this.defer(look);
  }

  private validate(uri: string, p: Pending): void {
    const doc = this.d.documents.get(uri);
    if (!doc) return this.settle();
    const version = doc.version;
    const measure = p.edit;
    p.edit = false;
    p.running = true;
    void this.run(doc, measure).then(items => {
      p.running = false;
      if (this.disposed || this.pending.get(uri) !== p) return this.settle(); // closed: its diagnostics were cleared
      const now = this.d.documents.get(uri);
      const written =
        now && now.version === version
          ? this.d.connection.sendDiagnostics({ uri, version, diagnostics: items }).catch(() => undefined)
          : Promise.resolve();
      this.checkedNow(uri, version, written);
      // Superseded (or asked again meanwhile): the newer version is validated once, now.
      if (p.again) {
        p.again = false;
        this.wait(uri, p);
      }
      this.settle();
    });
  }

  /** `measure`: the cost of this run is `editCost` (an open's full parse says nothing about a keystroke's). */
  private async run(doc: TextDocument, measure = true): Promise<Diagnostic[]> {
    const t0 = this.now();
    try {
      const items = await this.d.compute(doc);
      return items.map(x => shapeDiagnostic(x, this.d.features()));
    } catch (e) {
      this.d.log(`validation of ${doc.uri} failed: ${e instanceof Error ? e.stack : String(e)}`);
      return [];
    } finally {
      if (measure) this.lastCost = this.now() - t0;
    }
  }
}
