/** Run time: one answer of a running MCP server judged, and the probe's plan; exact spans. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Exchange, PlannedCall, ToolInfo } from '../../server/src/service';
import { newService, yamlDoc } from './helpers';

const ADAPTER = yamlDoc(
  'name: shop',
  'type: adapter',
  'operations:',
  '  read:',
  '    - name: get_order',
  '      params:',
  '        order_id: { type: string, required: true }',
  '        view: { type: string, enum: [short, full] }',
  '  update:',
  '    - name: reserve_item',
  '      params:',
  '        sku: { type: string, required: true }',
  'error_codes:',
  '  NOT_FOUND_ORDER:',
  '    category: NOT_FOUND',
  '    message_template: "Order \'{order_id}\' not found"',
  '    details:',
  '      order_id: { type: string, required: true }',
);
const service = newService();
const adapter = TextDocument.create('file:///work/shop.adapter.yaml', 'yaml', 1, ADAPTER);
const contract = service.contract([adapter]);
const registryOnly = service.contract([]);

/** Each finding as `code@text it covers`. */
function judge(ex: Partial<Exchange> & { response: string }, withContract = false): string[] {
  const full: Exchange = { tool: 't', claimsMcpAql: withContract, ...ex };
  return service
    .judgeAnswer(full, withContract ? contract : registryOnly)
    .map(f => `${f.code}:${f.level}@${full.response.slice(f.start, f.end)}`);
}
const result = (r: object) => JSON.stringify({ jsonrpc: '2.0', id: 1, result: r });
const text = (s: string, isError?: boolean) =>
  result({ content: [{ type: 'text', text: s }], ...(isError === undefined ? {} : { isError }) });
const env = (o: object) => JSON.stringify(o);
const probeCase = { kind: 'missing-required', label: "a missing required parameter 'order_id'", param: 'order_id' } as const;

test('watch: error text with isError false (or absent) is an unflagged failure, a warning read from the first words', () => {
  assert.deepEqual(judge({ response: text('Error: repository not found', false) }), ['runtime.unflagged-failure:warning@false']);
  assert.deepEqual(judge({ response: text('failed to list issues: 401') }), ['runtime.unflagged-failure:warning@{']);
  assert.deepEqual(judge({ response: text('{"error":"boom"}', false) }), ['runtime.unflagged-failure:warning@false']);
  // A success that mentions errors further on, and a JSON object with success, are not read as errors.
  assert.deepEqual(judge({ response: text('3 issues; one says error handling is broken', false) }), []);
  assert.deepEqual(judge({ response: text('{"error":"x","success":true}', false) }), [
    'verify.envelope-shape:error@\\"error\\"',
    'verify.envelope-shape:error@{',
  ]);
});

test('a text-only tool error is information without a contract, a warning with one', () => {
  const r = text('MCP error -32602: Tool nope not found', true);
  assert.deepEqual(judge({ response: r }), ['runtime.text-only-error:information@"MCP error -32602: Tool nope not found"']);
  assert.deepEqual(judge({ response: r }, true), ['runtime.text-only-error:warning@"MCP error -32602: Tool nope not found"']);
});

test('a listed tool answering with a JSON-RPC error is a protocol error; an unknown tool or a parse error is not', () => {
  const err = (code: number) => JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code, message: 'bad' } });
  assert.deepEqual(judge({ response: err(-32602), listed: true }), ['runtime.protocol-error:warning@-32602']);
  assert.deepEqual(judge({ response: err(-32603), listed: true }), ['runtime.protocol-error:warning@-32603']);
  assert.deepEqual(judge({ response: err(-32602), listed: false }), []);
  assert.deepEqual(judge({ response: err(-32602) }), [], 'no tools/list seen: not judged');
  assert.deepEqual(judge({ response: err(-32700), listed: true }), []);
});

test('an envelope goes through the verify engine: success:false with isError false for a non-recoverable code', () => {
  const e = env({ success: false, error: { code: 'NOT_FOUND_ORDER', message: "Order 'o1' not found", details: { order_id: 'o1' } } });
  assert.deepEqual(judge({ response: text(e, false) }, true), ['verify.is-error:error@false']);
  assert.deepEqual(judge({ response: text(e, true) }, true), []);
  const drift = env({ success: false, error: { code: 'NOT_FOUND_ORDER', message: 'Order o1 is gone', details: {} } });
  assert.deepEqual(
    judge({ response: text(drift, true) }, true).map(s => s.split('@')[0]),
    ['verify.missing-detail:error', 'verify.message-mismatch:warning'],
  );
});

test('probe: a call built to fail answered with error text and isError false is an unflagged failure (error)', () => {
  assert.deepEqual(judge({ response: text('Error: order not found', false), probe: probeCase }), ['runtime.unflagged-failure:error@false']);
  assert.deepEqual(judge({ response: text('{"error":"no such order"}'), probe: probeCase }), ['runtime.unflagged-failure:error@{']);
});

test('probe: a call built to fail answered with a real success is an accepted call (warning), not an unflagged failure', () => {
  assert.deepEqual(judge({ response: text('here is your order', false), probe: probeCase }), ['runtime.accepted-call:warning@false']);
  assert.deepEqual(judge({ response: result({ content: [] }), probe: probeCase }), ['runtime.accepted-call:warning@{']);
  assert.deepEqual(judge({ response: text(env({ success: true, data: {} })), probe: probeCase }), ['runtime.accepted-call:warning@{']);
  // A lenient server that turns 12345 into "12345" and answers the order.
  const wrongType = { kind: 'wrong-type', label: "parameter 'order_id' of the wrong type (not string)", param: 'order_id' } as const;
  const [f] = service.judgeAnswer(
    { tool: 'get_order', claimsMcpAql: false, response: text('{"order_id":"12345","status":"open"}', false), probe: wrongType },
    registryOnly,
  );
  assert.equal(f?.code, 'runtime.accepted-call');
  assert.match(
    f!.message,
    /accepted a call built to fail \(parameter 'order_id' of the wrong type \(not string\)\) and answered a success/,
  );
  const missing = { kind: 'not-found', label: "a path that does not exist in 'path'", param: 'path', target: 'path' } as const;
  const [g] = service.judgeAnswer({ tool: 'read_file', claimsMcpAql: false, response: text('', false), probe: missing }, registryOnly);
  assert.match(g!.message, /names something that does not exist/);
});

test('probe: a missing thing reported by the tool, as a text error or a NOT_FOUND code, is right', () => {
  const missing = { kind: 'not-found', label: "an id that does not exist in 'order_id'", param: 'order_id', target: 'id' } as const;
  assert.deepEqual(judge({ response: text("Error: ENOENT: no such file or directory, open '/x'", true), probe: missing }), [
    'runtime.text-only-error:information@"Error: ENOENT: no such file or directory, open \'/x\'"',
  ]);
  const e = env({ success: false, error: { code: 'NOT_FOUND_ORDER', message: "Order 'o1' not found", details: { order_id: 'o1' } } });
  assert.deepEqual(judge({ response: text(e, true), probe: missing }, true), []);
});

test('probe: a code of the wrong category, in an envelope or a JSON-RPC question-style error', () => {
  const e = env({ success: false, error: { code: 'NOT_FOUND_ORDER', message: "Order 'o1' not found", details: { order_id: 'o1' } } });
  assert.deepEqual(judge({ response: text(e, true), probe: probeCase }, true), ['runtime.wrong-category:error@\\"NOT_FOUND_ORDER\\"']);
  const question = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    error: {
      code: -32002,
      message: "Question: Order 'o1' not found",
      data: { mcp_aql_code: 'NOT_FOUND_ORDER', error_category: 'not_found', retry_capable: false, details: { order_id: 'o1' } },
    },
  });
  assert.deepEqual(
    judge({ response: question, probe: probeCase, listed: true }, true).filter(s => s.startsWith('runtime')),
    ['runtime.wrong-category:error@"NOT_FOUND_ORDER"'],
  );
  const ok = env({
    success: false,
    error: { code: 'VALIDATION_MISSING_PARAM', message: "Missing required parameter 'order_id'", details: { param_name: 'order_id' } },
  });
  assert.deepEqual(judge({ response: text(ok, false), probe: probeCase }, true), [], 'VALIDATION is recoverable: isError false is right');
  const unknownTool = { kind: 'unknown-tool', label: 'an unknown tool' } as const;
  const nf = env({
    success: false,
    error: { code: 'NOT_FOUND_OPERATION', message: "Unknown operation: 'x'", details: { operation: 'x' } },
  });
  assert.deepEqual(judge({ response: text(nf, false), probe: unknownTool }, true), [], 'NOT_FOUND_OPERATION is recoverable');
});

test('not JSON, or not a response: nothing to judge', () => {
  assert.deepEqual(judge({ response: 'hello' }), []);
  assert.deepEqual(judge({ response: '[1,2]' }), []);
  assert.deepEqual(judge({ response: result({ tools: [] }) }), []);
});

test('answerDiagnostics places each answer at its line of the transcript', () => {
  const line1 = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', arguments: {} } });
  const line2 = text('Error: nope', false);
  const doc = TextDocument.create('file:///work/probe.responses.jsonl', 'json', 1, `${line1}\n${line2}\n`);
  const ds = service.answerDiagnostics(
    doc,
    [{ at: line1.length + 1, exchange: { response: line2, tool: 't', claimsMcpAql: false, probe: probeCase } }],
    registryOnly,
  );
  assert.deepEqual(
    ds.map(d => [d.code, d.range.start.line, doc.getText(d.range)]),
    [['runtime.unflagged-failure', 1, 'false']],
  );
});

const tool = (name: string, schema: object, readOnly?: boolean): ToolInfo => ({
  name,
  inputSchema: schema,
  annotations: readOnly === undefined ? undefined : { readOnlyHint: readOnly },
});
const describe = (c: PlannedCall) => `${c.tool}${c.operation ? `/${c.operation}` : ''} ${c.case.kind} ${JSON.stringify(c.arguments)}`;

test('the plan: one call per kind for each read-only tool, writes skipped, one unknown tool', () => {
  const tools = [
    tool('read_file', { type: 'object', properties: { path: { type: 'string' }, head: { type: 'number' } }, required: ['path'] }, true),
    tool('list', { type: 'object', properties: { sortBy: { type: 'string', enum: ['name', 'size'] } } }, true),
    tool('write_file', { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }, false),
    tool('no_hint', { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }),
    tool('mcp_aql_probe_no_such_tool', { type: 'object' }, true),
  ];
  const plan = service.planProbe(tools, [], false);
  assert.deepEqual(plan.calls.map(describe), [
    'read_file missing-required {}',
    'read_file wrong-type {"path":12345}',
    'read_file not-found {"path":"mcp-aql-probe-missing.txt"}',
    'list bad-enum {"sortBy":"mcp-aql-probe-not-in-enum"}',
    'mcp_aql_probe_no_such_tool_ unknown-tool {}',
  ]);
  assert.deepEqual(
    plan.skipped.map(s => `${s.tool}${s.kind ? ` ${s.kind}` : ''}`),
    ['list not-found', 'write_file', 'no_hint', 'mcp_aql_probe_no_such_tool not-found', 'mcp_aql_probe_no_such_tool'],
  );
  assert.deepEqual(
    service
      .planProbe(tools, [], true)
      .calls.filter(c => c.tool === 'write_file')
      .map(describe),
    ['write_file missing-required {}', 'write_file wrong-type {"path":12345}'],
  );
});

test('calls that pass the schema and name what cannot exist: inside the first root, every required parameter valid', () => {
  const tools = [
    tool(
      'read_text_file',
      { type: 'object', properties: { path: { type: 'string' }, head: { type: 'number' } }, required: ['path'] },
      true,
    ),
    tool('list_directory', { type: 'object', properties: { dirPath: { type: 'string' } }, required: ['dirPath'] }, true),
    tool(
      'get_issue',
      { type: 'object', properties: { owner: { type: 'string' }, issue_number: { type: 'integer' } }, required: ['owner', 'issue_number'] },
      true,
    ),
    tool('fetch', { type: 'object', properties: { url: { type: 'string' }, max_length: { type: 'integer' } }, required: ['url'] }, true),
    tool('open_resource', { type: 'object', properties: { uri: { type: 'string' } }, required: ['uri'] }, true),
    tool('search', { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] }, true),
  ];
  const missing = service
    .planProbe(tools, [], false, { roots: ['/srv/data'] })
    .calls.filter(c => c.case.kind === 'not-found')
    .map(c => `${c.tool} ${c.case.target} ${JSON.stringify(c.arguments)}`);
  assert.deepEqual(missing, [
    'read_text_file path {"path":"/srv/data/mcp-aql-probe-missing.txt"}',
    'list_directory folder {"dirPath":"/srv/data/mcp-aql-probe-missing"}',
    'get_issue id {"owner":"mcp-aql-probe","issue_number":2000000017}',
    'fetch url {"url":"http://127.0.0.1:9/mcp-aql-probe-missing"}',
    'open_resource uri {"uri":"file:///srv/data/mcp-aql-probe-missing.txt"}',
  ]);
  const skip = service.planProbe(tools, [], false).skipped.find(s => s.tool === 'search');
  assert.deepEqual(skip, { tool: 'search', kind: 'not-found', reason: 'no parameter names a path, URI, URL or id the probe can make up' });
});

test('probe plan: a parameter with a union of types gets its first type (not null) as the harmless value; a camelCase counter and an optional id without a default are not made up', () => {
  // As @modelcontextprotocol/server-sequential-thinking lists its one tool: nextThoughtNeeded takes a
  // boolean or "true"/"false", and any other string fails its check; thoughtNumber counts, it names nothing.
  const seq = tool(
    'sequentialthinking',
    {
      type: 'object',
      properties: {
        thought: { type: 'string' },
        nextThoughtNeeded: { type: ['boolean', 'string'] },
        thoughtNumber: { type: 'integer', minimum: 1 },
        totalThoughts: { type: 'integer', minimum: 1 },
        branchId: { type: 'string' },
        nullable: { type: ['null', 'string'] },
      },
      required: ['thought', 'nextThoughtNeeded', 'thoughtNumber', 'totalThoughts', 'nullable'],
    },
    true,
  );
  const plan = service.planProbe([seq], [], false);
  assert.deepEqual(
    plan.calls.map(c => `${c.case.kind} ${JSON.stringify(c.arguments)}`),
    [
      'missing-required {"nextThoughtNeeded":false,"thoughtNumber":1,"totalThoughts":1,"nullable":"mcp-aql-probe"}',
      'wrong-type {"thought":12345,"nextThoughtNeeded":false,"thoughtNumber":1,"totalThoughts":1,"nullable":"mcp-aql-probe"}',
      'unknown-tool {}',
    ],
  );
  assert.deepEqual(plan.skipped, [
    { tool: 'sequentialthinking', kind: 'not-found', reason: 'no parameter names a path, URI, URL or id the probe can make up' },
  ]); // An optional id with a default is read on every call (server-everything's get-resource-reference).
  const ref = tool('get-resource-reference', { type: 'object', properties: { resourceId: { type: 'number', default: 1 } } }, true);
  assert.deepEqual(
    service.planProbe([ref], [], false).calls.map(c => `${c.case.kind} ${JSON.stringify(c.arguments)}`),
    ['wrong-type {"resourceId":"not-a-number"}', 'not-found {"resourceId":2000000017}', 'unknown-tool {}'],
  );
});

test('probe plan: a read-only tool marked open-world gets the call that passes the schema, and filled-in other parameters, only in the sandbox', () => {
  // As @upstash/context7-mcp lists resolve-library-id: read-only, and it asks context7.com.
  const ctx: ToolInfo = {
    name: 'query-docs',
    inputSchema: {
      type: 'object',
      properties: { libraryId: { type: 'string' }, query: { type: 'string' } },
      required: ['libraryId', 'query'],
    },
    annotations: { readOnlyHint: true, openWorldHint: true },
  };
  const kinds = (sandbox: boolean) => service.planProbe([ctx], [], false, { sandbox }).calls.map(c => c.case.kind);
  assert.deepEqual(
    service.planProbe([ctx], [], false).calls.map(c => JSON.stringify(c.arguments)),
    ['{}', '{"libraryId":12345}', '{}'],
    'its other parameters left out, so a tool that skips its check has nothing to send',
  );
  assert.deepEqual(service.planProbe([ctx], [], false).skipped, [
    {
      tool: 'query-docs',
      kind: 'not-found',
      reason: 'open world (annotations.openWorldHint): a call that passes the schema reaches the service behind it; --sandbox calls it',
    },
  ]);
  assert.deepEqual(kinds(true), ['missing-required', 'wrong-type', 'not-found', 'unknown-tool']);
});

test('a tool that may write: outside the sandbox no call fills its other parameters, and none names a missing thing; in the sandbox it gets every call', () => {
  const write = tool(
    'write_file',
    {
      type: 'object',
      properties: { path: { type: 'string' }, content: { type: 'string' }, mode: { type: 'string', enum: ['a', 'w'] } },
      required: ['path', 'content'],
    },
    false,
  );
  const allowed = service.planProbe([write], [], true, { roots: ['/srv'] });
  assert.deepEqual(
    allowed.calls.filter(c => c.tool === 'write_file').map(describe),
    [
      'write_file missing-required {"content":"mcp-aql-probe"}'.replace('{"content":"mcp-aql-probe"}', '{}'),
      'write_file wrong-type {"path":12345}',
      'write_file bad-enum {"mode":"mcp-aql-probe-not-in-enum"}',
    ],
    'only the wrong value is sent: no path and content that a lenient server could write',
  );
  assert.ok(allowed.skipped.some(s => s.tool === 'write_file' && s.kind === 'not-found' && /--sandbox/.test(s.reason)));
  const sandboxed = service.planProbe([write], [], false, { roots: ['/srv'], sandbox: true });
  assert.deepEqual(sandboxed.calls.filter(c => c.tool === 'write_file').map(describe), [
    'write_file missing-required {"content":"mcp-aql-probe"}',
    'write_file wrong-type {"path":12345,"content":"mcp-aql-probe"}',
    'write_file bad-enum {"path":"mcp-aql-probe","content":"mcp-aql-probe","mode":"mcp-aql-probe-not-in-enum"}',
    'write_file not-found {"path":"/srv/mcp-aql-probe-missing.txt","content":"mcp-aql-probe"}',
  ]);
});

test('no tool is called because of its name: an endpoint named ..._read with no read-only hint and no read operation routed to it is skipped', () => {
  const endpoint = { type: 'object', properties: { operation: { type: 'string' }, params: { type: 'object' } }, required: ['operation'] };
  const plan = service.planProbe(
    [tool('mcp_aql_read', endpoint), tool('file_read', { type: 'object', properties: { path: { type: 'string' } } })],
    [],
    false,
  );
  assert.deepEqual(
    plan.calls.map(c => c.tool),
    ['mcp_aql_probe_no_such_tool'],
  );
  assert.deepEqual(plan.skipped.map(s => s.tool).sort(), ['file_read', 'mcp_aql_read']);
});

test('the plan for an MCP-AQL endpoint: the adapter read operations through mcp_aql_read, an unknown operation only to an endpoint marked read-only; writes skipped', () => {
  const ops = service.operations([adapter]);
  assert.deepEqual(ops, [
    {
      name: 'get_order',
      group: 'read',
      params: [
        { name: 'order_id', type: 'string', required: true, enum: undefined },
        { name: 'view', type: 'string', required: false, enum: ['short', 'full'] },
      ],
    },
    { name: 'reserve_item', group: 'update', params: [{ name: 'sku', type: 'string', required: true, enum: undefined }] },
  ]);
  const endpoint = { type: 'object', properties: { operation: { type: 'string' }, params: { type: 'object' } }, required: ['operation'] };
  const reads = [
    'mcp_aql_read/get_order missing-required {"operation":"get_order","params":{}}',
    'mcp_aql_read/get_order wrong-type {"operation":"get_order","params":{"order_id":12345}}',
    'mcp_aql_read/get_order bad-enum {"operation":"get_order","params":{"order_id":"mcp-aql-probe","view":"mcp-aql-probe-not-in-enum"}}',
    'mcp_aql_read/get_order not-found {"operation":"get_order","params":{"order_id":"mcp-aql-probe-missing"}}',
  ];
  const unknownOperation =
    'mcp_aql_read/mcp_aql_probe_no_such_operation unknown-operation {"operation":"mcp_aql_probe_no_such_operation","params":{}}';
  const marked = service.planProbe([tool('mcp_aql_read', endpoint, true), tool('mcp_aql_update', endpoint, false)], ops, false);
  assert.deepEqual(marked.calls.map(describe), [unknownOperation, ...reads, 'mcp_aql_probe_no_such_tool unknown-tool {}']);
  assert.deepEqual(
    marked.skipped.map(s => `${s.tool}/${s.operation ?? ''}`),
    ['mcp_aql_update/', 'mcp_aql_update/reserve_item'],
  );
  // A name ending in "read" marks nothing read-only: the endpoint gets only the adapter's declared read operations.
  const unmarked = service.planProbe([tool('mcp_aql_read', endpoint), tool('mcp_aql_update', endpoint, false)], ops, false);
  assert.deepEqual(unmarked.calls.map(describe), [...reads, 'mcp_aql_probe_no_such_tool unknown-tool {}']);
  assert.deepEqual(
    unmarked.skipped.map(s => `${s.tool}/${s.operation ?? ''}`),
    ['mcp_aql_read/', 'mcp_aql_update/', 'mcp_aql_update/reserve_item'],
  );
});

test('hostile schemas plan no call and throw nothing', () => {
  for (const schema of [
    null,
    'x',
    [],
    { properties: null },
    { properties: { a: null }, required: 'a' },
    { properties: { ['__proto__']: { type: 'string' } }, required: ['__proto__'] },
  ])
    assert.doesNotThrow(() => service.planProbe([tool('t', schema as object, true)], [], false));
  const proto = service.planProbe(
    [tool('t', { properties: { b: { type: 'integer' }, ['__proto__']: { type: 'object' } }, required: ['b', '__proto__'] }, true)],
    [],
    false,
  );
  assert.deepEqual(
    proto.calls.map(c => JSON.stringify(c.arguments)),
    ['{"__proto__":{}}', '{"b":"not-a-number","__proto__":{}}', '{}'],
    'a parameter named __proto__ is an own key of the arguments',
  );
});

test('watch and probe judge a declared retry: a retry-after-delay answer without its delay, in a tool result and a JSON-RPC error', () => {
  const retryContract = service.contract([
    TextDocument.create(
      'file:///work/retry.adapter.yaml',
      'yaml',
      1,
      yamlDoc(
        'error_codes:',
        '  RATE_LIMIT_SLOW:',
        '    category: RATE_LIMIT',
        '    retry: retry-after-delay',
        '    message_template: "Slow down"',
        '    details: { retryAfterMs: { type: integer, required: false } }',
      ),
    ),
  ]);
  const judged = (response: string) =>
    service.judgeAnswer({ tool: 't', claimsMcpAql: true, response }, retryContract).map(f => `${f.code}@${response.slice(f.start, f.end)}`);
  const fail = (details: object) => text(env({ success: false, error: { code: 'RATE_LIMIT_SLOW', message: 'Slow down', details } }), true);
  assert.deepEqual(judged(fail({})), ['verify.retry-delay@\\"RATE_LIMIT_SLOW\\"']);
  assert.deepEqual(judged(fail({ retryAfterMs: 500 })), []);
  const rpc = (data: object) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32603, message: 'Question: Shall I wait and try again later? Slow down.', data },
    });
  const base = { retry_capable: true, error_category: 'rate_limited', tool_name: 't', mcp_aql_code: 'RATE_LIMIT_SLOW' };
  assert.deepEqual(judged(rpc({ ...base, details: {} })), ['verify.retry-delay@"RATE_LIMIT_SLOW"']);
  assert.deepEqual(judged(rpc({ ...base, details: { retryAfterMs: 10 } })), []);
});
