/**
 * What every handler module of the server shares: the connection, the open documents, the service,
 * the workspace indexer, settings and client features. startServer builds it once; each module
 * (documents, requests, code actions, workspace requests, indexing) takes it and registers its handlers.
 */
import type { Connection } from 'vscode-languageserver/node';
import type { TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { AdapterService, ServiceOptions } from '../service';
import type { ClientFeatures } from './capabilities';
import type { DiagnosticsScheduler } from './diagnostics';
import type { SettingsCache } from './settings';
import type { WorkspaceIndexer } from './workspaceIndexer';

export interface ServerContext {
  readonly connection: Connection;
  readonly documents: TextDocuments<TextDocument>;
  readonly service: AdapterService;
  readonly indexer: WorkspaceIndexer;
  readonly settings: SettingsCache;
  readonly scheduler: DiagnosticsScheduler;
  /** What the client declared at initialize. */
  features(): ClientFeatures;
  /** The workspace folder URIs (from initialize). */
  folders(): readonly string[];
  /** Service options for a resource, from its settings and its config file (.mcp-aql.yaml). */
  opts(uri: string): Promise<ServiceOptions>;
  /** Editor options of a file under its config file (synchronous: for the workspace scan). */
  withConfig(uri: string, editor: ServiceOptions): ServiceOptions;
  /** Watched files changed: true (and config files are looked up again) when one of them is a config file. */
  configFilesChanged(uris: readonly string[]): boolean;
  log(msg: string): void;
  /** True once shutdown was requested: timers and scans stop. */
  isDown(): boolean;
  /**
   * Run a feature on an open document, isolating failures: a throw costs that one answer, not the
   * server; a document that is not open answers `fallback`.
   */
  withDoc<T>(uri: string, fallback: T, f: (doc: TextDocument, o: ServiceOptions) => T): Promise<T>;
}
