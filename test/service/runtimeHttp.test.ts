/** Streamable HTTP exchanges judged by their HTTP facts (docs/spec-decisions.md, "Run time: Streamable HTTP"). */
import test from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { HttpExchange } from '../../server/src/service';
import { newService } from './helpers';

const service = newService();
const call = { id: '1', method: 'tools/call' };
const base: HttpExchange = {
  method: 'POST',
  status: 200,
  contentType: 'application/json',
  requests: [call],
  rpcMethods: ['tools/call'],
  mcpMethodHeader: 'tools/call',
  revision: '2025-11-25',
  messages: [{ jsonrpc: '2.0', id: 1, result: { content: [] } }],
  ended: true,
};
const judge = (x: Partial<HttpExchange>) => service.judgeHttp({ ...base, ...x }).map(f => `${f.code}:${f.level}: ${f.message}`);

test('an answer in a JSON body or in its SSE stream, with 200: nothing to say', () => {
  assert.deepEqual(judge({}), []);
  assert.deepEqual(judge({ contentType: 'text/event-stream' }), []);
  // A notification answered 202 with no body, a GET stream: no request to answer.
  assert.deepEqual(judge({ status: 202, contentType: '', requests: [], rpcMethods: ['notifications/initialized'], messages: [] }), []);
});

test('an error status without a JSON-RPC error in the body', () => {
  assert.deepEqual(judge({ status: 500, contentType: 'text/html; charset=utf-8', messages: [] }), [
    'runtime.http-status:warning: HTTP 500 to tools/call, and no JSON-RPC error in the body (text/html): the client cannot tell which request failed or why; send the JSON-RPC error response as the body.',
  ]);
  assert.deepEqual(judge({ status: 400, messages: [{ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'no session' } }] }), []);
});

test('a 2xx carrying an error 2026-07-28 sends with 400; in-band errors stay 200', () => {
  const e = (code: number) => [{ jsonrpc: '2.0', id: 1, error: { code, message: 'x' } }];
  assert.deepEqual(judge({ revision: '2026-07-28', messages: e(-32022) }), [
    'runtime.http-status:warning: JSON-RPC error -32022 to tools/call came with HTTP 200: 2026-07-28 sends it with 400 Bad Request, which is how a client and the proxies before it see the request was refused.',
  ]);
  assert.deepEqual(judge({ revision: '2026-07-28', messages: e(-32602) }), []);
  assert.deepEqual(judge({ revision: '2025-11-25', messages: e(-32022) }), [], 'not a code of that revision');
});

test('an SSE stream that ends or breaks without the answer: the error was not sent in-band', () => {
  assert.deepEqual(judge({ contentType: 'text/event-stream', messages: [{ jsonrpc: '2.0', method: 'notifications/progress' }] }), [
    'runtime.stream-no-answer:error: The SSE stream of tools/call (id 1) ended without its answer: once a stream has started, an error must be sent in it as a JSON-RPC error event, or the client waits for nothing.',
  ]);
  assert.match(judge({ contentType: 'text/event-stream', messages: [], ended: false })[0]!, /broke off without its answer/);
});

test('2026-07-28: a request accepted with a missing or mismatched Mcp-Method header', () => {
  assert.deepEqual(judge({ revision: '2026-07-28', mcpMethodHeader: undefined }), [
    'runtime.method-header:warning: The server accepted tools/call without an Mcp-Method header: 2026-07-28 (SEP-2243) requires it on every POST and a server to refuse a request without it (400, -32020).',
  ]);
  assert.deepEqual(judge({ revision: '2026-07-28', mcpMethodHeader: 'tools/list' }), [
    "runtime.method-header:warning: The server accepted tools/call with Mcp-Method 'tools/list': 2026-07-28 (SEP-2243) requires a server to refuse a request whose header and body disagree (400, -32020).",
  ]);
  // Refused as it should be, or an earlier revision: nothing.
  assert.deepEqual(
    judge({
      revision: '2026-07-28',
      mcpMethodHeader: undefined,
      status: 400,
      messages: [{ jsonrpc: '2.0', id: 1, error: { code: -32020, message: 'x' } }],
    }),
    [],
  );
  assert.deepEqual(judge({ mcpMethodHeader: undefined }), []);
});

test('answerDiagnostics places an HTTP finding on its request line; rules set its level', () => {
  const doc = TextDocument.create('file:///p.jsonl', 'json', 1, '{"id":1}\n');
  const ds = service.answerDiagnostics(doc, [{ at: 0, end: 8, http: { ...base, status: 502, messages: [] } }], service.contract([]));
  assert.deepEqual(
    ds.map(d => [d.code, d.range.start.character, d.range.end.character]),
    [['runtime.http-status', 0, 8]],
  );
  assert.deepEqual(service.judgeHttp({ ...base, status: 502, messages: [] }, { rules: { 'runtime.http-status': 'off' } }), []);
});
