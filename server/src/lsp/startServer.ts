/**
 * startServer(connection, deps): capabilities and handler wiring (conventions C8, C9). Each handler
 * fetches the document and its settings and calls the service; nothing here knows YAML.
 */
import {
  CodeActionKind, DidChangeWatchedFilesNotification, FileChangeType, TextDocuments, TextDocumentSyncKind,
  type CodeAction, type Connection, type Diagnostic, type InitializeResult,
} from 'vscode-languageserver/node';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { FIX_ALL_KIND, GetRegistry, PreviewEnvelope, Simulate, ValidateWorkspace } from '../protocol';
import { createAdapterService, type AdapterService, type ServiceDeps, type ServiceOptions, type TextChange } from '../service';
import { clientFeatures, type ClientFeatures } from './capabilities';
import { DiagnosticsScheduler } from './diagnostics';
import { SettingsCache, toServiceOptions } from './settings';
import { WorkspaceIndexer } from './workspaceIndexer';

export interface Server { readonly service: AdapterService; readonly indexer: WorkspaceIndexer }

export function startServer(connection: Connection, deps: ServiceDeps): Server {
  const service = createAdapterService(deps);
  // Incremental sync: tell the service which offsets each change touched (it re-parses only that entry).
  const documents = new TextDocuments<TextDocument>({
    create: TextDocument.create,
    update: (doc, changes, version) => {
      const from = doc.version;
      const edits: TextChange[] = [];
      for (const c of changes) {
        edits.push('range' in c ? { start: doc.offsetAt(c.range.start), end: doc.offsetAt(c.range.end), text: c.text } : { start: 0, end: doc.getText().length, text: c.text });
        doc = TextDocument.update(doc, [c], version);
      }
      service.edited(doc.uri, from, version, edits);
      return doc;
    },
  });
  const indexer = new WorkspaceIndexer(service);
  let features: ClientFeatures = clientFeatures({});
  let folders: string[] = [];
  const settings = new SettingsCache(connection, () => features.configuration);
  let down = false;
  const log = (msg: string) => { if (!down) try { connection.console.log(`[mcp-aql] ${msg}`); } catch { /* connection closed */ } };
  const opts = async (uri: string): Promise<ServiceOptions> => toServiceOptions(await settings.forUri(uri));

  const scheduler = new DiagnosticsScheduler({
    connection, documents, features: () => features, log,
    compute: async doc => {
      const o = await opts(doc.uri);
      indexSoon(doc.uri);
      return service.validate(doc, o, indexer.index.except(doc.uri));
    },
  });

  /**
   * An open document's own codes matter only to *other* files: index them once typing pauses, not on
   * every keystroke (a 10,000-code file would rebuild 20,000 entries per key).
   */
  const indexTimers = new Map<string, ReturnType<typeof setTimeout>>();
  function indexSoon(uri: string): void {
    clearTimeout(indexTimers.get(uri));
    indexTimers.set(uri, setTimeout(() => {
      indexTimers.delete(uri);
      const doc = documents.get(uri);
      if (!doc || down) return;
      void opts(uri).then(o => { if (indexer.updateDocument(doc, o)) scheduler.refreshAll(); });
    }, 500));
  }

  /** Run a feature on an open document, isolating failures: a throw costs that one answer, not the server. */
  function withDoc<T>(uri: string, fallback: T, f: (doc: TextDocument, o: ServiceOptions) => T): Promise<T> {
    const doc = documents.get(uri);
    if (!doc) return Promise.resolve(fallback);
    return opts(uri).then(o => f(doc, o)).catch(e => { log(`request on ${uri} failed: ${e instanceof Error ? e.stack : String(e)}`); return fallback; });
  }
  const ws = (uri: string) => indexer.index.except(uri);

  connection.onInitialize((params): InitializeResult => {
    features = clientFeatures(params.capabilities);
    folders = (params.workspaceFolders ?? []).map(f => f.uri);
    if (!folders.length && params.rootUri) folders = [params.rootUri];
    if (params.initializationOptions && typeof params.initializationOptions === 'object') settings.reset({ mcpAql: (params.initializationOptions as Record<string, unknown>).settings });
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        ...(features.pullDiagnostics ? { diagnosticProvider: { identifier: 'mcp-aql', interFileDependencies: true, workspaceDiagnostics: false } } : {}),
        completionProvider: { triggerCharacters: ['{', ' ', '.', ':'], resolveProvider: false },
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        renameProvider: params.capabilities.textDocument?.rename?.prepareSupport ? { prepareProvider: true } : true,
        documentSymbolProvider: true,
        codeLensProvider: { resolveProvider: false },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND] },
        workspace: { workspaceFolders: { supported: true } },
      },
      serverInfo: { name: 'mcp-aql-errors' },
    };
  });

  connection.onInitialized(() => {
    if (features.watchedFilesRegistration) {
      void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: '**/*.{yaml,yml,json,md}' }] });
    }
    void (async () => {
      const o = toServiceOptions(await settings.forUri(folders[0] ?? 'file:///'));
      const n = indexer.scan(folders, o);
      log(`indexed custom codes of ${n} adapter file(s) in ${folders.length} folder(s)`);
      if (n) scheduler.refreshAll();
    })();
  });

  connection.onDidChangeConfiguration(change => {
    settings.reset(change.settings);
    scheduler.refreshAll();
  });

  connection.onDidChangeWatchedFiles(async ({ changes }) => {
    let changed = false;
    for (const c of changes) {
      const o = await opts(c.uri);
      changed = (c.type === FileChangeType.Deleted ? indexer.remove(c.uri) : indexer.readFromDisk(c.uri, o)) || changed;
    }
    if (changed) scheduler.refreshAll();
  });

  documents.onDidOpen(e => { indexer.opened(e.document.uri); scheduler.schedule(e.document.uri, true); });
  documents.onDidChangeContent(e => scheduler.schedule(e.document.uri));
  documents.onDidClose(async e => {
    scheduler.closed(e.document.uri);
    service.forget(e.document.uri);
    if (indexer.isOpen(e.document.uri)) { indexer.closed(e.document.uri, await opts(e.document.uri)); scheduler.refreshAll(); }
  });

  connection.languages.diagnostics.on(async params => ({ kind: 'full', items: await scheduler.pull(params.textDocument.uri) }));

  connection.onCompletion(p => withDoc(p.textDocument.uri, { isIncomplete: false, items: [] }, (doc, o) =>
    service.completeList(doc, p.position, o, ws(doc.uri), { snippets: features.snippets, markdown: features.markdownCompletion })));
  connection.onHover(p => withDoc(p.textDocument.uri, null, (doc, o) => service.hover(doc, p.position, o, ws(doc.uri), { markdown: features.markdownHover })));
  connection.onDefinition(p => withDoc(p.textDocument.uri, [], (doc, o) => service.definition(doc, p.position, o, ws(doc.uri))));
  connection.onReferences(p => withDoc(p.textDocument.uri, [], (doc, o) => service.references(doc, p.position, p.context.includeDeclaration, o, ws(doc.uri))));
  connection.onPrepareRename(p => withDoc(p.textDocument.uri, null, (doc, o) => service.prepareRename(doc, p.position, o)));
  connection.onRenameRequest(p => withDoc(p.textDocument.uri, null, (doc, o) => service.rename(doc, p.position, p.newName, o, ws(doc.uri))));
  connection.onDocumentSymbol(p => withDoc(p.textDocument.uri, [], (doc, o) => service.documentSymbols(doc, o)));
  connection.onCodeLens(p => withDoc(p.textDocument.uri, [], (doc, o) => service.codeLenses(doc, o)));

  connection.onCodeAction(p => withDoc(p.textDocument.uri, [] as CodeAction[], (doc, o) => {
    const only = p.context.only;
    const out: CodeAction[] = [];
    const wantsFixAll = only?.some(k => FIX_ALL_KIND.startsWith(k) && k !== CodeActionKind.QuickFix);
    if (!only || only.some(k => k === CodeActionKind.QuickFix || CodeActionKind.QuickFix.startsWith(k + '.') || k === '')) {
      // Without dataSupport the client sends our diagnostics back without `data`: match them to fresh ones.
      let diagnostics = p.context.diagnostics;
      if (diagnostics.some(d => d.data === undefined)) {
        const fresh = service.validate(doc, o, ws(doc.uri));
        diagnostics = diagnostics.map(d => (d.data === undefined ? fresh.find(f => f.code === d.code && sameRange(f, d)) ?? d : d));
      }
      out.push(...service.quickFixes(doc, p.range, { ...p.context, diagnostics }, o, ws(doc.uri)));
    }
    if (wantsFixAll || !only) {
      const edits = service.fixAll(doc, o, ws(doc.uri));
      if (edits.length) out.push({ title: `Fix all MCP-AQL problems (${edits.length} edit${edits.length === 1 ? '' : 's'})`, kind: FIX_ALL_KIND, edit: { changes: { [doc.uri]: edits } } });
    }
    return out;
  }));

  connection.onRequest(GetRegistry.type, () => service.registry);
  connection.onRequest(PreviewEnvelope.type, p => withDoc(p.uri, null, (doc, o) =>
    service.preview(doc, { position: p.position, code: p.code, samples: p.samples, mirrorConfirmation: p.mirrorConfirmation }, o, ws(doc.uri)) ?? null));
  connection.onRequest(Simulate.type, p => withDoc(p.uri, null, (doc, o) =>
    service.simulate(doc, { status: p.status, body: p.body, headers: p.headers, params: p.params }, o, ws(doc.uri))));
  connection.onRequest(ValidateWorkspace.type, async () => {
    const problems: { uri: string; diagnostics: Diagnostic[] }[] = [];
    const uris = new Set([...indexer.index.uris(), ...documents.all().map(d => d.uri)]);
    for (const uri of uris) {
      const open = documents.get(uri);
      const o = await opts(uri);
      let doc = open;
      if (!doc) {
        try { doc = TextDocument.create(uri, 'yaml', 0, readFileSync(fileURLToPath(uri), 'utf8')); } catch { continue; }
      }
      if (!service.isAdapter(doc, o)) continue;
      const diagnostics = service.validate(doc, o, ws(uri));
      if (diagnostics.length) problems.push({ uri, diagnostics });
      if (!open) service.forget(uri);
    }
    return { files: uris.size, problems };
  });

  connection.onShutdown(() => { down = true; scheduler.dispose(); for (const t of indexTimers.values()) clearTimeout(t); });
  documents.listen(connection);
  connection.listen();
  return { service, indexer };
}

const sameRange = (a: Diagnostic, b: Diagnostic) =>
  a.range.start.line === b.range.start.line && a.range.start.character === b.range.start.character &&
  a.range.end.line === b.range.end.line && a.range.end.character === b.range.end.character;
