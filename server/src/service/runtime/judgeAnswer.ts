/**
 * One answer of a running MCP server judged: the `verify` engine on the JSON-RPC response as it was
 * sent, plus the MCP-level rules that need to know what was asked (docs/spec-decisions.md, "Run time"
 * and "Run time: protocol revisions"): a failure answered as a success, a tool error sent as a JSON-RPC
 * error (per revision), a text-only error, an error code in JSON-RPC's reserved range that the revision
 * does not define, the legacy resource-not-found code from a 2026-07-28 server, an error result a 1.x
 * SDK client rejects against the tool's outputSchema, an unknown tool answered with another code than
 * -32602 (unknownToolCode.ts), and for a probe call the category of the code.
 * Offsets are into `response`.
 */
import { Code } from '../codes';
import type { Problem } from '../checks/types';
import type { Contract } from '../contract/contract';
import { kindName, member, parseJson, type JsonNode } from '../verify/json';
import { verifyText } from '../verify/verify';
import { verifyEnvelope } from '../verify/envelope';
import { textCode } from '../verify/textCode';
import { outputSchemaRejects } from './outputSchema';
import { EXPECTED_CATEGORIES, type ProbeCase } from './probeCases';
import { outcomeOf, type Scenario } from './scenarioOutcome';
import { envelopeOf } from './envelopeOf';
import { unknownToolCode } from './unknownToolCode';

export { envelopeOf };
import {
  atLeast,
  definedCodes,
  LEGACY_NOT_FOUND,
  RESERVED_MAX,
  RESERVED_MIN,
  SERVER_ERROR_MIN,
  STATELESS_FROM,
  TOOL_RESULT_VALIDATION_FROM,
} from './revisions';

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
  /** A call the user wrote, with the outcome they expect (`probe --scenarios`). */
  readonly scenario?: Scenario;
  /** The request's method; `tools/call` when absent (`resources/read` answers are judged for their error codes). */
  readonly method?: string;
  /** The protocol revision the session negotiated (`2024-11-05` … `2026-07-28`); unknown when absent. */
  readonly revision?: string;
  /** The tool's `outputSchema` from `tools/list`, when it has one. */
  readonly outputSchema?: unknown;
}

type Obj = JsonNode & { kind: 'object' };
const JSONRPC_PROTOCOL = new Set([-32700, -32600, -32601]);
/** The first words of a text that reports a failure (watch only; a probe knows its call failed). */
const ERROR_TEXT =
  /^\s*(?:\[?(?:mcp\s+)?error\b|failed\b|failure\b|exception\b|fatal\b|unable to\b|could not\b|couldn't\b|cannot\b|can't\b|invalid\b|unauthori[sz]ed\b|forbidden\b|permission denied\b|access denied\b|not found\b)/i;

const span = (n: { start: number; end: number }) => ({ start: n.start, end: n.end });

export function judgeAnswer(ex: Exchange, contract: Contract): Problem[] {
  if (ex.scenario) return judgeScenario(ex, ex.scenario, contract);
  return judgeOne(ex, contract);
}

function judgeOne(ex: Exchange, contract: Contract): Problem[] {
  const r = parseJson(ex.response);
  if (!r.ok || r.node.kind !== 'object') return []; // not a JSON-RPC message: not ours to judge
  const msg = r.node;
  const error = member(msg, 'error');
  const result = member(msg, 'result');
  if ((ex.method ?? 'tools/call') !== 'tools/call') return error ? codeRules(ex, error.value) : [];
  if (error) return judgeRpcError(ex, error.value, contract);
  if (result?.value.kind === 'object') return judgeResult(ex, result.value, contract);
  return [];
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

/** Every text content of a result, one a line (what `verify` matches against templates). */
function allTexts(result: Obj): string {
  const content = member(result, 'content');
  if (content?.value.kind !== 'array') return '';
  const out: string[] = [];
  for (const item of content.value.items) {
    const text = member(item, 'text');
    if (text?.value.kind === 'string') out.push(text.value.value);
  }
  return out.join('\n');
}

/** A result that is no outcome yet (2026-07-28 `resultType` input_required or task, a 2025-11-25 task handle). */
function pending(result: Obj): boolean {
  const rt = member(result, 'resultType');
  if (rt?.value.kind === 'string' && rt.value.value !== 'complete') return true;
  const task = member(result, 'task');
  return task?.value.kind === 'object' && !member(result, 'content');
}

function judgeResult(ex: Exchange, result: Obj, contract: Contract): Problem[] {
  if (pending(result)) return []; // the call goes on (input to give, a task to poll): not a failure
  const isError = member(result, 'isError');
  const flagged = isError?.value.kind === 'boolean' && isError.value.value;
  const env = envelopeOf(result);
  const at = isError ? span(isError.value) : { start: result.start, end: result.start + 1 };
  const out: Problem[] = [];
  if (flagged) out.push(...structuredRules(ex, result, env, contract));
  if (env) {
    // The verify engine judges the envelope and its isError (recoverable codes are sent as results).
    out.push(...verifyText('answer.jsonl', ex.response, contract));
    const success = member(env, 'success');
    if (ex.probe && success?.value.kind === 'boolean' && success.value.value) out.push(accepted(ex, ex.probe, at, "with 'success': true"));
    if (ex.probe) {
      const code = member(member(env, 'error')?.value, 'code');
      if (code?.value.kind === 'string') out.push(...category(ex, code.value, contract));
    }
    return out;
  }
  if (flagged) {
    const text = firstText(result);
    // With a contract, a text that is one of its own codes' templates is that code (docs/spec-decisions.md,
    // "Text-only failures in a contract"): documented, so information; its category is held to the probe's.
    const own = ex.claimsMcpAql && text ? textCode(allTexts(result), contract) : undefined;
    out.push({
      code: Code.RuntimeTextOnlyError,
      ...span(text ?? result),
      level: own ? 'information' : ex.claimsMcpAql ? 'warning' : undefined,
      message: own
        ? `'${ex.tool}' reported a failure as text only (${JSON.stringify(clip(text!.value))}): the contract's ${own.code} (its template), but no code a client can branch on.`
        : `'${ex.tool}' reported a failure as text only (${text ? JSON.stringify(clip(text.value)) : 'no text'}): no MCP-AQL envelope, no code a client can branch on${ex.claimsMcpAql ? ", and the text is none of the contract's templates" : ''}.`,
    });
    if (own && ex.probe) out.push(...category(ex, { ...text!, value: own.code }, contract));
    return out;
  }
  const text = firstText(result);
  if (ex.probe) {
    // Error text with isError false is a failure a client takes for a success; anything else is a success
    // the server meant: it accepted the call (a coerced value, a default), a lesser finding.
    if (text && looksLikeError(text.value))
      out.push({
        code: Code.RuntimeUnflaggedFailure,
        ...at,
        message: `'${ex.tool}' answered a call built to fail (${ex.probe.label}) with 'isError' ${isError ? 'false' : 'absent (false)'}, no failure envelope and the text ${JSON.stringify(clip(text.value))}: a client takes it for a success.`,
      });
    else
      out.push(
        accepted(
          ex,
          ex.probe,
          at,
          `with 'isError' ${isError ? 'false' : 'absent (false)'} and ${text ? `the text ${JSON.stringify(clip(text.value))}` : 'no text'}`,
        ),
      );
    return out;
  }
  if (text && looksLikeError(text.value))
    out.push({
      code: Code.RuntimeUnflaggedFailure,
      ...at,
      level: 'warning',
      message: `'${ex.tool}' answered with 'isError' ${isError ? 'false' : 'absent (false)'} but its text reads as a failure (${JSON.stringify(clip(text.value))}): set isError true, or send an MCP-AQL envelope.`,
    });
  return out;
}

/** A call built to fail that the server answered with a success it meant. */
function accepted(ex: Exchange, probe: ProbeCase, at: { start: number; end: number }, how: string): Problem {
  const why =
    probe.kind === 'not-found'
      ? `it names something that does not exist: check that the tool reports it`
      : `a lenient tool (a coerced value, a default) is not wrong, but the input was outside its schema`;
  return {
    code: Code.RuntimeAcceptedCall,
    ...at,
    message: `'${ex.tool}' accepted a call built to fail (${probe.label}) and answered a success ${how}; ${why}.`,
  };
}

/** Error text: a known first word, or a JSON object with an `error` key and no `success`. */
export function looksLikeError(text: string): boolean {
  if (ERROR_TEXT.test(text)) return true;
  const t = text.trimStart();
  if (!t.startsWith('{')) return false;
  const r = parseJson(text);
  return r.ok && r.node.kind === 'object' && !!member(r.node, 'error') && !member(r.node, 'success');
}

/**
 * An error result's `structuredContent`: an MCP-AQL envelope there is judged on its own when the text
 * holds another (both reach clients: the model reads the text, code reads the structured one); and a
 * 1.x SDK client rejects the whole result when it does not match the tool's outputSchema.
 */
function structuredRules(ex: Exchange, result: Obj, env: Obj | undefined, contract: Contract): Problem[] {
  const structured = member(result, 'structuredContent');
  if (!structured) return [];
  const out: Problem[] = [];
  const own = structured.value;
  if (own.kind === 'object' && own !== env && member(own, 'success')) verifyEnvelope(own, contract, p => out.push(p));
  if (ex.outputSchema !== undefined) {
    const why = outputSchemaRejects(ex.outputSchema, JSON.parse(ex.response.slice(own.start, own.end)));
    if (why)
      out.push({
        code: Code.RuntimeErrorOutputSchema,
        start: structured.keyStart,
        end: structured.keyEnd,
        message: `A 1.x MCP SDK client rejects this error result, so the model never sees the failure: its structuredContent does not match '${ex.tool}''s outputSchema (${clip(why)}). Send structuredContent that matches it, or none with isError true.`,
      });
  }
  return out;
}

/** The error code's own rules, whatever was asked: the reserved range, the legacy resource-not-found code. */
function codeRules(ex: Exchange, err: JsonNode): Problem[] {
  const code = member(err, 'code');
  if (code?.value.kind !== 'number') return [];
  const n = code.value.value;
  if (n === LEGACY_NOT_FOUND && atLeast(ex.revision, STATELESS_FROM))
    return [
      {
        code: Code.RuntimeLegacyErrorCode,
        ...span(code.value),
        message: `-32002 is the resource-not-found code of revisions before ${STATELESS_FROM}; this server speaks ${ex.revision}, where a missing resource is -32602 (Invalid params) with data.uri (SEP-2164), and clients accept -32002 only as a legacy code.`,
      },
    ];
  if (!Number.isInteger(n) || n < RESERVED_MIN || n > RESERVED_MAX || definedCodes(ex.revision).has(n)) return [];
  const by = ex.revision ? `MCP ${ex.revision}` : 'any MCP revision';
  return [
    {
      code: Code.RuntimeReservedCode,
      ...span(code.value),
      level: n >= SERVER_ERROR_MIN ? 'information' : undefined,
      message:
        n >= SERVER_ERROR_MIN
          ? `JSON-RPC error ${n} is in -32099..-32000, which JSON-RPC leaves to implementations but MCP fills with its own codes (-32020..-32022 since ${STATELESS_FROM}); neither JSON-RPC nor ${by} defines ${n}: a client may read it as a later revision's code. Use a code outside -32768..-32000.`
          : `JSON-RPC error ${n} is in -32768..-32100, which JSON-RPC 2.0 reserves for codes it defines, and neither it nor ${by} defines ${n}. Use a code outside -32768..-32000.`,
    },
  ];
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
  out.push(...codeRules(ex, err));
  if (ex.listed === false || ex.probe?.kind === 'unknown-tool') out.push(...unknownToolCode(ex, err));
  const code = member(err, 'code');
  const n = code?.value.kind === 'number' ? code.value.value : undefined;
  if (ex.listed && (n === undefined || !JSONRPC_PROTOCOL.has(n))) {
    // Invalid arguments as -32602 is what revisions before 2025-11-25 show (Tools: error handling);
    // from 2025-11-25 (SEP-1303) they are tool results. MCP-AQL's own rule (a contract) wants an envelope in every revision.
    const older = n === -32602 && ex.revision !== undefined && !atLeast(ex.revision, TOOL_RESULT_VALIDATION_FROM);
    const what = n ?? (code ? kindName(code.value) : '(no code)');
    out.push({
      code: Code.RuntimeProtocolError,
      ...span(code?.value ?? err),
      level: older && !ex.claimsMcpAql ? 'information' : undefined,
      message: older
        ? `'${ex.tool}' is a listed tool, and its failure came as JSON-RPC error -32602: what MCP ${ex.revision} shows for invalid arguments, but from ${TOOL_RESULT_VALIDATION_FROM} (SEP-1303) input validation errors are tool results with isError true, which the model sees${ex.claimsMcpAql ? '; MCP-AQL sends every tool failure as an envelope in a tool result' : ''}.`
        : `'${ex.tool}' is a listed tool, but its failure came as JSON-RPC error ${what}: a host may hide it from the model; send a tool result with isError true (MCP ${TOOL_RESULT_VALIDATION_FROM}, Tools: error handling).`,
    });
  }
  return out;
}

function category(ex: Exchange, code: JsonNode & { kind: 'string' }, contract: Contract): Problem[] {
  const c = contract.codes.get(code.value);
  const wanted = ex.probe!.expected?.category;
  const expected = wanted ? [wanted] : EXPECTED_CATEGORIES[ex.probe!.kind];
  if (!expected.length) return [];
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

/**
 * A user's scenario: expected to fail, it is judged as a probe call (its category, if given), and a
 * success, the wrong code or the wrong channel is `runtime.scenario-mismatch`; expected to succeed, it
 * is judged as `watch` judges traffic, and a failure is the mismatch.
 */
function judgeScenario(ex: Exchange, sc: Scenario, contract: Contract): Problem[] {
  const out =
    sc.expect === 'failure'
      ? judgeOne({ ...ex, scenario: undefined, probe: { kind: 'scenario', label: `the scenario '${sc.name}'`, expected: sc } }, contract)
      : judgeOne({ ...ex, scenario: undefined, probe: undefined }, contract);
  const got = outcomeOf(ex.response);
  if (!got) return out;
  const mismatch = (message: string): Problem => ({
    code: Code.RuntimeScenarioMismatch,
    start: got.start,
    end: got.end,
    message: `Scenario '${sc.name}': ${message}`,
  });
  if (sc.expect === 'success') {
    if (got.failed)
      out.push(
        mismatch(
          `expected a success, got a failure${got.code ? ` (${got.code})` : ''} as a ${got.channel === 'json-rpc' ? 'JSON-RPC error' : 'tool result'}.`,
        ),
      );
    return out;
  }
  if (!got.failed) return [...out.filter(p => p.code !== Code.RuntimeAcceptedCall), mismatch('expected a failure, got a success.')];
  if (sc.channel && sc.channel !== got.channel)
    out.push(
      mismatch(
        `expected the failure as a ${sc.channel === 'json-rpc' ? 'JSON-RPC error' : 'tool result (isError true)'}, got it as a ${got.channel === 'json-rpc' ? 'JSON-RPC error' : 'tool result'}.`,
      ),
    );
  if (sc.code && sc.code !== got.code) out.push(mismatch(`expected the code ${sc.code}, got ${got.code ?? 'no code'}.`));
  return out;
}
