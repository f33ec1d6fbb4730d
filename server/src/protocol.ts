// Custom requests between client and server (conventions C10). Declared once, namespaced, typed;
// service types are imported type-only, so nothing of the service reaches the client bundle.
import { RequestType, RequestType0 } from 'vscode-languageserver-protocol';
import type { Diagnostic, Position, Range } from 'vscode-languageserver-protocol';
import type { EnvelopePreview, Registry, SimulationResult } from './service';

export type { EnvelopePreview, Registry, RegistryCode, SimulationResult } from './service';

export const FIX_ALL_KIND = 'source.fixAll.mcp-aql';

/**
 * V8 flags the editor's client starts the language server with (and the benches, which measure the server
 * as the editor runs it). A 4 MB semi-space (V8's default on a 64-bit machine grows it to 16 MB): the young
 * generation's peak is most of what a large file's open adds to the server's peak memory, and its objects
 * either die young or belong to the model for good (docs/performance.md, bench/NOTES.md "Peak memory").
 */
export const SERVER_EXEC_ARGV: readonly string[] = ['--max-semi-space-size=4'];

/**
 * Environment the editor's client adds to the language server's (and the benches, as for the flags). One glibc
 * malloc arena: the workspace scan's thread (node/indexThread.ts) mallocs its file's read and its isolate's
 * buffers in an arena of its own, and glibc keeps what that thread frees in its arena instead of handing it to
 * the main thread or the system: 10-13 MB held after the thread ends, about a tenth of the server's peak at
 * 10,000 codes (bench/NOTES.md, "seventh sitting"). Other C libraries and systems ignore the variable.
 */
export const SERVER_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '1' };

export interface PreviewParams {
  readonly uri: string;
  readonly position?: Position;
  readonly code?: string;
  readonly samples?: Record<string, unknown>;
  readonly mirrorConfirmation?: boolean;
}
export namespace PreviewEnvelope {
  export const method = 'mcpAql/previewEnvelope' as const;
  export const type = new RequestType<PreviewParams, EnvelopePreview | null, void>(method);
}

export interface SimulateParams {
  readonly uri: string;
  readonly status: number;
  /** The cursor: in a file of several YAML documents, the document whose rules apply. */
  readonly position?: Position;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  readonly params?: Record<string, unknown>;
  readonly samples?: Record<string, unknown>;
  readonly mirrorConfirmation?: boolean;
}
export namespace Simulate {
  export const method = 'mcpAql/simulate' as const;
  export const type = new RequestType<SimulateParams, SimulationResult | null, void>(method);
}

export namespace GetRegistry {
  export const method = 'mcpAql/registry' as const;
  export const type = new RequestType0<Registry, void>(method);
}

export interface WorkspaceReport {
  readonly files: number;
  readonly problems: { readonly uri: string; readonly diagnostics: Diagnostic[] }[];
  /** The run was cancelled (from the progress notification or the request): `problems` covers the files checked so far. */
  readonly cancelled?: boolean;
}
export namespace ValidateWorkspace {
  export const method = 'mcpAql/validateWorkspace' as const;
  export const type = new RequestType0<WorkspaceReport, void>(method);
}

interface VerifyResponseParams {
  /** The adapter the preview is on: its contract only (else every adapter of the workspace). */
  readonly uri?: string;
  /** A recorded response: one JSON value, or JSON Lines. */
  readonly text: string;
}
export interface VerifyResponseResult {
  /** Positions in the pasted text. */
  readonly diagnostics: Diagnostic[];
  /** The adapters whose contract was used. */
  readonly adapters: readonly string[];
  readonly records: number;
}
export namespace VerifyResponse {
  export const method = 'mcpAql/verifyResponse' as const;
  export const type = new RequestType<VerifyResponseParams, VerifyResponseResult, void>(method);
}

/** Whether the server checks this open document (named like an adapter, sniffed, or matched by mcpAql.files). */
interface IsAdapterParams {
  readonly uri: string;
}
export namespace IsAdapter {
  export const method = 'mcpAql/isAdapter' as const;
  export const type = new RequestType<IsAdapterParams, boolean, void>(method);
}

/** The settings, defined once (server/src/settingsSchema.ts): the client reads its keys from here. */
export { DEFAULT_SETTINGS, SETTINGS, type SettingKey, type Settings } from './settingsSchema';

// ---- Compare Contract (docs/contract-diff.md) ----
export interface CompareContractParams {
  /** A git revision of the workspace folders' repositories (HEAD, main, a tag, a commit). */
  readonly revision: string;
}
export interface ContractChangeItem {
  readonly rule: string;
  readonly severity: 'breaking' | 'dangerous' | 'safe';
  readonly message: string;
  /** A workspace file and the range that made the change (for a removal: the file that held it, its first line), when there is one. */
  readonly uri?: string;
  readonly range?: Range;
}
export interface CompareContractResult {
  /** `HEAD → working tree` */
  readonly title: string;
  /** The report (the same as `mcp-aql-errors diff --format markdown`). */
  readonly markdown: string;
  readonly changes: readonly ContractChangeItem[];
}
export namespace CompareContract {
  export const method = 'mcpAql/compareContract' as const;
  export const type = new RequestType<CompareContractParams, CompareContractResult, void>(method);
}

// ---- Infer Contract from Transcript ----
export interface InferContractParams {
  /** A transcript: JSON Lines of JSON-RPC messages (probe --record, watch --record). */
  readonly text: string;
  /** The new adapter's `name`. */
  readonly name?: string;
}
export interface InferContractResult {
  /** The adapter's YAML text (docs/cli.md, "Inferring a contract"). */
  readonly text: string;
  readonly failures: number;
  readonly codes: readonly string[];
}
export namespace InferContract {
  export const method = 'mcpAql/inferContract' as const;
  export const type = new RequestType<InferContractParams, InferContractResult, void>(method);
}
