/**
 * Diagnostics: pulled by clients that declare textDocument/diagnostic (refreshed when settings or
 * other files change), pushed to the others with a per-URI debounce that stretches with the last
 * validation's cost; a newer version supersedes a pending one, and a stale result is never published.
 */
import type { Connection, Diagnostic, TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { shapeDiagnostic, type ClientFeatures } from './capabilities';

interface DiagnosticsDeps {
  readonly connection: Connection;
  readonly documents: TextDocuments<TextDocument>;
  readonly features: () => ClientFeatures;
  /** Validate the current version of a document (empty for non-adapter files). */
  readonly compute: (doc: TextDocument) => Promise<Diagnostic[]>;
  readonly log: (msg: string) => void;
}

export class DiagnosticsScheduler {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private lastCost = 0;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private refreshExcept: string | undefined;
  private disposed = false;
  constructor(private readonly d: DiagnosticsDeps) {}

  /** How long the last validation of an edit took (ms): work that should wait for a pause in typing waits this much longer. */
  get editCost(): number {
    return this.lastCost;
  }

  /** Pull: answer a textDocument/diagnostic request. */
  async pull(uri: string): Promise<Diagnostic[]> {
    const doc = this.d.documents.get(uri);
    if (!doc) return [];
    return this.run(doc);
  }

  /** Push: schedule a validation of `uri` (no-op for pulling clients). */
  schedule(uri: string, immediate = false): void {
    if (this.disposed || this.d.features().pullDiagnostics) return;
    clearTimeout(this.timers.get(uri));
    const delay = immediate ? 0 : 20 + Math.min(this.lastCost, 320) / 4;
    this.timers.set(
      uri,
      setTimeout(() => {
        this.timers.delete(uri);
        const doc = this.d.documents.get(uri);
        if (!doc) return;
        const version = doc.version;
        void this.run(doc, !immediate).then(items => {
          const now = this.d.documents.get(uri);
          if (!now || now.version !== version) return; // superseded: a newer version is scheduled
          this.d.connection.sendDiagnostics({ uri, version, diagnostics: items }).catch(() => undefined);
        });
      }, delay),
    );
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
        if (this.d.features().diagnosticRefresh) this.d.connection.languages.diagnostics.refresh().catch(() => undefined);
      } else for (const doc of this.d.documents.all()) if (doc.uri !== except) this.schedule(doc.uri, true);
    }, 100);
  }

  closed(uri: string): void {
    clearTimeout(this.timers.get(uri));
    this.timers.delete(uri);
    if (!this.d.features().pullDiagnostics) this.d.connection.sendDiagnostics({ uri, diagnostics: [] }).catch(() => undefined);
  }

  dispose(): void {
    this.disposed = true;
    for (const t of this.timers.values()) clearTimeout(t);
    clearTimeout(this.refreshTimer);
  }

  /** `measure`: the cost of this run sets the debounce of the next edit (an open's full parse says nothing about a keystroke's). */
  private async run(doc: TextDocument, measure = true): Promise<Diagnostic[]> {
    const t0 = Date.now();
    try {
      const items = await this.d.compute(doc);
      return items.map(x => shapeDiagnostic(x, this.d.features()));
    } catch (e) {
      this.d.log(`validation of ${doc.uri} failed: ${e instanceof Error ? e.stack : String(e)}`);
      return [];
    } finally {
      if (measure) this.lastCost = Date.now() - t0;
    }
  }
}
