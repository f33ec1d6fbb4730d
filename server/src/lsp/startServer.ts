/**
 * startServer(connection, deps): builds the shared context and lets each module register its handlers
 * (conventions C8, C9): documents and diagnostics, indexing, editor requests, code actions, workspace
 * requests. Nothing here knows YAML.
 */
import type { Connection } from 'vscode-languageserver/node';
import type { IndexThread } from '../node/indexThread';
import {
  createAdapterService,
  createWorkspaceIndex,
  isConfigFileName,
  parseProjectConfig,
  type AdapterService,
  type ServiceDeps,
} from '../service';
import { clientFeatures, serverCapabilities, type ClientFeatures } from './capabilities';
import { registerCodeActions } from './codeActions';
import { registerCompareContract } from './compareContract';
import { registerInferContract } from './inferContract';
import { ConfigFiles } from './configFiles';
import type { ServerContext } from './context';
import { DiagnosticsScheduler } from './diagnostics';
import { registerDocuments } from './documents';
import { registerEditorSupport, reindexWorkspace } from './editorSupport';
import { registerIndexing } from './indexing';
import { registerLifecycle } from './lifecycle';
export { lifecycleOptions } from './lifecycle';
import { registerRequests } from './requests';
import { ResponseFiles } from './responseFiles';
import { publishable } from './scanGate';
import { SettingsCache, toServiceOptions, type SettingsChange } from './settings';
import { baseName, timeline } from './timeline';
import { createTextDocuments } from './textDocuments';
import { WorkspaceIndexer } from './workspaceIndexer';
import { registerWorkspaceRequests } from './workspaceRequests';

export interface Server {
  readonly service: AdapterService;
  readonly indexer: WorkspaceIndexer;
}

export interface ServerOptions {
  /** A thread for the workspace scan's files (node/indexThread.ts; the Node server's); without it they are read in this one. */
  readonly indexThread?: () => IndexThread;
}

export function startServer(connection: Connection, deps: ServiceDeps, options: ServerOptions = {}): Server {
  const index = createWorkspaceIndex();
  const service = createAdapterService({ ...deps, workspace: index });
  // Incremental sync: the service learns which offsets each change touched (it re-parses only that entry).
  const documents = createTextDocuments((uri, from, to, edits) => service.edited(uri, from, to, edits));
  let features: ClientFeatures = clientFeatures({});
  let folders: string[] = [];
  let down = false;
  const log = (msg: string) => {
    if (!down)
      try {
        connection.console.log(`[mcp-aql] ${msg}`);
      } catch {
        /* connection closed */
      }
  };
  // A resource's settings that differ from the window's (assumed until the client answered): redo what used them.
  const settings = new SettingsCache(
    connection,
    () => features.configuration,
    log,
    change => settingsChanged(change),
    () => folders.length <= 1,
  );
  const indexer = new WorkspaceIndexer(service, index, log, options.indexThread);
  const configFiles = new ConfigFiles(log);
  const opts = async (uri: string) => configFiles.apply(uri, toServiceOptions(await settings.forUri(uri)));
  const responseFiles = new ResponseFiles(service, indexer, documents);
  const scheduler = new DiagnosticsScheduler({
    connection,
    documents,
    features: () => features,
    log,
    // An open config file shows its own problems; a response file its verify.* diagnostics; an adapter is validated under its config file.
    // Until the first scan is complete, what the unread files could contradict is held back (scanGate.ts).
    compute: async doc => {
      if (isConfigFileName(doc.uri)) return parseProjectConfig(doc.getText()).problems;
      timeline(log, `server settings-asked ${baseName(doc.uri)}`);
      const o = await opts(doc.uri);
      timeline(log, `server settings-known ${baseName(doc.uri)}`);
      return publishable(responseFiles.diagnostics(doc, o) ?? service.validate(doc, o), indexer.complete);
    },
    warmUp: uri => void service.warmUp(uri),
  });
  const ctx: ServerContext = {
    connection,
    documents,
    service,
    indexer,
    settings,
    scheduler,
    log,
    opts,
    features: () => features,
    folders: () => folders,
    isDown: () => down,
    withConfig: (uri, editor) => configFiles.apply(uri, editor),
    configFilesChanged(uris) {
      if (!uris.some(isConfigFileName)) return false;
      configFiles.clear();
      return true;
    },
    withDoc(uri, fallback, f) {
      const doc = documents.get(uri);
      if (!doc) return Promise.resolve(fallback);
      return opts(uri)
        .then(o => f(doc, o))
        .catch(e => {
          log(`request on ${uri} failed: ${e instanceof Error ? e.stack : String(e)}`);
          return fallback;
        });
    },
  };

  connection.onInitialize(params => {
    timeline(log, `server initialize process-start=${Math.round(performance.timeOrigin)}`);
    // How long the process took to get here, and whether its bundle came compiled (server/src/loadServer.ts
    // sets the global): test/e2e/firstDiagnostics.test.ts reads the line.
    const cache = (globalThis as Record<symbol, unknown>)[Symbol.for('mcp-aql.codeCache')] ?? 'none';
    log(`initialize ${Math.round(performance.now())} ms after the process started (code cache: ${String(cache)})`);
    features = clientFeatures(params.capabilities);
    folders = (params.workspaceFolders ?? []).map(f => f.uri);
    if (!folders.length && params.rootUri) folders = [params.rootUri];
    // A client's settings as it starts (`initializationOptions.settings`, the `mcpAql` section): the first check need not ask.
    if (params.initializationOptions && typeof params.initializationOptions === 'object')
      settings.initial((params.initializationOptions as Record<string, unknown>).settings);
    return { capabilities: serverCapabilities(features, params.capabilities), serverInfo: { name: 'mcp-aql-errors' } };
  });
  // A settings change that changes which files are adapters or read re-scans the workspace (a new mcpAql.files glob
  // works without a restart), then re-checks; one that changes only what the checks report re-checks; the same
  // settings again (a client sends them as it starts) do nothing.
  function settingsChanged(change: SettingsChange): void {
    if (change === 'none' || down) return;
    if (change === 'check') {
      log('settings changed: open files re-checked');
      scheduler.refreshAll();
      return;
    }
    void reindexWorkspace(ctx).then(n => {
      log(`settings changed: workspace index re-scanned, ${n} adapter file(s)`);
      scheduler.refreshAll();
    });
  }
  connection.onDidChangeConfiguration(change => {
    const open = documents.all().map(d => d.uri);
    void settings.changed(change.settings, folders, open).then(settingsChanged, (e: unknown) => {
      log(`settings change failed: ${e instanceof Error ? e.stack : String(e)}`);
      settingsChanged('scan');
    });
  });

  registerLifecycle(connection);
  const indexing = registerIndexing(ctx);
  registerDocuments(ctx, indexing);
  registerRequests(ctx);
  registerCodeActions(ctx);
  registerWorkspaceRequests(ctx);
  registerEditorSupport(ctx);
  registerCompareContract(ctx);
  registerInferContract(ctx);
  responseFiles.listen(connection, opts, uri => scheduler.schedule(uri));

  connection.onShutdown(() => {
    down = true;
    scheduler.dispose();
    indexing.dispose();
  });
  documents.listen(connection);
  connection.listen();
  return { service, indexer };
}
