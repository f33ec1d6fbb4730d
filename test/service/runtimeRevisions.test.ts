/**
 * Run time across protocol revisions (docs/spec-decisions.md, "Run time: protocol revisions"): error
 * codes in JSON-RPC's reserved range, the legacy resource-not-found code from a 2026-07-28 server,
 * input validation as -32602 per revision beside MCP-AQL's own rule, results that are no outcome yet,
 * and error results with structuredContent. Exact spans.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import type { Exchange } from '../../server/src/service';
import { docOf, newService, yamlDoc } from './helpers';

const service = newService();
const registryOnly = service.contract([]);
const contract = service.contract([
  docOf(
    yamlDoc(
      'name: shop',
      'type: adapter',
      'error_codes:',
      '  NOT_FOUND_ORDER:',
      '    category: NOT_FOUND',
      '    message_template: "Order \'{order_id}\' not found"',
      '    details:',
      '      order_id: { type: string, required: true }',
    ),
    'file:///work/shop.adapter.yaml',
  ),
]);

function judge(ex: Partial<Exchange> & { response: string }, withContract = false): string[] {
  const full: Exchange = { tool: 't', claimsMcpAql: withContract, ...ex };
  return service
    .judgeAnswer(full, withContract ? contract : registryOnly)
    .map(f => `${f.code}:${f.level}@${full.response.slice(f.start, f.end)}`);
}
const err = (code: number, data?: object) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code, message: 'bad', ...(data ? { data } : {}) } });
const result = (r: object) => JSON.stringify({ jsonrpc: '2.0', id: 1, result: r });
const probe = { kind: 'missing-required', label: "a missing required parameter 'id'", param: 'id' } as const;

test('a code in -32768..-32100 that JSON-RPC does not define is a warning; in -32099..-32000 information', () => {
  assert.deepEqual(judge({ response: err(-32500), listed: true, revision: '2025-11-25' }), [
    'runtime.reserved-code:warning@-32500',
    'runtime.protocol-error:warning@-32500',
  ]);
  assert.deepEqual(judge({ response: err(-32050), revision: '2025-06-18' }), ['runtime.reserved-code:information@-32050']);
  // An unlisted tool's error is judged for its code all the same.
  assert.deepEqual(judge({ response: err(-32768) }), ['runtime.reserved-code:warning@-32768']);
  // Outside the range, and the codes each revision defines, are not.
  for (const [code, revision] of [
    [-31999, '2025-11-25'],
    [-32769, '2025-11-25'],
    [-32601, '2024-11-05'],
    [-32002, '2025-11-25'],
    [-32042, '2025-11-25'],
    [-32022, '2026-07-28'],
    [-32020, undefined],
  ] as const)
    assert.deepEqual(judge({ response: err(code), revision }), [], `${code} in ${revision}`);
  // -32042 (URL elicitation) came with 2025-11-25; -32021 with 2026-07-28.
  assert.deepEqual(judge({ response: err(-32042), revision: '2025-06-18' }), ['runtime.reserved-code:information@-32042']);
  assert.deepEqual(judge({ response: err(-32021), revision: '2025-11-25' }), ['runtime.reserved-code:information@-32021']);
});

test("-32002 for a missing resource is legacy from a 2026-07-28 server, MCP's own code before", () => {
  const notFound = err(-32002, { uri: 'x://nope' });
  assert.deepEqual(judge({ response: notFound, method: 'resources/read', revision: '2026-07-28' }), [
    'runtime.legacy-error-code:warning@-32002',
  ]);
  assert.deepEqual(judge({ response: notFound, method: 'resources/read', revision: '2025-11-25' }), []);
  assert.deepEqual(judge({ response: notFound, method: 'resources/read' }), [], 'revision unknown: not judged');
  assert.deepEqual(judge({ response: err(-32602, { uri: 'x://nope' }), method: 'resources/read', revision: '2026-07-28' }), []);
  // A resources/read answer is judged for its code only: a result is not a tool result.
  assert.deepEqual(judge({ response: result({ contents: [] }), method: 'resources/read', revision: '2026-07-28' }), []);
});

test('input validation as -32602: information before 2025-11-25 (SEP-1303), a warning from it; MCP-AQL wants a tool result in every revision', () => {
  assert.deepEqual(judge({ response: err(-32602), listed: true, revision: '2024-11-05', probe }), [
    'runtime.protocol-error:information@-32602',
  ]);
  assert.deepEqual(judge({ response: err(-32602), listed: true, revision: '2025-06-18' }), ['runtime.protocol-error:information@-32602']);
  assert.deepEqual(judge({ response: err(-32602), listed: true, revision: '2025-11-25' }), ['runtime.protocol-error:warning@-32602']);
  assert.deepEqual(judge({ response: err(-32602), listed: true, revision: '2026-07-28' }), ['runtime.protocol-error:warning@-32602']);
  assert.deepEqual(judge({ response: err(-32602), listed: true, revision: '2024-11-05' }, true), ['runtime.protocol-error:warning@-32602']);
  // -32603 is a tool execution error in every revision.
  assert.deepEqual(judge({ response: err(-32603), listed: true, revision: '2024-11-05' }), ['runtime.protocol-error:warning@-32603']);
  const [f] = service.judgeAnswer(
    { response: err(-32602), tool: 'search', listed: true, revision: '2024-11-05', claimsMcpAql: false },
    registryOnly,
  );
  assert.match(f!.message, /what MCP 2024-11-05 shows for invalid arguments, but from 2025-11-25 \(SEP-1303\)/);
});

test('input_required and task handles are no failures, even to a call built to fail', () => {
  const inputRequired = result({ resultType: 'input_required', inputRequests: {}, requestState: 's' });
  assert.deepEqual(judge({ response: inputRequired, probe, revision: '2026-07-28' }), []);
  assert.deepEqual(judge({ response: result({ resultType: 'task', taskId: 't1', status: 'working' }), probe }), []);
  assert.deepEqual(judge({ response: result({ task: { taskId: 't1', status: 'working' } }), probe, revision: '2025-11-25' }), []);
  // resultType complete is judged as any result: no error text, so a success the server meant.
  assert.deepEqual(judge({ response: result({ resultType: 'complete', content: [] }), probe }), ['runtime.accepted-call:warning@{']);
});

const outputSchema = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] };

test("an error result whose structuredContent fails the tool's outputSchema: a 1.x SDK client rejects it", () => {
  const r = result({
    isError: true,
    content: [{ type: 'text', text: "'id' must be a string" }],
    structuredContent: { error: { code: 'INVALID_ARGUMENT' } },
  });
  assert.deepEqual(judge({ response: r, outputSchema }), [
    'runtime.error-output-schema:warning@"structuredContent"',
    'runtime.text-only-error:information@"\'id\' must be a string"',
  ]);
  const [f] = service.judgeAnswer({ response: r, tool: 'lookup', outputSchema, claimsMcpAql: false }, registryOnly);
  assert.match(f!.message, /'lookup''s outputSchema \(\(root\) must have required property 'title'\)/);
  // It matches, there is no outputSchema, or no structuredContent: nothing to reject.
  const fine = result({ isError: true, content: [{ type: 'text', text: 'x' }], structuredContent: { title: 'x' } });
  assert.deepEqual(judge({ response: fine, outputSchema }), ['runtime.text-only-error:information@"x"']);
  assert.deepEqual(judge({ response: r }), ['runtime.text-only-error:information@"\'id\' must be a string"']);
  // A schema Ajv cannot compile is not judged.
  assert.deepEqual(judge({ response: r, outputSchema: { type: 'no-such-type' } }), [
    'runtime.text-only-error:information@"\'id\' must be a string"',
  ]);
});

test('an MCP-AQL envelope in structuredContent is judged on its own beside the text one', () => {
  const good = { success: false, error: { code: 'NOT_FOUND_ORDER', message: "Order 'o1' not found", details: { order_id: 'o1' } } };
  const bad = { success: false, error: { code: 'NOT_FOUND_ORDER', message: "Order 'o1' not found", details: {} } };
  const r = result({ isError: true, content: [{ type: 'text', text: JSON.stringify(good) }], structuredContent: bad });
  assert.deepEqual(judge({ response: r }, true), ['verify.missing-detail:error@"details"']);
  // The same envelope in both: judged once (by verify, on the text).
  const same = result({ isError: true, content: [{ type: 'text', text: JSON.stringify(good) }], structuredContent: good });
  assert.deepEqual(judge({ response: same }, true), []);
  // Only in structuredContent: verify's own reading, once.
  const only = result({ isError: true, content: [{ type: 'text', text: 'Order o1 not found' }], structuredContent: bad });
  assert.deepEqual(judge({ response: only }, true), ['verify.missing-detail:error@"details"']);
});
