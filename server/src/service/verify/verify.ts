/**
 * `verify`: recorded responses → problems, offsets into the response file. A file is one JSON value
 * (a record, or a list of records) or JSON Lines (one record a line). A record is an MCP-AQL
 * envelope, an MCP tool result (bare, or the `result` of a JSON-RPC response) whose text content
 * holds the envelope, or a JSON-RPC error in the question style (docs/dialects.md). Requests,
 * notifications and other results in a client log are skipped.
 */
import { Code } from '../codes';
import type { Problem } from '../checks/types';
import type { Contract } from '../contract/contract';
import { jsonRpcCategory, RECOVERABLE } from '../envelopes/dialects';
import { uriPath } from '../parse/sourceFile';
import { matchesAny } from '../util/glob';
import { checkCode, checkMessageAndDetails, checkRetry, verifyEnvelope, type Emit, type EnvelopeVerdict } from './envelope';
import { kindName, member, parseJson, type JsonNode } from './json';
import { PlainReading, sourceOf, type InnerCache } from './plainJson';
import { textCode } from './textCode';

/** Response files the editor checks without a setting (docs/cli.md "Verifying recorded responses"). */
export const RESPONSE_FILE_GLOBS: readonly string[] = ['*.responses.jsonl', '*.responses.json', '*.envelope.json'];

export function isResponseFile(uri: string, extra: readonly string[] = []): boolean {
  return matchesAny(uriPath(uri), [...RESPONSE_FILE_GLOBS, ...extra]);
}

const isJsonLines = (uri: string) => /\.(?:jsonl|ndjson)$/i.test(uriPath(uri));

export function verifyText(uri: string, text: string, contract: Contract): Problem[] {
  const problems: Problem[] = [];
  const emit: Emit = p => void problems.push(p);
  if (isJsonLines(uri)) {
    let start = 0;
    while (start <= text.length) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      // The line is read in place, without its CR; a line of whitespace (as String.trim sees it) is skipped.
      const lineEnd = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
      if (!blank(text, start, lineEnd) && !plainlyClean(text.slice(start, lineEnd), contract)) {
        const r = parseJson(text, undefined, start, lineEnd);
        if (!r.ok)
          emit({
            code: Code.VerifyJsonSyntax,
            start: r.offset,
            end: Math.min(r.offset + 1, lineEnd),
            message: `This line is not JSON: ${r.message}. Each line of a .jsonl file is one record.`,
          });
        else verifyRecord(r.node, contract, emit, withOffsets);
      }
      start = end + 1;
    }
    return problems;
  }
  if (!text.trim()) return problems;
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0; // a byte order mark is not JSON, but editors write one
  const r = parseJson(text, undefined, bom);
  if (!r.ok) {
    emit({
      code: Code.VerifyJsonSyntax,
      start: r.offset,
      end: Math.min(r.offset + 1, text.length),
      message: `Not JSON: ${r.message}.${/\n\s*\{/.test(text) ? ' Several records, one a line? Name the file .jsonl.' : ''}`,
    });
    return problems;
  }
  if (r.node.kind === 'array') for (const item of r.node.items) verifyRecord(item, contract, emit, withOffsets);
  else verifyRecord(r.node, contract, emit, withOffsets);
  return problems;
}

/** The JSON value inside a string node (a tool result's text content), undefined when it is not JSON. */
type InnerRead = (s: JsonNode & { kind: 'string' }) => JsonNode | undefined;

interface Reading {
  readonly inner: InnerRead;
  readonly envelope: typeof verifyEnvelope;
}

const withOffsets: Reading = {
  inner: s => {
    const r = parseJson(s.value, i => s.at(i));
    return r.ok ? r.node : undefined;
  },
  envelope: verifyEnvelope,
};

/**
 * verifyEnvelope without offsets, once per contract for a text kept in the cache: its checks stop at the
 * first problem (plainlyClean), so a verdict reached is one of an envelope with none.
 */
const memoEnvelope: typeof verifyEnvelope = (env, contract, emit) => {
  const src = sourceOf(env);
  if (src?.memo?.key === contract) return src.memo.value as EnvelopeVerdict;
  const v = verifyEnvelope(env, contract, emit);
  if (src) src.memo = { key: contract, value: v };
  return v;
};

/** Thrown out of a record's checks without offsets at their first problem. */
const UNSURE = new Error('read the record again with offsets');

/** Tool results' texts read by JSON.parse, shared by every record of every file (bounded, plainJson.ts). */
const innerCache: InnerCache = new Map();

/**
 * A JSON Lines record with no problem at all, known from JSON.parse without offsets (plainJson.ts):
 * the same checks run on that view and stop at the first problem. False also when JSON.parse rejects
 * the line or a check listed the entries of an object with a repeated key; the record is then read
 * again with offsets, so what is reported does not change.
 */
export function plainlyClean(line: string, contract: Contract): boolean {
  const reading = new PlainReading();
  const node = reading.read(line);
  if (!node) return false;
  try {
    verifyRecord(
      node,
      contract,
      () => {
        throw UNSURE;
      },
      { inner: s => reading.readInner(s.value, innerCache), envelope: memoEnvelope },
    );
  } catch (e) {
    if (e === UNSURE) return false;
    throw e;
  }
  return reading.noRepeats();
}

/** Only what String.prototype.trim removes in `text[from, to)`. */
function blank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!TRIMMED.test(text[i]!)) return false;
  return true;
}
const TRIMMED = /^\s$/;

const unknownShape = (emit: Emit, n: JsonNode, message: string) =>
  emit({ code: Code.VerifyUnknownShape, start: n.start, end: n.kind === 'object' || n.kind === 'array' ? n.start + 1 : n.end, message });

function verifyRecord(n: JsonNode, contract: Contract, emit: Emit, inner: Reading): void {
  if (n.kind !== 'object') {
    unknownShape(emit, n, `A record must be an object (an MCP-AQL envelope, a tool result or a JSON-RPC response), not ${kindName(n)}.`);
    return;
  }
  const has = (k: string) => member(n, k) !== undefined;
  if (has('jsonrpc') || (has('id') && (has('result') || has('error')))) {
    if (has('method')) return; // a request or a notification
    const err = member(n, 'error'),
      result = member(n, 'result');
    if (err) {
      jsonRpcError(err.value, contract, emit);
      return;
    }
    if (result?.value.kind === 'object' && member(result.value, 'content')) toolResult(result.value, contract, emit, inner);
    return; // another method's result
  }
  if (has('content')) {
    toolResult(n, contract, emit, inner);
    return;
  }
  if (has('success')) {
    verifyEnvelope(n, contract, emit);
    return;
  }
  unknownShape(
    emit,
    n,
    "Not a recorded response: no 'success' (MCP-AQL envelope), 'content' (tool result) or 'jsonrpc' (JSON-RPC response).",
  );
}

function toolResult(n: JsonNode & { kind: 'object' }, contract: Contract, emit: Emit, read: Reading): void {
  const content = member(n, 'content')!;
  const isError = member(n, 'isError');
  if (isError && isError.value.kind !== 'boolean')
    emit({
      code: Code.VerifyEnvelopeShape,
      start: isError.value.start,
      end: isError.value.end,
      message: `'isError' must be true or false, not ${kindName(isError.value)}.`,
    });
  if (content.value.kind !== 'array') {
    emit({
      code: Code.VerifyEnvelopeShape,
      start: content.value.start,
      end: content.value.end,
      message: `'content' of a tool result must be a list, not ${kindName(content.value)}.`,
    });
    return;
  }
  const flagged = isError?.value.kind === 'boolean' ? isError.value.value : false;
  let env: (JsonNode & { kind: 'object' }) | undefined;
  for (const item of content.value.items) {
    const text = member(item, 'text');
    if (member(item, 'type')?.value.kind !== 'string' || text?.value.kind !== 'string') continue;
    const node = read.inner(text.value);
    if (node?.kind === 'object' && member(node, 'success')) {
      env = node;
      break;
    }
  }
  const structured = member(n, 'structuredContent');
  if (!env && structured?.value.kind === 'object' && member(structured.value, 'success')) env = structured.value;
  if (!env) {
    if (flagged && !declaredText(content.value, contract))
      unknownShape(
        emit,
        content.value,
        '\'isError\' is true but no text content holds an MCP-AQL envelope ({"success": false, "error": {code, message, details}}).',
      );
    return;
  }
  const v = read.envelope(env, contract, emit);
  if (v.success === undefined) return;
  const expected = v.success ? false : !(v.contractCode?.kind === 'error' && RECOVERABLE.has(v.contractCode.code));
  if (flagged === expected) return;
  const at = isError ? isError.value : { start: n.start, end: n.start + 1 };
  const why = v.success
    ? "the envelope succeeds ('success': true)"
    : expected
      ? `${v.code ?? 'this code'} is not one of the recoverable codes (mcp-integration.md s4.1): a client must see a failed call`
      : `${v.code} is recoverable (mcp-integration.md s4.1): it is sent as a normal result the model can act on`;
  emit({
    code: Code.VerifyIsError,
    start: at.start,
    end: at.end,
    data: { expected },
    message: `'isError' is ${isError ? flagged : 'absent (false)'} but should be ${expected}: ${why}.`,
  });
}

/**
 * A text-only failure the contract declares: its text is the template of one of the adapters' own
 * codes (a contract inferred from a server that sends no envelope, docs/spec-decisions.md "Text-only
 * failures in a contract"). Registry codes do not count: the server never named one.
 */
function declaredText(content: JsonNode & { kind: 'array' }, contract: Contract): boolean {
  const texts: string[] = [];
  for (const item of content.items) {
    const t = member(item, 'text');
    if (t?.value.kind === 'string') texts.push(t.value.value);
  }
  return textCode(texts.join('\n'), contract) !== undefined;
}

function jsonRpcError(err: JsonNode, contract: Contract, emit: Emit): void {
  if (err.kind !== 'object') {
    emit({
      code: Code.VerifyEnvelopeShape,
      start: err.start,
      end: err.end,
      message: `'error' of a JSON-RPC response must be an object, not ${kindName(err)}.`,
    });
    return;
  }
  const data = member(err, 'data');
  const aql = data?.value.kind === 'object' ? member(data.value, 'mcp_aql_code') : undefined;
  if (!aql || data?.value.kind !== 'object') return; // a protocol error, not an MCP-AQL error in the question dialect
  if (aql.value.kind !== 'string') {
    emit({
      code: Code.VerifyEnvelopeShape,
      start: aql.value.start,
      end: aql.value.end,
      message: `'mcp_aql_code' must be a string, not ${kindName(aql.value)}.`,
    });
    return;
  }
  for (const e of err.entries)
    if (!['code', 'message', 'data'].includes(e.key))
      emit({
        code: Code.VerifyEnvelopeShape,
        start: e.keyStart,
        end: e.keyEnd,
        message: `'${e.key}' is not a key of a JSON-RPC error (code, message, data).`,
      });
  const rpc = member(err, 'code'),
    message = member(err, 'message');
  const cc = checkCode(aql.value, 'error', contract, emit);
  const x = jsonRpcCategory(aql.value.value, cc?.category);
  const cross = (n: JsonNode, text: string) => emit({ code: Code.VerifyJsonRpcCrosswalk, start: n.start, end: n.end, message: text });
  if (!rpc) emit({ code: Code.VerifyEnvelopeShape, start: err.start, end: err.start + 1, message: "A JSON-RPC error needs 'code'." });
  else if (rpc.value.kind !== 'number' || rpc.value.value !== x.rpc)
    cross(
      rpc.value,
      `JSON-RPC code for ${aql.value.value} is ${x.rpc} (docs/dialects.md), not ${rpc.value.kind === 'number' ? rpc.value.value : kindName(rpc.value)}.`,
    );
  const cat = member(data.value, 'error_category'),
    retry = member(data.value, 'retry_capable');
  if (!cat || cat.value.kind !== 'string' || cat.value.value !== x.cat)
    cross(
      cat?.value ?? aql.value,
      `error_category for ${aql.value.value} is '${x.cat}'${cat ? '' : ' (missing)'} (seed 004, docs/dialects.md).`,
    );
  if (!retry || retry.value.kind !== 'boolean' || retry.value.value !== x.retry)
    cross(retry?.value ?? aql.value, `retry_capable for ${aql.value.value} is ${x.retry}${retry ? '' : ' (missing)'} (seed 004).`);
  if (!message || message.value.kind !== 'string') {
    emit({
      code: Code.VerifyEnvelopeShape,
      start: (message?.value ?? err).start,
      end: message ? message.value.end : err.start + 1,
      message: "A JSON-RPC error needs a string 'message'.",
    });
    return;
  }
  if (!message.value.value.startsWith('Question: '))
    cross(message.value, "The question style asks: the message starts with 'Question: ' (seed 004).");
  if (!cc) return;
  const details = member(data.value, 'details');
  if (details && details.value.kind !== 'object')
    emit({
      code: Code.VerifyEnvelopeShape,
      start: details.value.start,
      end: details.value.end,
      message: `'details' must be an object, not ${kindName(details.value)}.`,
    });
  checkMessageAndDetails(cc, aql.value, message.value, details?.value.kind === 'object' ? details.value : undefined, details, emit, true);
  checkRetry(cc, aql.value, details?.value.kind === 'object' ? details.value : data.value, emit);
}
