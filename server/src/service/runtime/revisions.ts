/**
 * The MCP protocol revisions `watch` and `probe` know, and what each defines that the run-time rules
 * read (docs/spec-decisions.md, "Run time: protocol revisions"): the era (an `initialize` handshake, or
 * stateless with the revision in each request's `_meta`) and the JSON-RPC error codes the revision gives
 * a meaning inside the range JSON-RPC 2.0 reserves.
 */

/** Oldest first; revisions are dates, so they also compare as strings. */
export const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;
export const STATELESS_FROM = '2026-07-28';
/** Input validation errors are tool results with isError true (2025-11-25, SEP-1303). */
export const TOOL_RESULT_VALIDATION_FROM = '2025-11-25';

export type Era = 'handshake' | 'stateless';

export const eraOf = (revision: string): Era => (revision >= STATELESS_FROM ? 'stateless' : 'handshake');

/** A revision string compared with another (both `YYYY-MM-DD`); false when `revision` is unknown. */
export const atLeast = (revision: string | undefined, from: string): boolean => revision !== undefined && revision >= from;

/** The range JSON-RPC 2.0 reserves: -32768 to -32000 (-32099 to -32000 for implementation-defined server errors). */
export const RESERVED_MIN = -32768;
export const RESERVED_MAX = -32000;
export const SERVER_ERROR_MIN = -32099;

const JSONRPC = [-32700, -32600, -32601, -32602, -32603];
/** Resource not found: MCP's own code up to 2025-11-25; 2026-07-28 (SEP-2164) uses -32602, -32002 is legacy. */
export const LEGACY_NOT_FOUND = -32002;
const URL_ELICITATION_REQUIRED = -32042;
/** HeaderMismatch, MissingRequiredClientCapability, UnsupportedProtocolVersion (2026-07-28). */
const STATELESS_CODES = [-32020, -32021, -32022];

/** The codes in the reserved range that JSON-RPC or the revision defines; every revision's when it is unknown. */
export function definedCodes(revision: string | undefined): ReadonlySet<number> {
  const codes = [...JSONRPC];
  if (revision === undefined || revision < STATELESS_FROM) codes.push(LEGACY_NOT_FOUND);
  if (revision === undefined || revision >= '2025-11-25') codes.push(URL_ELICITATION_REQUIRED);
  if (revision === undefined || revision >= STATELESS_FROM) codes.push(...STATELESS_CODES);
  return new Set(codes);
}
