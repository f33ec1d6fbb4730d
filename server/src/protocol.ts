// Custom requests between client and server (conventions C10). Declared once, namespaced, typed;
// service types are imported type-only, so nothing of the service reaches the client bundle.
import { RequestType, RequestType0 } from 'vscode-languageserver-protocol';
import type { Diagnostic, Position, Range } from 'vscode-languageserver-protocol';
import type { EnvelopePreview, Registry, SimulationResult } from './service';

export type { EnvelopePreview, Registry, RegistryCode, SimulationResult } from './service';

export const FIX_ALL_KIND = 'source.fixAll.mcp-aql';

// How the editor's client starts the language server (serverProcess.ts: a file of its own, without imports, so the
// client's small loader can fork the server before the client's bundle loads).
export { SERVER_ENV, SERVER_EXEC_ARGV } from './serverProcess';

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
