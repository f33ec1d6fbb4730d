/**
 * Run time: the JSON-RPC code of an unknown tool's answer (docs/spec-decisions.md, "Run time: `watch`
 * and `probe`", "The code of an unknown tool"). Every MCP revision's tools page shows an unknown tool
 * as -32602 (Invalid params), "Unknown tool: …"; another code is `runtime.unknown-tool-code`, a warning
 * for -32603 (the server says it failed) and information otherwise. Exact messages, levels and spans.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import type { Exchange } from '../../server/src/service';
import { newService } from './helpers';

const service = newService();
const registryOnly = service.contract([]);
const UNKNOWN = { kind: 'unknown-tool', label: "an unknown tool 'nope'" } as const;

/** Each finding as `code:level@text it covers|message`. */
function judge(ex: Partial<Exchange> & { response: string }): string[] {
  const full: Exchange = { tool: 'nope', claimsMcpAql: false, ...ex };
  return service.judgeAnswer(full, registryOnly).map(f => `${f.code}:${f.level}@${full.response.slice(f.start, f.end)}|${f.message}`);
}
const err = (code: unknown, data?: object) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code, message: 'bad', ...(data ? { data } : {}) } });

const WHERE = 'MCP shows an unknown tool as -32602 (Invalid params), "Unknown tool: …" (Tools: error handling)';

test("the probe's unknown tool answered -32603: a warning, the server says it failed when the request named no tool", () => {
  assert.deepEqual(judge({ response: err(-32603), probe: UNKNOWN, listed: false, revision: '2024-11-05' }), [
    `runtime.unknown-tool-code:warning@-32603|'nope' is not a tool the server listed, and the call was answered with JSON-RPC error -32603 (Internal error), which says the server failed, not that the request named no tool: a client may retry it or report a fault of the server. ${WHERE}.`,
  ]);
});

test("another code for an unknown tool is information: -32601, a code of the server's own, an error with no code", () => {
  assert.deepEqual(judge({ response: err(-32601), probe: UNKNOWN, listed: false, revision: '2025-11-25' }), [
    `runtime.unknown-tool-code:information@-32601|'nope' is not a tool the server listed, and the call was answered with JSON-RPC error -32601 (Method not found): a client that branches on the code does not find an unknown tool there. ${WHERE}.`,
  ]);
  assert.deepEqual(judge({ response: err(404), probe: UNKNOWN, listed: false }), [
    `runtime.unknown-tool-code:information@404|'nope' is not a tool the server listed, and the call was answered with JSON-RPC error 404: a client that branches on the code does not find an unknown tool there. ${WHERE}.`,
  ]);
  assert.deepEqual(judge({ response: err('404'), probe: UNKNOWN, listed: false }), [
    `runtime.unknown-tool-code:information@"404"|'nope' is not a tool the server listed, and the call was answered with a JSON-RPC error whose code is a string: a client that branches on the code does not find an unknown tool there. ${WHERE}.`,
  ]);
  const noCode = JSON.stringify({ jsonrpc: '2.0', id: 1, error: { message: 'no such tool' } });
  assert.deepEqual(judge({ response: noCode, probe: UNKNOWN, listed: false }), [
    `runtime.unknown-tool-code:information@{"message":"no such tool"}|'nope' is not a tool the server listed, and the call was answered with a JSON-RPC error with no code: a client that branches on the code does not find an unknown tool there. ${WHERE}.`,
  ]);
});

test('a 2026-07-28 server: the message also names the schema, which lists an unknown tool under InvalidParamsError', () => {
  assert.deepEqual(judge({ response: err(-32603), probe: UNKNOWN, listed: false, revision: '2026-07-28' }), [
    `runtime.unknown-tool-code:warning@-32603|'nope' is not a tool the server listed, and the call was answered with JSON-RPC error -32603 (Internal error), which says the server failed, not that the request named no tool: a client may retry it or report a fault of the server. ${WHERE}; the 2026-07-28 schema lists it under InvalidParamsError.`,
  ]);
});

test('-32602, a tool result, the question dialect: no finding', () => {
  assert.deepEqual(judge({ response: err(-32602), probe: UNKNOWN, listed: false }), []);
  assert.deepEqual(judge({ response: err(-32602), listed: false, revision: '2026-07-28' }), []);
  // The SDK's servers answer an unknown tool as a tool result: runtime.text-only-error speaks for it.
  const asResult = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    result: { content: [{ type: 'text', text: 'Tool nope not found' }], isError: true },
  });
  assert.deepEqual(
    judge({ response: asResult, probe: UNKNOWN, listed: false }).map(s => s.split('|')[0]),
    ['runtime.text-only-error:information@"Tool nope not found"'],
  );
  // MCP-AQL's question dialect picks its JSON-RPC code by category (docs/dialects.md): verify's crosswalk judges it.
  const question = err(-32603, { mcp_aql_code: 'NOT_FOUND_OPERATION' });
  assert.ok(!judge({ response: question, probe: UNKNOWN, listed: false }).some(s => s.startsWith('runtime.unknown-tool-code')));
});

test('watch: a call to a name no tools/list answer held is judged the same; a listed tool or no list seen is not', () => {
  assert.deepEqual(
    judge({ response: err(-32603), listed: false }).map(s => s.split('|')[0]),
    ['runtime.unknown-tool-code:warning@-32603'],
  );
  // A listed tool's JSON-RPC error is runtime.protocol-error; with no tools/list seen nothing is known.
  assert.deepEqual(
    judge({ response: err(-32603), listed: true }).map(s => s.split('|')[0]),
    ['runtime.protocol-error:warning@-32603'],
  );
  assert.deepEqual(judge({ response: err(-32603) }), []);
});

test('a code in the reserved range for an unknown tool: both facts, each its own rule', () => {
  assert.deepEqual(
    judge({ response: err(-32001), probe: UNKNOWN, listed: false, revision: '2025-06-18' }).map(s => s.split('|')[0]),
    ['runtime.reserved-code:information@-32001', 'runtime.unknown-tool-code:information@-32001'],
  );
});

test('the level follows the rules given', () => {
  const full: Exchange = { tool: 'nope', claimsMcpAql: false, response: err(-32601), probe: UNKNOWN, listed: false };
  assert.deepEqual(
    service.judgeAnswer(full, registryOnly, { rules: { 'runtime.unknown-tool-code': 'error' } }).map(f => f.level),
    ['error'],
  );
  assert.deepEqual(service.judgeAnswer(full, registryOnly, { rules: { 'runtime.unknown-tool-code': 'off' } }), []);
});
