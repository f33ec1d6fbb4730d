/** What the preview panel and `mcp-aql-errors preview` show. JSON-serialisable throughout. */
import type { Position } from 'vscode-languageserver-types';

export type DialectId = 'mcp-aql' | 'mcp-tool-result' | 'json-rpc' | 'atlas-gate';
export const DIALECTS: readonly DialectId[] = ['mcp-aql', 'mcp-tool-result', 'json-rpc', 'atlas-gate'];

export interface DetailField {
  readonly name: string;
  readonly type: string;
  readonly required: boolean;
  readonly value: unknown;
  /** Where the sample value came from (`header`: an HTTP header of the simulated response). */
  readonly from: 'sample' | 'example' | 'enum' | 'default' | 'body' | 'header';
  /** Why the value does not fit the key's declared type or enum (then no dialect is valid). */
  readonly problem?: string;
}

export interface DialectEnvelope {
  readonly id: DialectId;
  readonly title: string;
  /** How it travels, in one line (a tool result vs a JSON-RPC error, …). */
  readonly channel: string;
  readonly envelope: unknown;
  readonly valid: boolean;
  readonly errors: readonly string[];
}

export interface EnvelopePreview {
  readonly code: string;
  readonly source: 'registry' | 'custom' | 'workspace' | 'unknown';
  readonly category?: string;
  readonly kind: 'error' | 'warning';
  readonly httpStatus: readonly (number | string)[];
  readonly template?: string;
  readonly message: string;
  readonly details: readonly DetailField[];
  readonly dialects: readonly DialectEnvelope[];
  /** Things the author should know (unknown code, placeholders that rendered literally, …). */
  readonly notes: readonly string[];
  /** Where the code is declared in this file (document offset), when it is. */
  readonly declaredAt?: number;
  /** The upstream status the simulator starts from: the code's own (envelopes/simulatorStart.ts). */
  readonly simulateStatus?: number;
  /** When a client may retry: the code's `retry:`, else its category's default (`retryDeclared` false). */
  readonly retry?: string;
  readonly retryDeclared?: boolean;
}

export interface PreviewRequest {
  readonly position?: Position;
  readonly code?: string;
  /** Values for details keys, overriding the samples. */
  readonly samples?: Readonly<Record<string, unknown>>;
  /** Add the top-level `confirmation` mirror to confirmation codes (digest s3). */
  readonly mirrorConfirmation?: boolean;
  readonly toolName?: string;
  /** ISO time for timestamps and expiries; the service never reads the clock. */
  readonly now?: string;
  /** A message to use instead of the template (the simulator's mapping entry). */
  readonly template?: string;
}

export interface SimulationRequest {
  readonly status: number;
  /** Where the editor's cursor is: in a file of several YAML documents, the document whose rules apply. */
  readonly position?: Position;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly params?: Readonly<Record<string, unknown>>;
  /** The preview form's edited values: they win over the body, headers and samples. */
  readonly samples?: Readonly<Record<string, unknown>>;
  readonly mirrorConfirmation?: boolean;
  readonly now?: string;
  readonly toolName?: string;
}

export interface ConsideredRule {
  /** `error_mapping[403][0]`, `error_codes.X`, `default table`. */
  readonly rule: string;
  readonly code?: string;
  readonly condition?: string;
  readonly matched: boolean;
  readonly steps: readonly string[];
  readonly error?: string;
}

export interface SimulationResult {
  readonly status: number;
  /** The rule that fired. */
  readonly rule: string;
  readonly code: string;
  readonly considered: readonly ConsideredRule[];
  readonly preview?: EnvelopePreview;
}
