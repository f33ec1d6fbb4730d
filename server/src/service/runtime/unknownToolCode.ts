/**
 * The JSON-RPC code of an unknown tool's answer (docs/spec-decisions.md, "Run time: `watch` and
 * `probe`", "The code of an unknown tool"): every MCP revision's tools page (Tools: error handling)
 * shows a call to an unknown tool answered as a protocol error with -32602 (Invalid params), "Unknown
 * tool: …", and the 2026-07-28 schema lists an unknown tool under InvalidParamsError. No revision says
 * MUST, so another code is `runtime.unknown-tool-code` at information, except -32603 (Internal error),
 * a warning: it says the server failed, so a client may retry a call that can never succeed or report
 * a fault of the server where the request named no tool.
 */
import { Code } from '../codes';
import type { Problem } from '../checks/types';
import { kindName, member, type JsonNode } from '../verify/json';
import { atLeast, STATELESS_FROM } from './revisions';

const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;
const NAMES: Readonly<Record<number, string>> = {
  [-32700]: 'Parse error',
  [-32600]: 'Invalid Request',
  [-32601]: 'Method not found',
  [INTERNAL_ERROR]: 'Internal error',
};

/** What a call is: to `tool`, not listed (a probe's unknown tool, or a name no `tools/list` answer held), on `revision`. */
export interface UnknownToolCall {
  readonly tool: string;
  readonly revision?: string;
}

/** A JSON-RPC error `err` (no `data.mcp_aql_code`) answering a call to a tool the server does not list. */
export function unknownToolCode(call: UnknownToolCall, err: JsonNode): Problem[] {
  const code = member(err, 'code');
  const n = code?.value.kind === 'number' ? code.value.value : undefined;
  if (n === INVALID_PARAMS) return [];
  const what =
    n !== undefined
      ? `JSON-RPC error ${n}${NAMES[n] ? ` (${NAMES[n]})` : ''}`
      : code
        ? `a JSON-RPC error whose code is a ${kindName(code.value)}`
        : 'a JSON-RPC error with no code';
  const where =
    'MCP shows an unknown tool as -32602 (Invalid params), "Unknown tool: …" (Tools: error handling)' +
    (atLeast(call.revision, STATELESS_FROM) ? `; the ${STATELESS_FROM} schema lists it under InvalidParamsError` : '');
  const head = `'${call.tool}' is not a tool the server listed, and the call was answered with ${what}`;
  const at = code?.value ?? err;
  return [
    n === INTERNAL_ERROR
      ? {
          code: Code.RuntimeUnknownToolCode,
          start: at.start,
          end: at.end,
          message: `${head}, which says the server failed, not that the request named no tool: a client may retry it or report a fault of the server. ${where}.`,
        }
      : {
          code: Code.RuntimeUnknownToolCode,
          start: at.start,
          end: at.end,
          level: 'information',
          message: `${head}: a client that branches on the code does not find an unknown tool there. ${where}.`,
        },
  ];
}
