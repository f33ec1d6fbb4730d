/** What the client declared, and the diagnostics/hover/completion shaped to it (a plain client gets plain answers). */
import {
  CodeActionKind,
  TextDocumentSyncKind,
  type ClientCapabilities,
  type Diagnostic,
  type ServerCapabilities,
} from 'vscode-languageserver/node';
import { FIX_ALL_KIND } from '../protocol';

export interface ClientFeatures {
  readonly pullDiagnostics: boolean;
  readonly codeDescription: boolean;
  readonly data: boolean;
  readonly relatedInformation: boolean;
  readonly tags: boolean;
  readonly markdownHover: boolean;
  readonly markdownCompletion: boolean;
  readonly snippets: boolean;
  readonly configuration: boolean;
  readonly watchedFilesRegistration: boolean;
  readonly diagnosticRefresh: boolean;
  readonly workDoneProgress: boolean;
}

export function clientFeatures(c: ClientCapabilities): ClientFeatures {
  const td = c.textDocument;
  const pull = !!td?.diagnostic;
  const pub = td?.publishDiagnostics;
  return {
    pullDiagnostics: pull,
    // A client that pulls diagnostics (LSP 3.17) supports the 3.16 diagnostic fields.
    codeDescription: pull || !!pub?.codeDescriptionSupport,
    data: pull || !!pub?.dataSupport,
    relatedInformation: pull || !!pub?.relatedInformation,
    tags: pull || !!pub?.tagSupport,
    markdownHover: !!td?.hover?.contentFormat?.includes('markdown'),
    markdownCompletion: !!td?.completion?.completionItem?.documentationFormat?.includes('markdown'),
    snippets: !!td?.completion?.completionItem?.snippetSupport,
    configuration: !!c.workspace?.configuration,
    watchedFilesRegistration: !!c.workspace?.didChangeWatchedFiles?.dynamicRegistration,
    diagnosticRefresh: !!c.workspace?.diagnostics?.refreshSupport,
    workDoneProgress: !!c.window?.workDoneProgress,
  };
}

export function shapeDiagnostic(d: Diagnostic, f: ClientFeatures): Diagnostic {
  const out: Diagnostic = { range: d.range, severity: d.severity, code: d.code, source: d.source, message: d.message };
  if (f.codeDescription && d.codeDescription) out.codeDescription = d.codeDescription;
  if (f.data && d.data !== undefined) out.data = d.data;
  if (f.relatedInformation && d.relatedInformation) out.relatedInformation = d.relatedInformation;
  if (f.tags && d.tags) out.tags = d.tags;
  return out;
}

/** What the server offers, shaped to the client (pull diagnostics only to clients that pull). */
export function serverCapabilities(f: ClientFeatures, c: ClientCapabilities): ServerCapabilities {
  return {
    textDocumentSync: TextDocumentSyncKind.Incremental,
    ...(f.pullDiagnostics
      ? { diagnosticProvider: { identifier: 'mcp-aql', interFileDependencies: true, workspaceDiagnostics: false } }
      : {}),
    completionProvider: { triggerCharacters: ['{', ' ', '.', ':'], resolveProvider: false },
    hoverProvider: true,
    definitionProvider: true,
    referencesProvider: true,
    renameProvider: c.textDocument?.rename?.prepareSupport ? { prepareProvider: true } : true,
    documentSymbolProvider: true,
    codeLensProvider: { resolveProvider: false },
    codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND] },
    workspace: { workspaceFolders: { supported: true } },
  };
}
