/**
 * The language service: the only public API of server/src/service (conventions C1). Pure and
 * synchronous; takes TextDocuments and plain options, returns LSP data types. No I/O, no transport.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type {
  CodeAction,
  CodeActionContext,
  CodeLens,
  CompletionItem,
  CompletionList,
  Diagnostic,
  DocumentSymbol,
  Hover,
  Location,
  Position,
  Range,
  WorkspaceEdit,
  TextEdit,
} from 'vscode-languageserver-types';
import type { RuleLevel } from './codes';
import { tooDeep, tooLarge } from './checks/fileLimits';
import { toDiagnostics } from './checks/runChecks';
import { createValidation } from './checks/validation';
import { buildContract, generateTypes, type Contract, type TypesRequest } from './contract';
import { preview, simulate, type EnvelopePreview, type PreviewRequest, type SimulationRequest, type SimulationResult } from './envelopes';
import { DEFAULT_NOW } from './envelopes/samples';
import { buildSnapshot, compareSnapshots, type ContractChange, type SnapshotInput } from './evolution';
import { complete, completeList, type CompletionOptions } from './features/completion';
import { hover, type HoverOptions } from './features/hover';
import { codeOccurrences, definition, prepareRename, references, rename } from './features/navigation';
import { codeLenses, declaredCodes, documentSymbols } from './features/symbols';
import { liveEntries } from './features/liveEntries';
import type { LiveEntries } from './workspace/workspaceIndex';
import { fixAll, quickFixes } from './fixes';
import type { FeatureContext } from './model/context';
import type { AdapterModel } from './model/model';
import { indexRegistry, type Registry, type RegistryIndex } from './model/registry';
import { compileSchemas, type AdapterValidators } from './model/schemas';
import { emptyWorkspace, type CodeDeclaration, type CodeOccurrence, type CodeScope, type WorkspaceCodes } from './model/workspace';
import { buildModel } from './parse/buildModel';
import { forgetReads } from './parse/hollow';
import type { IndexEntries } from './parse/indexScan';
import { indexWithoutModel } from './parse/indexWithoutModel';
import { createModelCache, type TextChange } from './parse/modelCache';
import { maxSizeOf } from './parse/sizeLimit';
import { classify } from './parse/sourceFile';
import { inferContract, type InferRequest, type InferResult } from './inference';
import { errorReference, fileName, type ReferenceRequest } from './reference';
import {
  adapterOperations,
  answerProblems,
  httpFindings,
  planProbe,
  runtimeFindings,
  type AdapterOperation,
  type PlacedAnswer,
  type HttpExchange,
  type ProbeOptions,
  type ProbePlan,
  type RuntimeFinding,
  type ToolInfo,
  type Exchange,
} from './runtime';
import { isResponseFile, verifyText } from './verify';
import { scopedWorkspace } from './workspace/scope';
import { sourceOf } from './util/pieceText';

export { allCodes, Code, codeInfo, docsAnchor, docsHref, isCode, SOURCE, type RuleLevel } from './codes';
export type { Registry, RegistryCode } from './model/registry';
export type { CodeDeclaration, CodeOccurrence, CodeScope, WorkspaceCodes } from './model/workspace';
export type { IndexEntries } from './parse/indexScan';
export type { AdapterValidators } from './model/schemas';
export { CODE_SCOPES } from './model/workspace';
export type { EnvelopePreview, PreviewRequest, SimulationRequest, SimulationResult } from './envelopes';
export { emptyWorkspace } from './model/workspace';
export type { CompletionOptions } from './features/completion';
export type { HoverOptions } from './features/hover';
export { PREVIEW_COMMAND } from './features/symbols';
export { MAX_NESTING } from './util/nesting';
export { PieceText, piecesOf, sourceOf, type TextSource } from './util/pieceText';
export { compileGlob, globError, GlobSyntaxError, type Glob } from './util/glob';
/** Escapes for generated pages (the probe's readiness table): markdown text and code spans, HTML text. */
export { mdCode, mdText } from './util/markdownText';
export { esc as htmlText } from './reference/html';
export { createWorkspaceIndex, itemsOf, type IndexList, type LiveEntries, type WorkspaceIndex } from './workspace/workspaceIndex';
export { createNameIndex, packNames, PackedNameList, type PackedNames } from './workspace/nameIndex';
export {
  CONFIG_FILE_NAMES,
  isConfigFileName,
  parseProjectConfig,
  RULE_LEVEL_SPELLINGS,
  ruleLevelOf,
  type ParsedConfig,
  type ProjectConfig,
} from './config/projectConfig';
export { FailureReader, InferRenderError, type InferRequest, type InferResult, type InferredKind, type Retry } from './inference';
export { effectiveOptions, type ConfigOverrides, type EffectiveOptions } from './config/effectiveOptions';
export type { Contract, ContractCode, ContractDetail, ContractTemplate } from './contract';
export { plainlyClean, RESPONSE_FILE_GLOBS } from './verify';
export { changesMarkdown, changesSummary, placeLabel, REPORT_MARKER, tallyChanges } from './evolution';
export { mirrorsOf, RULE_IDS as CHANGE_RULES, RULES as CHANGE_RULE_INFO, SEVERITIES, severityOf } from './evolution';
export type { ContractChange, Place, RuleId as ChangeRule, RuleInfo as ChangeRuleInfo, Severity } from './evolution';

/** One file of one version of a contract, for `diffContracts`. */
export interface DiffInput {
  readonly doc: TextDocument;
  /** Names the file across versions when its adapter has no `name` (its path; a renamed file: the same key on both sides). */
  readonly fileKey: string;
  readonly opts?: ServiceOptions;
}
export {
  EXPECTED_CATEGORIES,
  UNKNOWN_OPERATION,
  UNKNOWN_TOOL,
  type AdapterOperation,
  type Exchange,
  type PlannedCall,
  type ProbeCase,
  type ProbeKind,
  type ProbeOptions,
  type ProbePlan,
  type ProbeSkip,
  type TargetKind,
  type ToolInfo,
  MISSING_NAME,
  parseScenarios,
  type Scenario,
  type ScenarioProblem,
  type HttpExchange,
  type SessionInfo,
  type Era,
  eraOf,
  REVISIONS,
} from './runtime';

export { DEFAULT_MAX_FILE_SIZE, MAX_FILE_SIZE_CEILING, maxSizeOf } from './parse/sizeLimit';
export type { TextChange } from './parse/modelCache';
export type { PlacedAnswer, RuntimeFinding } from './runtime';

export interface ServiceDeps {
  /** schemas/error-registry.json */
  readonly registry: Registry;
  /** schemas/adapter.schema.json */
  readonly schema: object;
  /** schemas/envelopes/<dialect>.schema.json, keyed by dialect id: mcp-aql, mcp-tool-result, json-rpc, atlas-gate. */
  readonly envelopeSchemas?: Readonly<Record<string, object>>;
  /**
   * `schema`'s validators compiled ahead (the server bundles': scripts/schema-validators.mjs); without them
   * the service compiles `schema` with Ajv when it first validates an adapter.
   */
  readonly validators?: AdapterValidators;
  /**
   * What the service sees of other files (the LSP's or the CLI's workspace index), injected once.
   * Features on a document leave that document's own entries out and read its live text instead.
   * Default: no other file.
   */
  readonly workspace?: WorkspaceCodes;
  /**
   * Each text is read once (the CLI): models are built whole, not in reusable chunks (buildModel's
   * `once`). The editor's server leaves it off: it re-parses on every keystroke.
   */
  readonly once?: boolean;
}

export interface ServiceOptions {
  /** Severity per diagnostic code (mcpAql.rules). */
  readonly rules?: Readonly<Record<string, RuleLevel | undefined>>;
  /** Extra globs of adapter files (mcpAql.files). */
  readonly files?: readonly string[];
  /** At most this many diagnostics per file (default 1,000), errors kept first; Fix all is not limited by it. */
  readonly maxProblems?: number;
  /** Files longer than this (UTF-16 units) get one file.too-large diagnostic and nothing else. */
  readonly maxFileSize?: number;
  /** Extra globs of recorded-response files checked live against the workspace's adapters (mcpAql.responseFiles). */
  readonly responseFiles?: readonly string[];
  /**
   * Which other files' codes a file sees: `workspace` (default: every indexed file), `folder` (files
   * of its own directory) or `file` (none). Registry codes are always seen.
   */
  readonly codeScope?: CodeScope;
  /** The file matches an `ignore` glob of its config file: no feature treats it as an adapter. */
  readonly ignored?: boolean;
  /** Internal, for tests: YAML regions at least this long are parsed incrementally (default 16 KiB). */
  readonly chunkThreshold?: number;
}

export interface AdapterService {
  isAdapter(doc: TextDocument, opts?: ServiceOptions): boolean;
  validate(doc: TextDocument, opts?: ServiceOptions): Diagnostic[];
  quickFixes(doc: TextDocument, range: Range, context: CodeActionContext, opts?: ServiceOptions): CodeAction[];
  fixAll(doc: TextDocument, opts?: ServiceOptions): TextEdit[];
  complete(doc: TextDocument, at: Position, opts?: ServiceOptions, features?: CompletionOptions): CompletionItem[];
  /** Completion as a list: `isIncomplete` when the code list was cut at MAX_CODE_ITEMS. */
  completeList(doc: TextDocument, at: Position, opts?: ServiceOptions, features?: CompletionOptions): CompletionList;
  hover(doc: TextDocument, at: Position, opts?: ServiceOptions, features?: HoverOptions): Hover | null;
  definition(doc: TextDocument, at: Position, opts?: ServiceOptions): Location[];
  references(doc: TextDocument, at: Position, includeDeclaration: boolean, opts?: ServiceOptions): Location[];
  prepareRename(doc: TextDocument, at: Position, opts?: ServiceOptions): { range: Range; placeholder: string } | null;
  rename(doc: TextDocument, at: Position, newName: string, opts?: ServiceOptions): WorkspaceEdit | null;
  documentSymbols(doc: TextDocument, opts?: ServiceOptions): DocumentSymbol[];
  codeLenses(doc: TextDocument, opts?: ServiceOptions): CodeLens[];
  /** The custom codes this document declares (for the workspace index). */
  declaredCodes(doc: TextDocument, opts?: ServiceOptions): CodeDeclaration[];
  /** Every place a code name is written in this document (for the workspace index). */
  codeOccurrences(doc: TextDocument, opts?: ServiceOptions): CodeOccurrence[];
  /**
   * `declaredCodes` and `codeOccurrences` at once, for the workspace index: from the cached model when
   * there is one, else from a fast scan that builds no model (parse/indexScan.ts), else from the model.
   * With `model: true` the model is built (and cached) whenever there is none yet.
   */
  indexEntries(doc: TextDocument, opts?: ServiceOptions, o?: { readonly model?: boolean }): IndexEntries;
  /**
   * `indexEntries` for an open document re-indexed as it is edited, from its current model: each entry made as the
   * index reads it and dropped after (features/liveEntries.ts). Undefined when there is no current model (or the
   * file is ignored): `indexEntries` then.
   */
  liveIndexEntries(doc: TextDocument, opts?: ServiceOptions): LiveEntries | undefined;
  preview(doc: TextDocument, req: PreviewRequest, opts?: ServiceOptions): EnvelopePreview | undefined;
  simulate(doc: TextDocument, req: SimulationRequest, opts?: ServiceOptions): SimulationResult;
  /** The error contract of these adapter documents plus the registry (non-adapters are ignored). */
  contract(adapters: readonly TextDocument[], opts?: ServiceOptions): Contract;
  /** Is this a recorded-response file (`*.responses.jsonl`, `*.envelope.json`, mcpAql.responseFiles)? */
  isResponseFile(uri: string, opts?: ServiceOptions): boolean;
  /** Recorded responses (JSON, JSON Lines, tool results, JSON-RPC) checked against a contract. */
  verifyResponses(doc: TextDocument, contract: Contract, opts?: ServiceOptions): Diagnostic[];
  /**
   * Every change from one version of a contract to another, classified breaking / dangerous / safe
   * (evolution/rules.ts). Codes are compared across all files of a version; non-adapters are ignored.
   */
  diffContracts(before: readonly DiffInput[], after: readonly DiffInput[]): ContractChange[];
  /**
   * An error reference of these adapters (`docs`; docs/cli.md, "Error reference"): one section per code
   * (category, statuses, template, details, recovery, an example envelope per dialect) and the
   * error_mapping tables; markdown, or one self-contained HTML page with every adapter string escaped.
   */
  errorReference(adapters: readonly TextDocument[], req: ReferenceRequest, opts?: ServiceOptions): string;
  /** The contract's error envelopes as TypeScript or JSON Schema text. */
  types(contract: Contract, req: TypesRequest): string;
  /** The operations these adapters declare, with their group (read, create, …) and params. */
  operations(adapters: readonly TextDocument[], opts?: ServiceOptions): AdapterOperation[];
  /**
   * An adapter's `error_codes` / `error_mapping` inferred from recorded JSON-RPC traffic (docs/cli.md,
   * "Inferring a contract"), as a new adapter or added to `existing` without touching its entries.
   * Throws InferRenderError when `existing` is not a YAML mapping.
   */
  inferContract(req: InferRequest): InferResult;
  /** The probe's calls for a server's tools (`probe`): each built to fail, only read-only tools unless `allowWrites`. */
  planProbe(tools: readonly ToolInfo[], operations: readonly AdapterOperation[], allowWrites: boolean, options?: ProbeOptions): ProbePlan;
  /** One answer of a running server judged: the verify engine plus the MCP-level rules (`watch`). */
  judgeAnswer(ex: Exchange, contract: Contract, opts?: ServiceOptions): RuntimeFinding[];
  /** One Streamable HTTP exchange judged by its HTTP facts (findings at offset 0). */
  judgeHttp(x: HttpExchange, opts?: ServiceOptions): RuntimeFinding[];
  /** The answers of a transcript judged, as diagnostics on the transcript (`probe`'s report). */
  answerDiagnostics(doc: TextDocument, answers: readonly PlacedAnswer[], contract: Contract, opts?: ServiceOptions): Diagnostic[];
  readonly registry: Registry;
  /** Drop the cached model of a closed document. */
  forget(uri: string): void;
  /**
   * Drop the cached model of a file read only to index it, but keep the last one so parked: when that
   * file is opened next with the same text and options, its model is reused instead of parsed again
   * (the workspace scan reads a file, then the editor opens it). One parked model at most.
   */
  park(uri: string): void;
  /** Whether a model of `uri` is cached (indexEntries built one: the fast scan could not read the file). */
  holdsModel(uri: string): boolean;
  /**
   * LSP incremental sync: version `from` of `uri` became `to` by these edits (offsets in the text they
   * apply to, in order). Optional: it lets the next model of `to` re-parse only the touched entry
   * without comparing the two texts; without it the change is found by that comparison.
   */
  edited(uri: string, from: number, to: number, changes: readonly TextChange[]): void;
  /**
   * For the language server's idle time after an open: the move of the entries that a keystroke makes, made on
   * the cached model of `uri` one character on and back (parse/patchEntry.ts rehearseMove), so that the first
   * keystroke runs it compiled. No result changes; false when there was nothing to move.
   */
  warmUp(uri: string): boolean;
}

export function createAdapterService(deps: ServiceDeps): AdapterService {
  const registry: RegistryIndex = indexRegistry(deps.registry);
  const schemas = compileSchemas(deps.schema, deps.envelopeSchemas, deps.validators);
  const envelopeValidators = schemas.envelopes;
  const detailTypes = schemas.detailTypes;
  const models = createModelCache(deps.once);
  const validation = createValidation(schemas.adapter);
  const workspace = deps.workspace ?? emptyWorkspace;
  /** Run `f` on the document's context, or answer `none` when the document has no model (not an adapter, too large, ignored). */
  const on = <T>(doc: TextDocument, opts: ServiceOptions | undefined, none: T, f: (c: FeatureContext) => T): T => {
    if (opts?.ignored) return none;
    const model = models.modelOf(doc, opts);
    return model
      ? f({ doc, model, registry, workspace: scopedWorkspace(workspace, doc.uri, opts?.codeScope), envelopeValidators, detailTypes })
      : none;
  };
  /** The models of the adapters among `adapters` (classified on their first 64 KiB), in order. */
  const adapterModels = (
    adapters: readonly TextDocument[],
    opts: ServiceOptions | undefined,
  ): { doc: TextDocument; model: AdapterModel }[] =>
    adapters.flatMap(doc => {
      const model = classify(doc.uri, sourceOf(doc).slice(0, 65536), opts?.files) ? models.modelOf(doc, opts) : undefined;
      return model ? [{ doc, model }] : [];
    });
  /** The models of the adapter files among `inputs`; `transient`: not kept in the cache unless they were (a version read once). */
  const modelsOf = (inputs: readonly DiffInput[], transient: boolean): SnapshotInput[] => {
    const out: SnapshotInput[] = [];
    for (const { doc, fileKey, opts } of inputs) {
      if (opts?.ignored || !classify(doc.uri, sourceOf(doc).slice(0, 65536), opts?.files)) continue;
      const kept = models.has(doc.uri);
      const model = models.modelOf(doc, opts);
      if (transient && !kept) models.drop(doc.uri);
      if (model) out.push({ doc, model, fileKey });
    }
    return out;
  };

  const service: AdapterService = {
    registry: deps.registry,
    isAdapter: (doc, opts) => !opts?.ignored && classify(doc.uri, sourceOf(doc), opts?.files) !== undefined,
    validate(doc, opts) {
      if (opts?.ignored) return [];
      const text = sourceOf(doc);
      const max = maxSizeOf(opts);
      if (text.length > max && classify(doc.uri, text.slice(0, 65536), opts?.files)) return tooLarge(doc, text.length, max, opts);
      models.modelOf(doc, opts);
      const deep = models.deepOf(doc.uri);
      if (deep) return tooDeep(doc, deep, opts);
      return on(doc, opts, [], c => validation.run(c, opts));
    },
    quickFixes: (doc, range, context, opts) => on(doc, opts, [], c => quickFixes(c, range, context)),
    // Fix all sees every problem: the cap is on what is shown, not on what is fixed.
    fixAll: (doc, opts) => on(doc, opts, [], c => fixAll(c, service.validate(doc, { ...opts, maxProblems: Infinity }))),
    complete: (doc, at, opts, f) => on(doc, opts, [], c => complete(c, at, f)),
    completeList: (doc, at, opts, f) => on(doc, opts, { isIncomplete: false, items: [] }, c => completeList(c, at, f)),
    hover: (doc, at, opts, f) => on(doc, opts, null, c => hover(c, at, f)),
    definition: (doc, at, opts) => on(doc, opts, [], c => definition(c, at)),
    references: (doc, at, inc, opts) => on(doc, opts, [], c => references(c, at, inc)),
    prepareRename: (doc, at, opts) => on(doc, opts, null, c => prepareRename(c, at)),
    rename: (doc, at, name, opts) => on(doc, opts, null, c => rename(c, at, name)),
    documentSymbols: (doc, opts) => on(doc, opts, [], c => documentSymbols(c)),
    codeLenses: (doc, opts) => on(doc, opts, [], c => codeLenses(c)),
    declaredCodes: (doc, opts) => on(doc, opts, [], c => declaredCodes(c)),
    codeOccurrences: (doc, opts) => on(doc, opts, [], c => codeOccurrences(c)),
    indexEntries(doc, opts, o) {
      const none: IndexEntries = { declarations: [], occurrences: [] };
      if (opts?.ignored) return none;
      if (!models.isCurrent(doc, opts) && !o?.model) {
        const scanned = indexWithoutModel(doc, opts);
        if (scanned !== undefined) return scanned ?? none;
      }
      return on(doc, opts, none, c => ({ declarations: declaredCodes(c), occurrences: codeOccurrences(c) }));
    },
    liveIndexEntries(doc, opts) {
      if (opts?.ignored || !models.isCurrent(doc, opts)) return undefined;
      return on<LiveEntries | undefined>(doc, opts, undefined, c => liveEntries(c.doc, c.model));
    },
    preview: (doc, req, opts) => on(doc, opts, undefined, c => preview(c, req)),
    simulate: (doc, req, opts) =>
      on(doc, opts, undefined, c => simulate(c, req)) ??
      simulate({ doc, model: buildModel('untitled:empty.adapter.yaml', '')!, registry, workspace, envelopeValidators }, req),
    inferContract: req => inferContract(req, registry, buildContract([], registry)),
    contract: (adapters, opts) => buildContract(adapterModels(adapters, opts), registry),
    diffContracts(before, after) {
      const snapshot = (inputs: readonly DiffInput[]) => {
        const m = modelsOf(inputs, true);
        return buildSnapshot(buildContract(m, registry), m);
      };
      return compareSnapshots(snapshot(before), snapshot(after));
    },
    errorReference(adapters, req, opts) {
      const inputs = modelsOf(
        adapters.map(doc => ({ doc, fileKey: fileName(doc.uri), opts })),
        false,
      );
      // Each code's example envelopes from the file that declares it (registry codes: the first adapter).
      const previewOf = (code: string, uri: string | undefined) => {
        const host = inputs.find(i => i.doc.uri === uri) ?? inputs[0];
        return host && on(host.doc, opts, undefined, ctx => preview(ctx, { code, now: DEFAULT_NOW }));
      };
      return errorReference(inputs, registry, previewOf, req);
    },
    isResponseFile: (uri, opts) => isResponseFile(uri, opts?.responseFiles),
    verifyResponses(doc, contract, opts) {
      const text = doc.getText();
      const max = maxSizeOf(opts);
      if (text.length > max) return tooLarge(doc, text.length, max, opts);
      return toDiagnostics(doc, verifyText(doc.uri, text, contract), new Map(), opts ?? {});
    },
    operations: (adapters, opts) => adapterModels(adapters, opts).flatMap(({ model }) => adapterOperations(model)),
    planProbe,
    judgeAnswer: (ex, contract, opts) => runtimeFindings(ex, contract, opts?.rules),
    judgeHttp: (x, opts) => httpFindings(x, opts?.rules),
    answerDiagnostics: (doc, answers, contract, opts) => toDiagnostics(doc, answerProblems(answers, contract), new Map(), opts ?? {}),
    types: (contract, req) => generateTypes(contract, req),
    forget: uri => {
      models.forget(uri);
      validation.forget(uri);
      // Hollow entries read again may be this document's, their chunks views into its whole text (parse/hollow.ts).
      forgetReads();
    },
    holdsModel: uri => models.holdsModel(uri),
    park: uri => {
      validation.forget(uri);
      models.park(uri);
    },
    edited: (uri, from, to, changes) => models.edited(uri, from, to, changes),
    warmUp: uri => models.warmUp(uri),
  };
  return service;
}
