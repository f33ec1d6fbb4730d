/**
 * The four dialects of design s4 and the crosswalks between code families (docs/dialects.md):
 * MCP-AQL envelope (ADR-006), MCP tool result (isError per mcp-integration.md s4.1), JSON-RPC error in
 * the question style of seed 004, ATLAS-GATE SystemError of seed 003.
 */
import type { DialectId } from './types';

interface Rendered {
  readonly code: string;
  readonly category?: string;
  readonly kind: 'error' | 'warning';
  readonly message: string;
  readonly details: Record<string, unknown>;
  readonly mirrorConfirmation: boolean;
  readonly toolName: string;
  readonly now: string;
}

/** Codes a client can recover from without a human: sent with isError false (digest s5). */
export const RECOVERABLE = new Set([
  'NOT_FOUND_RESOURCE',
  'NOT_FOUND_OPERATION',
  'VALIDATION_MISSING_PARAM',
  'VALIDATION_INVALID_TYPE',
  'VALIDATION_INVALID_VALUE',
  'PERMISSION_DENIED',
  'RATE_LIMIT_EXCEEDED',
  'RATE_LIMIT_QUOTA_PAUSE',
  'CONFIRMATION_REQUIRED',
]);

export function mcpAql(r: Rendered): unknown {
  if (r.kind === 'warning') {
    return { success: true, data: {}, warnings: [{ code: r.code, message: r.message, details: r.details, severity: 'medium' }] };
  }
  const env: Record<string, unknown> = { success: false, error: { code: r.code, message: r.message, details: r.details } };
  const token = r.details.confirmation_token;
  if (r.mirrorConfirmation && typeof token === 'string') {
    const c: Record<string, unknown> = { token, expires_at: String(r.details.expires_at ?? r.now) };
    if (typeof r.details.confirmation_message === 'string') c.message = r.details.confirmation_message;
    if (Array.isArray(r.details.reasons)) c.reasons = r.details.reasons.map(String);
    env.confirmation = c;
  }
  return env;
}

export function toolResult(r: Rendered): unknown {
  return { content: [{ type: 'text', text: JSON.stringify(mcpAql(r)) }], isError: r.kind === 'error' && !RECOVERABLE.has(r.code) };
}

type JsonRpcCategory =
  | 'missing_parameter'
  | 'invalid_parameter'
  | 'authentication_required'
  | 'service_configuration'
  | 'not_found'
  | 'conflict'
  | 'rate_limited'
  | 'internal_error';

/** MCP-AQL code → JSON-RPC error code and seed 004's error_category. */
export function jsonRpcCategory(
  code: string,
  category: string | undefined,
): { rpc: -32602 | -32603; cat: JsonRpcCategory; retry: boolean } {
  if (code === 'VALIDATION_MISSING_PARAM') return { rpc: -32602, cat: 'missing_parameter', retry: true };
  const c = category ?? code.split('_')[0];
  switch (c) {
    case 'VALIDATION':
      return { rpc: -32602, cat: 'invalid_parameter', retry: true };
    case 'NOT_FOUND':
      return { rpc: -32602, cat: 'not_found', retry: true };
    case 'PERMISSION':
    case 'TOKEN':
      return { rpc: -32603, cat: 'authentication_required', retry: true };
    case 'CONFLICT':
      return { rpc: -32603, cat: 'conflict', retry: true };
    case 'RATE_LIMIT':
      return { rpc: -32603, cat: 'rate_limited', retry: true };
    case 'SCHEMA':
      return { rpc: -32603, cat: 'service_configuration', retry: false };
    default:
      return { rpc: -32603, cat: 'internal_error', retry: false };
  }
}

function question(r: Rendered, cat: JsonRpcCategory): string {
  const p = typeof r.details.param_name === 'string' ? r.details.param_name : undefined;
  switch (cat) {
    case 'missing_parameter':
      return `Question: What value should I use for '${p ?? 'the missing parameter'}'? Please provide it so I can continue. (${r.message})`;
    case 'invalid_parameter':
      return `Question: There seems to be an issue with ${p ? `'${p}'` : 'the request'}. Please correct it and try again. (${r.message})`;
    case 'not_found':
      return `Question: Which target should I use instead? ${r.message}.`;
    case 'authentication_required':
      return `Question: May I have the permission or confirmation this needs? ${r.message}.`;
    case 'conflict':
      return `Question: Should I use a different name or update the existing one? ${r.message}.`;
    case 'rate_limited':
      return `Question: Shall I wait and try again later? ${r.message}.`;
    case 'service_configuration':
      return `Question: The service needs to be configured. Please check the adapter's setup. (${r.message})`;
    default:
      return `Question: The service failed on its side. Would you like me to try again later? (${r.message})`;
  }
}

export function jsonRpc(r: Rendered): unknown {
  const { rpc, cat, retry } = jsonRpcCategory(r.code, r.category);
  const data: Record<string, unknown> = {
    retry_capable: retry,
    error_category: cat,
    tool_name: r.toolName,
    mcp_aql_code: r.code,
    details: r.details,
  };
  if (cat === 'missing_parameter' && typeof r.details.param_name === 'string') data.required_parameter = r.details.param_name;
  if (cat === 'invalid_parameter' && typeof r.details.param_name === 'string') data.parameter = r.details.param_name;
  return { jsonrpc: '2.0', id: 1, error: { code: rpc, message: question(r, cat), data } };
}

/** MCP-AQL code → ATLAS-GATE error_code (seed 003's registry). */
function atlasCode(code: string, category: string | undefined): string {
  const exact: Record<string, string> = {
    VALIDATION_MISSING_PARAM: 'MISSING_REQUIRED_FIELD',
    VALIDATION_INVALID_TYPE: 'INVALID_INPUT_TYPE',
    VALIDATION_INVALID_ENCODING: 'INVALID_INPUT_FORMAT',
    VALIDATION_PATTERN_MISMATCH: 'INVALID_INPUT_FORMAT',
    CONFLICT_ALREADY_EXISTS: 'FILE_ALREADY_EXISTS',
    CONFLICT_VERSION_MISMATCH: 'HASH_MISMATCH',
    CONFIRMATION_REQUIRED: 'UNAUTHORIZED_ACTION',
    PERMISSION_DANGER_LEVEL_DENIED: 'POLICY_VIOLATION',
    PERMISSION_TRUST_LEVEL_INSUFFICIENT: 'POLICY_VIOLATION',
    NOT_FOUND_OPERATION: 'UNKNOWN_TOOL_FAILURE',
  };
  if (exact[code]) return exact[code]!;
  switch (category ?? code.split('_')[0]) {
    case 'VALIDATION':
      return 'INVALID_INPUT_VALUE';
    case 'NOT_FOUND':
      return 'PATH_NOT_FOUND';
    case 'PERMISSION':
      return 'INSUFFICIENT_PERMISSIONS';
    case 'TOKEN':
      return 'UNAUTHORIZED_ACTION';
    case 'CONFLICT':
      return 'FILE_ALREADY_EXISTS';
    case 'RATE_LIMIT':
      return 'POLICY_VIOLATION';
    case 'INTERNAL':
      return 'INTERNAL_ERROR';
    default:
      return 'UNKNOWN_TOOL_FAILURE';
  }
}

export function atlasGate(r: Rendered): unknown {
  return {
    error_code: atlasCode(r.code, r.category),
    human_message: r.message,
    role: null,
    session_id: null,
    workspace_root: null,
    tool_name: r.toolName,
    invariant_id: null,
    phase_id: null,
    plan_hash: null,
    cause: { code: r.code, message: r.message, name: 'McpAqlError', details: r.details },
    timestamp: r.now,
  };
}

export const RENDER: Record<DialectId, { title: string; channel: string; render: (r: Rendered) => unknown }> = {
  'mcp-aql': { title: 'MCP-AQL envelope', channel: 'The operation result (ADR-006), inside the tool result below.', render: mcpAql },
  'mcp-tool-result': {
    title: 'MCP tool result',
    channel: 'A normal tools/call result: text content with the envelope; isError per mcp-integration.md s4.1.',
    render: toolResult,
  },
  'json-rpc': {
    title: 'JSON-RPC error (question style)',
    channel: 'A JSON-RPC error response instead of a result (seed 004); clients retry on retry_capable.',
    render: jsonRpc,
  },
  'atlas-gate': {
    title: 'ATLAS-GATE SystemError',
    channel: 'The SystemError envelope thrown to the MCP transport (seed 003).',
    render: atlasGate,
  },
};
