/**
 * The language service: the only public API of server/src/service (conventions C1). Pure and
 * synchronous; takes TextDocuments and plain options, returns LSP data types. No I/O, no transport.
 */
import Ajv, { type ValidateFunction } from 'ajv';
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
  TextEdit,
  WorkspaceEdit,
} from 'vscode-languageserver-types';
import { codeInfo, type RuleLevel } from './codes';
import { complete, completeList, type CompletionOptions } from './features/completion';
import type { EnvelopeValidators, FeatureContext } from './model/context';
import type { CheckContext } from './checks/types';
import { preview, simulate, type EnvelopePreview, type PreviewRequest, type SimulationRequest, type SimulationResult } from './envelopes';
import { fixAll, quickFixes } from './fixes';
import { hover, type HoverOptions } from './features/hover';
import type { AdapterModel } from './model/model';
import { codeOccurrences, definition, prepareRename, references, rename } from './features/navigation';
import { buildModel } from './parse/buildModel';
import { mergeChanges, type Change } from './parse/reuseLayout';
import { indexRegistry, type Registry, type RegistryIndex } from './model/registry';
import { classify, type Classified } from './parse/sourceFile';
import { firstLoneCr, lfLineEnds } from './parse/lineEnds';
import { MAX_NESTING, nestingOverflow, type TooDeep } from './util/nesting';
import { TOO_DEEP } from './parse/compose';
import { scanIndexEntries, type IndexEntries } from './parse/indexScan';
import { codeLenses, declaredCodes, documentSymbols } from './features/symbols';
import { checks } from './checks';
import { runChecks, toDiagnostics } from './checks/runChecks';
import { createCheckState, runChecksCached, type CheckState } from './checks/incremental';
import { emptyWorkspace, type CodeDeclaration, type CodeOccurrence, type CodeScope, type WorkspaceCodes } from './model/workspace';
import { scopedWorkspace } from './workspace/scope';
import { inferContract, type InferRequest, type InferResult } from './inference';
import { buildContract, contractCodes, toJsonSchema, toTypeScript, type Contract } from './contract';
import { isResponseFile, verifyText } from './verify';
import { buildSnapshot, compareSnapshots, type ContractChange, type SnapshotInput } from './evolution';
import { errorReference } from './reference';
import { DEFAULT_NOW } from './envelopes/samples';
import {
  adapterOperations,
  judgeAnswer,
  judgeHttp,
  judgeSilence,
  sessionNote,
  planProbe,
  type AdapterOperation,
  type Exchange,
  type ProbeOptions,
  type HttpExchange,
  type ProbePlan,
  type SessionInfo,
  type ToolInfo,
} from './runtime';

export { allCodes, Code, codeInfo, docsAnchor, docsHref, isCode, SOURCE, type RuleLevel } from './codes';
export type { Registry, RegistryCode } from './model/registry';
export type { CodeDeclaration, CodeOccurrence, CodeScope, WorkspaceCodes } from './model/workspace';
export type { IndexEntries } from './parse/indexScan';
export { CODE_SCOPES } from './model/workspace';
export type { EnvelopePreview, PreviewRequest, SimulationRequest, SimulationResult } from './envelopes';
export { emptyWorkspace } from './model/workspace';
export type { CompletionOptions } from './features/completion';
export type { HoverOptions } from './features/hover';
export { PREVIEW_COMMAND } from './features/symbols';
export { MAX_NESTING } from './util/nesting';
export { compileGlob, globError, GlobSyntaxError, type Glob } from './util/glob';
export { createWorkspaceIndex, type WorkspaceIndex } from './workspace/workspaceIndex';
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
export { effectiveOptions, type ConfigOverrides, type EffectiveOptions } from './config/effectiveOptions';
export type { Contract, ContractCode, ContractDetail, ContractTemplate } from './contract';
export { RESPONSE_FILE_GLOBS } from './verify';
export { InferRenderError, type InferRequest, type InferResult, type InferredKind, type Retry } from './inference';
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

/** A run-time finding on one answer: offsets into the answer's text, the level after the rules. */
export interface RuntimeFinding {
  readonly code: string;
  readonly level: Exclude<RuleLevel, 'off'>;
  readonly message: string;
  readonly start: number;
  readonly end: number;
}

/** An answer placed in a transcript (`probe`'s report, `watch`'s record): where its line starts. */
export type PlacedAnswer =
  | { readonly at: number; readonly exchange: Exchange }
  /** A probe call that got no answer (timeout) or ended the server: `at`…`end` is its request line. */
  | { readonly at: number; readonly end: number; readonly silence: 'timeout' | 'exited'; readonly tool: string; readonly what: string }
  /** A Streamable HTTP exchange judged by its HTTP facts, its findings on `at`…`end` (its request line). */
  | { readonly at: number; readonly end: number; readonly http: HttpExchange }
  /** What the session agreed on (`runtime.session`, a hint), on `at`…`end`. */
  | { readonly at: number; readonly end: number; readonly session: SessionInfo };

interface TypesRequest {
  readonly lang: 'ts' | 'json-schema';
  /** Every registry code, not only those the adapters' error_mapping targets. */
  readonly includeRegistry?: boolean;
  /** File names for the header. */
  readonly sources: readonly string[];
  readonly version: string;
}

interface ReferenceRequest {
  readonly format: 'markdown' | 'html';
  /** File names for the header. */
  readonly sources: readonly string[];
  readonly version: string;
}

export interface ServiceDeps {
  /** schemas/error-registry.json */
  readonly registry: Registry;
  /** schemas/adapter.schema.json */
  readonly schema: object;
  /** schemas/envelopes/<dialect>.schema.json, keyed by dialect id: mcp-aql, mcp-tool-result, json-rpc, atlas-gate. */
  readonly envelopeSchemas?: Readonly<Record<string, object>>;
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

/** The last segment of a URI's path, decoded: how the reference names an adapter that has no `name`. */
const fileName = (uri: string): string => {
  const last =
    uri
      .replace(/[?#].*$/, '')
      .replace(/\/+$/, '')
      .split('/')
      .pop() ?? uri;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
};

/** 4.5 MiB: about 22,000 custom codes; a cold parse of that size stays within a few seconds. */
export const DEFAULT_MAX_FILE_SIZE = 4.5 * 1024 * 1024;
/** No option lifts the size limit past 16 MiB (the settings' `maximum`; a config file's value is checked against it). */
export const MAX_FILE_SIZE_CEILING = 16 * 1024 * 1024;
/** The size limit in force: the option, never above the ceiling. */
const maxSizeOf = (opts: { readonly maxFileSize?: number } | undefined): number =>
  Math.min(opts?.maxFileSize ?? DEFAULT_MAX_FILE_SIZE, MAX_FILE_SIZE_CEILING);

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
   * An error reference of these adapters (issue 25): one section per code (category, statuses, template,
   * details, recovery, an example envelope per dialect) and the error_mapping tables; markdown, or one
   * self-contained HTML page with every adapter string escaped.
   */
  errorReference(adapters: readonly TextDocument[], req: ReferenceRequest, opts?: ServiceOptions): string;
  /**
   * An adapter's `error_codes` / `error_mapping` inferred from recorded JSON-RPC traffic (docs/cli.md,
   * "Inferring a contract"), as a new adapter or added to `existing` without touching its entries.
   * Throws InferRenderError when `existing` is not a YAML mapping.
   */
  inferContract(req: InferRequest): InferResult;
  /** The contract's error envelopes as TypeScript or JSON Schema text. */
  types(contract: Contract, req: TypesRequest): string;
  /** The operations these adapters declare, with their group (read, create, …) and params. */
  operations(adapters: readonly TextDocument[], opts?: ServiceOptions): AdapterOperation[];
  /** The probe's calls for a server's tools (issue 24): each built to fail, only read-only tools unless `allowWrites`. */
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
}

/** One edit in offsets: [start, end) of the text before it became `text`. */
export interface TextChange {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** Validators of one error_codes entry and one error_mapping value, when the schema has the expected shape. */
function entryValidators(ajv: Ajv, schema: object): { code: ValidateFunction; mapping: ValidateFunction } | undefined {
  const id = (schema as { $id?: string }).$id;
  const props = (schema as { properties?: Record<string, { additionalProperties?: unknown }> }).properties;
  if (!id || !props?.error_codes?.additionalProperties || !props.error_mapping?.additionalProperties) return undefined;
  try {
    return {
      code: ajv.compile({ $ref: `${id}#/properties/error_codes/additionalProperties` }),
      mapping: ajv.compile({ $ref: `${id}#/properties/error_mapping/additionalProperties` }),
    };
  } catch {
    return undefined;
  }
}

/** `definitions.detailType.enum` of the adapter schema (completion of details types). */
function detailTypesOf(schema: object): string[] | undefined {
  const e = (schema as { definitions?: { detailType?: { enum?: unknown[] } } }).definitions?.detailType?.enum;
  return Array.isArray(e) ? e.filter((x): x is string => typeof x === 'string') : undefined;
}

/** The one diagnostic of a file over `maxFileSize` (nothing else is checked). */
function tooLarge(doc: TextDocument, max: number, opts: ServiceOptions | undefined): Diagnostic[] {
  const size = doc.getText().length;
  const message = `This file has ${size} characters, more than mcpAql.maxFileSize (${max}); it is not checked.`;
  return toDiagnostics(doc, [{ code: 'file.too-large', start: 0, end: 0, message, data: { size, max } }], new Map(), opts ?? {});
}

/** The one diagnostic of a file nested past MAX_NESTING (nothing is parsed, nothing else is checked). */
function tooDeep(doc: TextDocument, deep: TooDeep, opts: ServiceOptions | undefined): Diagnostic[] {
  const message = `This file nests deeper than ${deep.limit} levels here; it is not parsed or checked (the parser would exhaust its stack).`;
  return toDiagnostics(
    doc,
    [{ code: 'file.too-deep', start: deep.offset, end: deep.offset + 1, message, data: { limit: deep.limit } }],
    new Map(),
    opts ?? {},
  );
}

/** Where the file's YAML (or JSON) text nests past MAX_NESTING, by the linear scan that runs before any parse. */
function deepIn(cls: Classified, text: string): TooDeep | undefined {
  return nestingOverflow(text, cls.region.start, cls.region.end);
}

/**
 * A keystroke: an edit inside one line of a text that was scanned and found shallow. It spares the
 * keystroke the nesting scan of the whole file; the parse's own depth check (parse/compose.ts) still
 * guards the composer.
 */
function withinLine(before: string, after: string, c: Change): boolean {
  if (c.oldEnd - c.start > 256 || c.newEnd - c.start > 256) return false;
  const lineBreak = /[\r\n]/;
  return !lineBreak.test(before.slice(c.start, c.oldEnd)) && !lineBreak.test(after.slice(c.start, c.newEnd));
}

export function createAdapterService(deps: ServiceDeps): AdapterService {
  const registry: RegistryIndex = indexRegistry(deps.registry);
  // The schemas are compiled when a feature first needs them (tens of ms): validation the adapter schema,
  // previews and the simulator the envelope schemas; `watch` and `probe` none (test/service/lazySchemas.test.ts).
  // They are ours and checked against their meta-schema by that test, not on every start: compiling the
  // meta-schema to check them was two thirds of the adapter schema's compile (~50 ms of a one-file `check`).
  const ajv = new Ajv({ allErrors: true, strict: false, verbose: true, validateSchema: false });
  let adapterValidators: Pick<CheckContext, 'validateSchema' | 'validateEntry'> | undefined;
  const schemaValidators = () =>
    (adapterValidators ??= { validateSchema: ajv.compile(deps.schema), validateEntry: entryValidators(ajv, deps.schema) });
  let envelopes: ReadonlyMap<string, ValidateFunction> | undefined;
  const envelopeValidators: EnvelopeValidators = {
    get: id =>
      (envelopes ??= new Map(Object.entries(deps.envelopeSchemas ?? {}).map(([k, schema]) => [k, ajv.compile(schema)] as const))).get(id),
  };
  const cache = new Map<string, { version: number; text: string; files?: string; model: AdapterModel | undefined; deep?: TooDeep }>();
  /** Per uri: the union of the edits from version `from` to version `to` (offsets of `to`'s text at the new end). */
  const pending = new Map<string, { from: number; to: number; change: Change }>();
  const detailTypes = detailTypesOf(deps.schema);
  /** Per uri: what the checks kept of the last validation, so the next one recomputes the changed entries only. */
  const checkStates = new Map<string, CheckState>();
  const checkState = (uri: string): CheckState => {
    let st = checkStates.get(uri);
    if (!st) checkStates.set(uri, (st = createCheckState()));
    return st;
  };
  /** The last model `park`ed, with the options it was built with. */
  let parked: { uri: string; text: string; files: string; model: AdapterModel | undefined } | undefined;

  const modelOf = (doc: TextDocument, opts?: ServiceOptions): AdapterModel | undefined => {
    const text = doc.getText();
    const hit = cache.get(doc.uri);
    if (hit && hit.version === doc.version && hit.text === text) return hit.model;
    if (!hit && parked?.uri === doc.uri && parked.text === text && parked.files === JSON.stringify(opts?.files ?? [])) {
      const model = parked.model;
      parked = undefined;
      if (model && text.length <= maxSizeOf(opts)) {
        cache.set(doc.uri, { version: doc.version, text, files: JSON.stringify(opts?.files ?? []), model });
        return model;
      }
    }
    const p = pending.get(doc.uri);
    pending.delete(doc.uri);
    const change = p && hit && p.from === hit.version && p.to === doc.version ? p.change : undefined;
    // Lone CRs read as LF (parse/lineEnds.ts), as buildModel reads them: front matter and nesting are found in that text.
    const lf = lfLineEnds(text).text;
    const cls = text.length > maxSizeOf(opts) ? undefined : classify(doc.uri, lf, opts?.files);
    const deep = cls && !(hit?.model && !hit.deep && change && withinLine(hit.text, text, change)) ? deepIn(cls, lf) : undefined;
    const model =
      cls && !deep
        ? buildModel(doc.uri, text, opts?.files, { previous: hit?.model, chunkThreshold: opts?.chunkThreshold, change, once: deps.once })
        : undefined;
    cache.set(doc.uri, { version: doc.version, text, files: JSON.stringify(opts?.files ?? []), model, deep });
    return model;
  };
  const workspace = deps.workspace ?? emptyWorkspace;
  /** Run `f` on the document's context, or answer `none` when the document has no model (not an adapter, too large, ignored). */
  const on = <T>(doc: TextDocument, opts: ServiceOptions | undefined, none: T, f: (c: FeatureContext) => T): T => {
    if (opts?.ignored) return none;
    const model = modelOf(doc, opts);
    return model
      ? f({ doc, model, registry, workspace: scopedWorkspace(workspace, doc.uri, opts?.codeScope), envelopeValidators, detailTypes })
      : none;
  };

  /** The models of the adapter files among `inputs`; `transient`: not kept in the cache unless they were (a version read once). */
  const modelsOf = (inputs: readonly DiffInput[], transient: boolean): SnapshotInput[] => {
    const models: SnapshotInput[] = [];
    for (const { doc, fileKey, opts } of inputs) {
      if (opts?.ignored || !classify(doc.uri, doc.getText().slice(0, 65536), opts?.files)) continue;
      const kept = cache.has(doc.uri);
      const model = modelOf(doc, opts);
      if (transient && !kept) cache.delete(doc.uri);
      if (model) models.push({ doc, model, fileKey });
    }
    return models;
  };

  const service: AdapterService = {
    registry: deps.registry,
    isAdapter: (doc, opts) => !opts?.ignored && classify(doc.uri, doc.getText(), opts?.files) !== undefined,
    validate(doc, opts) {
      if (opts?.ignored) return [];
      const text = doc.getText();
      const max = maxSizeOf(opts);
      if (text.length > max && classify(doc.uri, text.slice(0, 65536), opts?.files)) {
        return tooLarge(doc, max, opts);
      }
      modelOf(doc, opts);
      const deep = cache.get(doc.uri)?.deep;
      if (deep) return tooDeep(doc, deep, opts);
      return on(doc, opts, [], c => {
        // Deeper than the scan saw (broken text, or a keystroke it skipped): the parse refused, and says only that.
        const refused = c.model.syntaxErrors.find(e => e.yamlCode === TOO_DEEP);
        if (refused) return tooDeep(doc, { offset: refused.start, limit: MAX_NESTING }, opts);
        const ctx = { model: c.model, registry, ...schemaValidators(), workspace: c.workspace };
        // A model parsed in chunks keeps its unchanged entries from one version to the next, and the
        // checks keep their results with them; a whole parse (a small file, JSON) makes every entry new.
        if (!c.model.parseState) checkStates.delete(doc.uri);
        const problems = c.model.parseState ? runChecksCached(checkState(doc.uri), ctx) : runChecks(checks, ctx);
        return toDiagnostics(doc, problems, c.model.suppressions, opts ?? {});
      });
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
      const text = doc.getText();
      const hit = cache.get(doc.uri);
      const cached = hit && hit.version === doc.version && hit.text === text && hit.files === JSON.stringify(opts?.files ?? []);
      if (!cached && !o?.model) {
        if (text.length > maxSizeOf(opts)) return none;
        const cls = classify(doc.uri, text, opts?.files);
        if (!cls) return none;
        // The scan reads no lone CR (it would miss a CR-only front matter): the model reads them as LF. It reads
        // at most SHALLOW levels, so a text it reads needs no nesting scan (util/nesting.ts); any other takes it.
        const fast = firstLoneCr(text, 0, text.length) < 0 ? scanIndexEntries(doc, cls) : undefined;
        if (fast) return fast;
        if (deepIn(cls, text)) return none;
      }
      return on(doc, opts, none, c => ({ declarations: declaredCodes(c), occurrences: codeOccurrences(c) }));
    },
    preview: (doc, req, opts) => on(doc, opts, undefined, c => preview(c, req)),
    simulate: (doc, req, opts) =>
      on(doc, opts, undefined, c => simulate(c, req)) ??
      simulate({ doc, model: buildModel('untitled:empty.adapter.yaml', '')!, registry, workspace, envelopeValidators }, req),
    inferContract(req) {
      return inferContract(req, registry, buildContract([], registry));
    },
    contract(adapters, opts) {
      const inputs = adapters.flatMap(doc => {
        const model = classify(doc.uri, doc.getText().slice(0, 65536), opts?.files) ? modelOf(doc, opts) : undefined;
        return model ? [{ doc, model }] : [];
      });
      return buildContract(inputs, registry);
    },
    diffContracts(before, after) {
      const snapshot = (inputs: readonly DiffInput[]) => {
        const models = modelsOf(inputs, true);
        return buildSnapshot(buildContract(models, registry), models);
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
      if (text.length > max) {
        return tooLarge(doc, max, opts);
      }
      return toDiagnostics(doc, verifyText(doc.uri, text, contract), new Map(), opts ?? {});
    },
    operations(adapters, opts) {
      return adapters.flatMap(doc => {
        const model = classify(doc.uri, doc.getText().slice(0, 65536), opts?.files) ? modelOf(doc, opts) : undefined;
        return model ? adapterOperations(model) : [];
      });
    },
    planProbe,
    judgeAnswer(ex, contract, opts) {
      const out: RuntimeFinding[] = [];
      for (const p of judgeAnswer(ex, contract)) {
        const level = opts?.rules?.[p.code] ?? p.level ?? codeInfo[p.code].level;
        if (level !== 'off') out.push({ code: p.code, level, message: p.message, start: p.start, end: p.end });
      }
      return out;
    },
    judgeHttp(x, opts) {
      const out: RuntimeFinding[] = [];
      for (const p of judgeHttp(x)) {
        const level = opts?.rules?.[p.code] ?? p.level ?? codeInfo[p.code].level;
        if (level !== 'off') out.push({ code: p.code, level, message: p.message, start: p.start, end: p.end });
      }
      return out;
    },
    answerDiagnostics(doc, answers, contract, opts) {
      const problems = answers.flatMap(a =>
        'exchange' in a
          ? judgeAnswer(a.exchange, contract).map(p => ({ ...p, start: p.start + a.at, end: p.end + a.at }))
          : 'http' in a
            ? judgeHttp(a.http).map(p => ({ ...p, start: a.at, end: a.end }))
            : 'session' in a
              ? [sessionNote(a.session, a.at, a.end)]
              : [judgeSilence(a.silence, a.tool, a.what, a.at, a.end)],
      );
      return toDiagnostics(doc, problems, new Map(), opts ?? {});
    },
    types(contract, req) {
      const codes = contractCodes(contract, req.includeRegistry ?? false);
      const opts = { sources: req.sources, version: req.version };
      return req.lang === 'ts' ? toTypeScript(codes, opts) : JSON.stringify(toJsonSchema(codes, opts), null, 2) + '\n';
    },
    forget: uri => {
      cache.delete(uri);
      checkStates.delete(uri);
      pending.delete(uri);
      if (parked?.uri === uri) parked = undefined;
    },
    holdsModel: uri => !!cache.get(uri)?.model,
    park: uri => {
      const hit = cache.get(uri);
      service.forget(uri);
      if (hit?.model) parked = { uri, text: hit.text, files: hit.files ?? '[]', model: hit.model };
    },
    edited: (uri, from, to, changes) => {
      let p = pending.get(uri);
      if (p && p.to !== from) p = undefined;
      let change = p?.change;
      for (const c of changes) {
        const next: Change = { start: c.start, oldEnd: c.end, newEnd: c.start + c.text.length };
        change = change ? mergeChanges(change, next) : next;
      }
      if (change) pending.set(uri, { from: p?.from ?? from, to, change });
      else pending.delete(uri);
    },
  };
  return service;
}
