/**
 * One answer of a running MCP server judged (`watch`, `probe`): the `verify` engine on the JSON-RPC
 * response as it was sent, plus the MCP-level rules that need to know what was asked (docs/spec-decisions.md,
 * "Run time"): a failure answered as a success, a tool error sent as a JSON-RPC error, a text-only error,
 * and for a probe call the category of the code. Offsets are into `response`.
 */
import { Code } from '../codes';
import type { Problem } from '../checks/types';
import type { Contract } from '../contract/contract';
import { kindName, member, parseJson, type JsonNode } from '../verify/json';
import { verifyText } from '../verify/verify';
import { EXPECTED_CATEGORIES, type ProbeCase } from './probeCases';

export interface Exchange {
  /** One JSON-RPC response, as the server wrote it (one line, without the line break). */
  readonly response: string;
  /** The `params.name` of the `tools/call` request it answers. */
  readonly tool: string;
  /** The tool was in the server's `tools/list` answer; undefined when no list was seen. */
  readonly listed?: boolean;
  /** A contract was given: the server claims MCP-AQL envelopes. */
  readonly claimsMcpAql: boolean;
  /** A probe call, built to fail in this way. */
  readonly probe?: ProbeCase;
}

type Obj = JsonNode & { kind: 'object' };
const JSONRPC_PROTOCOL = new Set([-32700, -32600, -32601]);
/** The first words of a text that reports a failure (watch only; a probe knows its call failed). */
const ERROR_TEXT =
  /^\s*(?:\[?(?:mcp\s+)?error\b|failed\b|failure\b|exception\b|fatal\b|unable to\b|could not\b|couldn't\b|cannot\b|can't\b|invalid\b|unauthori[sz]ed\b|forbidden\b|permission denied\b|access denied\b|not found\b)/i;

const span = (n: { start: number; end: number }) => ({ start: n.start, end: n.end });

export function judgeAnswer(ex: Exchange, contract: Contract): Problem[] {
  const r = parseJson(ex.response);
  if (!r.ok || r.node.kind !== 'object') return []; // not a JSON-RPC message: not ours to judge
  const msg = r.node;
  const error = member(msg, 'error');
  const result = member(msg, 'result');
  if (error) return judgeRpcError(ex, error.value, contract);
  if (result?.value.kind === 'object') return judgeResult(ex, result.value, contract);
  return [];
}

/** The MCP-AQL envelope a tool result carries (in a text content or structuredContent), if any. */
export function envelopeOf(result: Obj): Obj | undefined {
  const content = member(result, 'content');
  if (content?.value.kind === 'array')
    for (const item of content.value.items) {
      const text = member(item, 'text');
      if (text?.value.kind !== 'string' || !/^\s*\{/.test(text.value.value)) continue; // only an object can be an envelope
      const s = text.value;
      const inner = parseJson(s.value, i => s.at(i));
      if (inner.ok && inner.node.kind === 'object' && member(inner.node, 'success')) return inner.node;
    }
  const structured = member(result, 'structuredContent');
  if (structured?.value.kind === 'object' && member(structured.value, 'success')) return structured.value;
  return undefined;
}

function firstText(result: Obj): (JsonNode & { kind: 'string' }) | undefined {
  const content = member(result, 'content');
  if (content?.value.kind !== 'array') return undefined;
  for (const item of content.value.items) {
    const text = member(item, 'text');
    if (text?.value.kind === 'string') return text.value;
  }
  return undefined;
}

function judgeResult(ex: Exchange, result: Obj, contract: Contract): Problem[] {
  const isError = member(result, 'isError');
  const flagged = isError?.value.kind === 'boolean' && isError.value.value;
  const env = envelopeOf(result);
  const at = isError ? span(isError.value) : { start: result.start, end: result.start + 1 };
  const out: Problem[] = [];
  if (env) {
    // The verify engine judges the envelope and its isError (recoverable codes are sent as results).
    out.push(...verifyText('answer.jsonl', ex.response, contract));
    const success = member(env, 'success');
    if (ex.probe && success?.value.kind === 'boolean' && success.value.value)
      out.push({
        code: Code.RuntimeUnflaggedFailure,
        ...at,
        message: `'${ex.tool}' answered a call built to fail (${ex.probe.label}) with 'success': true.`,
      });
    if (ex.probe) {
      const code = member(member(env, 'error')?.value, 'code');
      if (code?.value.kind === 'string') out.push(...category(ex, code.value, contract));
    }
    return out;
  }
  if (flagged) {
    const text = firstText(result);
    out.push({
      code: Code.RuntimeTextOnlyError,
      ...span(text ?? result),
      level: ex.claimsMcpAql ? 'warning' : undefined,
      message: `'${ex.tool}' reported a failure as text only (${text ? JSON.stringify(clip(text.value)) : 'no text'}): no MCP-AQL envelope, no code a client can branch on.`,
    });
    return out;
  }
  if (ex.probe) {
    out.push({
      code: Code.RuntimeUnflaggedFailure,
      ...at,
      message: `'${ex.tool}' answered a call built to fail (${ex.probe.label}) with 'isError' ${isError ? 'false' : 'absent (false)'} and no failure envelope: a client takes it for a success.`,
    });
    return out;
  }
  const text = firstText(result);
  if (text && looksLikeError(text.value))
    out.push({
      code: Code.RuntimeUnflaggedFailure,
      ...at,
      level: 'warning',
      message: `'${ex.tool}' answered with 'isError' ${isError ? 'false' : 'absent (false)'} but its text reads as a failure (${JSON.stringify(clip(text.value))}): set isError true, or send an MCP-AQL envelope.`,
    });
  return out;
}

/** Error text: a known first word, or a JSON object with an `error` key and no `success`. */
export function looksLikeError(text: string): boolean {
  if (ERROR_TEXT.test(text)) return true;
  const t = text.trimStart();
  if (!t.startsWith('{')) return false;
  const r = parseJson(text);
  return r.ok && r.node.kind === 'object' && !!member(r.node, 'error') && !member(r.node, 'success');
}

function judgeRpcError(ex: Exchange, err: JsonNode, contract: Contract): Problem[] {
  const out: Problem[] = [];
  const data = member(err, 'data');
  const aql = data?.value.kind === 'object' ? member(data.value, 'mcp_aql_code') : undefined;
  if (aql) {
    // The question dialect (docs/dialects.md): a JSON-RPC error on purpose, judged by verify.
    out.push(...verifyText('answer.jsonl', ex.response, contract));
    if (ex.probe && aql.value.kind === 'string') out.push(...category(ex, aql.value, contract));
    return out;
  }
  const code = member(err, 'code');
  const n = code?.value.kind === 'number' ? code.value.value : undefined;
  if (ex.listed && (n === undefined || !JSONRPC_PROTOCOL.has(n)))
    out.push({
      code: Code.RuntimeProtocolError,
      ...span(code?.value ?? err),
      message: `'${ex.tool}' is a listed tool, but its failure came as JSON-RPC error ${n ?? (code ? kindName(code.value) : '(no code)')}: a host may hide it from the model; send a tool result with isError true (MCP 2025-11-25, Tools: error handling).`,
    });
  return out;
}

function category(ex: Exchange, code: JsonNode & { kind: 'string' }, contract: Contract): Problem[] {
  const c = contract.codes.get(code.value);
  const expected = EXPECTED_CATEGORIES[ex.probe!.kind];
  if (!c?.category || expected.includes(c.category)) return []; // an unknown code is verify.unknown-code
  return [
    {
      code: Code.RuntimeWrongCategory,
      ...span(code),
      message: `${code.value} is ${c.category}, but a call with ${ex.probe!.label} is ${expected.join(' or ')}.`,
    },
  ];
}

const clip = (s: string) => (s.length > 80 ? s.slice(0, 79) + '…' : s);

/** A probe call with no answer: none within the timeout, or the server exited. Offsets of the request line. */
export function judgeSilence(kind: 'timeout' | 'exited', tool: string, what: string, start: number, end: number): Problem {
  return kind === 'timeout'
    ? { code: Code.RuntimeNoAnswer, start, end, message: `'${tool}' did not answer a call with ${what} within the timeout.` }
    : {
        code: Code.RuntimeServerExited,
        start,
        end,
        message: `The server exited after a call to '${tool}' with ${what}; the calls after it were not sent.`,
      };
}
