/** verify: recorded responses checked against the adapter's contract, exact ranges. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from 'vscode-languageserver-types';
import { fixture, newService, yamlDoc } from './helpers';

const ADAPTER = yamlDoc(
  'error_codes:',
  '  NOT_FOUND_ORDER:',
  '    category: NOT_FOUND',
  '    message_template: "Order \'{order_id}\' not found"',
  '    details:',
  '      order_id: { type: string, required: true }',
  '      region: { type: string, required: false, enum: [eu, us] }',
  '  CONFLICT_OUT_OF_STOCK:',
  '    category: CONFLICT',
  '    message_template: "Item \'{sku}\' has only {available} left"',
  '    details:',
  '      sku: string',
  '      available: integer',
  'error_mapping:',
  '  404:',
  '    code: NOT_FOUND_RESOURCE',
  '    message_template: "No such thing: \'{thing}\'"',
  '    details:',
  '      thing: string',
);
const ADAPTER_URI = 'file:///work/shop.adapter.yaml';

const service = newService();
const contract = service.contract([TextDocument.create(ADAPTER_URI, 'yaml', 1, ADAPTER)]);

/** Verify a marked fixture; each diagnostic's code with its range, compared to the [[…]] spans in order. */
function verify(
  text: string,
  uri = 'file:///work/r.envelope.json',
  rules?: Record<string, 'off' | 'error' | 'warning'>,
): { ds: Diagnostic[]; spans: ReturnType<typeof fixture>['spans'] } {
  const f = fixture(text, { uri });
  return { ds: service.verifyResponses(f.doc, contract, { rules }), spans: f.spans };
}
const codes = (ds: readonly Diagnostic[]) => ds.map(d => d.code);
const env = (code: string, message: string, details: string) =>
  `{"success": false, "error": {"code": "${code}", "message": "${message}", "details": ${details}}}`;

test('a correct envelope, tool result and JSON-RPC error give no diagnostic', () => {
  assert.deepEqual(verify(env('NOT_FOUND_ORDER', "Order 'ord_1' not found", '{"order_id": "ord_1", "region": "eu"}')).ds, []);
  const inner = JSON.stringify({
    success: false,
    error: { code: 'VALIDATION_MISSING_PARAM', message: "Missing required parameter 'sku'", details: { param_name: 'sku' } },
  });
  assert.deepEqual(
    verify(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: inner }], isError: false } })).ds,
    [],
  );
  assert.deepEqual(
    verify(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        error: {
          code: -32602,
          message: "Question: Which target should I use instead? Order 'o' not found.",
          data: { retry_capable: true, error_category: 'not_found', mcp_aql_code: 'NOT_FOUND_ORDER', details: { order_id: 'o' } },
        },
      }),
    ).ds,
    [],
  );
  assert.deepEqual(
    verify(
      '{"success": true, "data": {}, "warnings": [{"code": "VALIDATION_TRUNCATED_WARNING", "message": "Response truncated to 10 items", "details": {"field": "items", "original_count": 50, "truncated_count": 10, "limit": 10}}]}',
    ).ds,
    [],
  );
});

test('verify.unknown-code on the code value, with the closest code', () => {
  const { ds, spans } = verify(`{"success": false, "error": {"code": [["NOT_FOUND_ORDR"]], "message": "x"}}`);
  assert.deepEqual(codes(ds), ['verify.unknown-code']);
  assert.deepEqual(ds[0]!.range, spans[0]);
  assert.match(String(ds[0]!.message), /Did you mean NOT_FOUND_ORDER\?/);
  assert.equal(ds[0]!.severity, 1);
});

test('verify.message-mismatch at the first diverging character, with the template in related information', () => {
  const { ds, spans } = verify(env('NOT_FOUND_ORDER', "Order [[o]]rd_1' not found", '{"order_id": "ord_1"}'));
  assert.deepEqual(codes(ds), ['verify.message-mismatch']);
  assert.deepEqual(ds[0]!.range, spans[0]);
  assert.match(String(ds[0]!.message), /at column 7: expected "'", found "ord_1' not f/);
  assert.equal(ds[0]!.severity, 2);
  const rel = ds[0]!.relatedInformation![0]!;
  assert.equal(rel.location.uri, ADAPTER_URI);
  assert.deepEqual(rel.location.range, { start: { line: 3, character: 22 }, end: { line: 3, character: 52 } });
});

test('message positions go through JSON escapes and through the envelope inside a tool result', () => {
  // The quotes are written as \u0027 escapes: the divergence after them is still positioned in the raw text.
  const a = verify(env('NOT_FOUND_ORDER', 'Order \\u0027ord_1\\u0027 [[found]]', '{"order_id": "ord_1"}'));
  assert.deepEqual(codes(a.ds), ['verify.message-mismatch']);
  assert.deepEqual(a.ds[0]!.range, a.spans[0]);
  const inner = JSON.stringify({
    success: false,
    error: { code: 'NOT_FOUND_ORDER', message: "Order 'ord_1' nicht gefunden!", details: { order_id: 'ord_1' } },
  });
  const outer = JSON.stringify({ content: [{ type: 'text', text: inner }], isError: true });
  const doc = TextDocument.create('file:///work/r.envelope.json', 'json', 1, outer);
  const ds = service.verifyResponses(doc, contract);
  assert.deepEqual(codes(ds), ['verify.message-mismatch']);
  // It diverges at the message's 16th character (the i of "nicht", after the common "n"), behind escaped quotes in the file.
  const at = outer.indexOf("ord_1' nicht") + 8;
  assert.equal(doc.offsetAt(ds[0]!.range.start), at);
  assert.equal(outer[at], 'i');
  assert.match(String(ds[0]!.message), /at column 16: expected "ot found", found "icht gef/);
});

test('a placeholder whose details key is absent matches any text; aliases of built-in templates substitute', () => {
  assert.deepEqual(codes(verify(env('NOT_FOUND_ORDER', "Order 'whatever' not found", '{}')).ds), ['verify.missing-detail']);
  assert.deepEqual(verify(env('INTERNAL_ERROR', "Internal error: 'boom'", '{"upstream_error": "boom"}')).ds, []);
  assert.deepEqual(codes(verify(env('INTERNAL_ERROR', "Internal error: 'bang'", '{"upstream_error": "boom"}')).ds), [
    'verify.message-mismatch',
  ]);
});

test("a mapping entry's template and details count for its code", () => {
  assert.deepEqual(verify(env('NOT_FOUND_RESOURCE', "No such thing: 'x'", '{"thing": "x"}')).ds, []);
  assert.deepEqual(
    verify(env('NOT_FOUND_RESOURCE', "Resource 'order' not found: '7'", '{"resource_type": "order", "resource_id": "7"}')).ds,
    [],
  );
});

test('a message far from the template that keeps the details values is information (localized)', () => {
  const { ds, spans } = verify(
    `{"success": false, "error": {"code": "CONFLICT_OUT_OF_STOCK", "message": [["Der Artikel 'sku-9' hat nur noch 2 Stück"]], "details": {"sku": "sku-9", "available": 2}}}`,
  );
  assert.deepEqual(codes(ds), ['verify.message-localized']);
  assert.equal(ds[0]!.severity, 3);
  assert.deepEqual(ds[0]!.range, spans[0]);
  // Far from the template and without the values: a mismatch, at column 1.
  const b = verify(env('CONFLICT_OUT_OF_STOCK', '[[Someth]]ing went wrong', '{"sku": "sku-9", "available": 2}'));
  assert.deepEqual(codes(b.ds), ['verify.message-mismatch']);
  assert.deepEqual(b.ds[0]!.range, b.spans[0]);
});

test('details: missing required key, wrong type, outside the enum, undeclared key (level from the rules)', () => {
  const { ds, spans } = verify(
    `{"success": false, "error": {"code": "CONFLICT_OUT_OF_STOCK", "message": "Item 'a' has only 2.5 left", [["details"]]: {"sku": "a", "available": [[2.5]], [["colour"]]: "red"}}}`,
  );
  assert.deepEqual(codes(ds), ['verify.detail-type', 'verify.undeclared-detail']);
  assert.deepEqual(
    ds.map(d => d.range),
    [spans[1], spans[2]],
  );
  assert.match(String(ds[0]!.message), /details.available of CONFLICT_OUT_OF_STOCK must be an integer, not number/);
  const missing = verify(
    `{"success": false, "error": {"code": "CONFLICT_OUT_OF_STOCK", "message": "Item 'a' has only 2 left", [["details"]]: {"available": 2}}}`,
  );
  assert.deepEqual(codes(missing.ds), ['verify.missing-detail']);
  assert.deepEqual(missing.ds[0]!.range, missing.spans[0]);
  assert.equal(missing.ds[0]!.relatedInformation![0]!.location.uri, ADAPTER_URI);
  const en = verify(
    `{"success": false, "error": {"code": "NOT_FOUND_ORDER", "message": "Order 'a' not found", "details": {"order_id": "a", "region": [["asia"]]}}}`,
  );
  assert.deepEqual(en.ds[0]!.range, en.spans[0]);
  assert.deepEqual(codes(en.ds), ['verify.detail-type']);
  assert.match(String(en.ds[0]!.message), /must be one of "eu", "us", not "asia"/);
  assert.deepEqual(
    verify(
      `{"success": false, "error": {"code": "CONFLICT_OUT_OF_STOCK", "message": "Item 'a' has only 2 left", "details": {"sku": "a", "available": 2, "colour": "red"}}}`,
      undefined,
      { 'verify.undeclared-detail': 'off' },
    ).ds,
    [],
  );
  // A registry code whose details the registry does not declare accepts any key.
  assert.deepEqual(verify(env('CONFLICT_ALREADY_EXISTS', 'Exists', '{"anything": 1}')).ds, []);
});

test('warning codes never as errors, error codes never as warnings', () => {
  const a = verify(
    `{"success": false, "error": {"code": [["RATE_LIMIT_QUOTA_WARNING"]], "message": "Approaching quota limit", "details": {"metric": "calls", "current": 90, "warn_threshold": 80}}}`,
  );
  assert.deepEqual(codes(a.ds), ['verify.warning-as-error']);
  assert.deepEqual(a.ds[0]!.range, a.spans[0]);
  const b = verify(
    `{"success": true, "data": null, "warnings": [{"code": [["NOT_FOUND_ORDER"]], "message": "Order 'a' not found", "details": {"order_id": "a"}}]}`,
  );
  assert.deepEqual(codes(b.ds), ['verify.error-as-warning']);
  assert.deepEqual(b.ds[0]!.range, b.spans[0]);
});

test('verify.envelope-shape: missing and extra keys, wrong types', () => {
  const { ds, spans } = verify(`[[{]]"success": false, [["err"]]: {}}`);
  assert.deepEqual(codes(ds), ['verify.envelope-shape', 'verify.envelope-shape']);
  assert.deepEqual(
    ds.map(d => d.range),
    [spans[0], spans[1]],
  );
  const b = verify(
    `{"success": false, "error": {"code": "NOT_FOUND_ORDER", "message": [[""]], "details": {"order_id": "a"}, [["hint"]]: "x"}}`,
  );
  assert.deepEqual(codes(b.ds), ['verify.envelope-shape', 'verify.envelope-shape']);
  assert.deepEqual(
    b.ds.map(d => d.range).sort((x, y) => x.start.character - y.start.character),
    [b.spans[0], b.spans[1]],
  );
  assert.deepEqual(codes(verify('{"success": "no"}').ds), ['verify.envelope-shape']);
  assert.deepEqual(codes(verify('{"success": false, "error": {"code": "lower_case", "message": "m"}}').ds), ['verify.envelope-shape']);
});

test('verify.is-error: isError against mcp-integration.md s4.1', () => {
  const tool = (e: object, isError: string) =>
    `{"content": [{"type": "text", "text": ${JSON.stringify(JSON.stringify(e))}}], "isError": ${isError}}`;
  const custom = { success: false, error: { code: 'NOT_FOUND_ORDER', message: "Order 'a' not found", details: { order_id: 'a' } } };
  const recoverable = {
    success: false,
    error: { code: 'PERMISSION_DENIED', message: "Permission denied: 'no'", details: { reason: 'no' } },
  };
  assert.deepEqual(verify(tool(custom, 'true')).ds, []);
  assert.deepEqual(verify(tool(recoverable, 'false')).ds, []);
  const a = verify(tool(custom, '[[false]]'));
  assert.deepEqual(codes(a.ds), ['verify.is-error']);
  assert.deepEqual(a.ds[0]!.range, a.spans[0]);
  assert.match(String(a.ds[0]!.message), /should be true: NOT_FOUND_ORDER is not one of the recoverable codes/);
  assert.deepEqual(codes(verify(tool(recoverable, 'true')).ds), ['verify.is-error']);
  assert.deepEqual(codes(verify(tool({ success: true, data: 1 }, 'true')).ds), ['verify.is-error']);
  // isError true without an envelope in the content: not MCP-AQL.
  const c = verify(
    '{"content": [[[{"type": "text", "text": "Error: boom"}]]], "isError": true}'.replace('[[[', '[[[').replace(']]]', ']]]'),
  );
  assert.deepEqual(codes(c.ds), ['verify.unknown-shape']);
  assert.deepEqual(verify('{"content": [{"type": "text", "text": "all good"}]}').ds, []);
});

test("a text-only failure whose text is a custom code's template is that code's: no unknown-shape", () => {
  // An inferred contract of a server that sends no envelope (docs/spec-decisions.md, "Text-only failures in a contract").
  assert.deepEqual(verify('{"content": [{"type": "text", "text": "Order \'o-9\' not found"}], "isError": true}').ds, []);
  assert.deepEqual(verify('{"content": [{"type": "text", "text": "Item \'x\' has only 2 left"}], "isError": true}').ds, []);
  // Another text, or the text of a registry template (the server never named the code): still unknown.
  const other = verify('{"content": [[[]]{"type": "text", "text": "Order o-9 is missing"}], "isError": true}');
  assert.deepEqual(codes(other.ds), ['verify.unknown-shape']);
  assert.deepEqual(other.ds[0]!.range, other.spans[0]);
  const registry = verify('{"content": [{"type": "text", "text": "Missing required parameter \'sku\'"}], "isError": true}');
  assert.deepEqual(codes(registry.ds), ['verify.unknown-shape']);
});

test('JSON-RPC errors: crosswalk of code, error_category, retry_capable, and the message inside the question', () => {
  const rpc = (code: number, cat: string, message: string) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      error: {
        code,
        message,
        data: { retry_capable: true, error_category: cat, mcp_aql_code: 'NOT_FOUND_ORDER', details: { order_id: 'a' } },
      },
    });
  const ds = verify(rpc(-32603, 'internal_error', "Question: Which target? Order 'b' not found.")).ds;
  assert.deepEqual(codes(ds), ['verify.json-rpc-crosswalk', 'verify.message-mismatch', 'verify.json-rpc-crosswalk']);
  assert.match(String(ds[0]!.message), /is -32602/);
  assert.match(String(ds[1]!.message), /does not contain NOT_FOUND_ORDER's message "Order 'a' not found"/);
  assert.deepEqual(codes(verify(rpc(-32602, 'not_found', "Order 'a' not found")).ds), ['verify.json-rpc-crosswalk']);
  const extra = verify(
    `{"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "Question: Which? Order 'a' not found.", [["stack"]]: "at x", "data": {"retry_capable": true, "error_category": "not_found", "mcp_aql_code": "NOT_FOUND_ORDER", "details": {"order_id": "a"}}}}`,
  );
  assert.deepEqual(codes(extra.ds), ['verify.envelope-shape']);
  assert.deepEqual(extra.ds[0]!.range, extra.spans[0]);
  // A protocol error (no mcp_aql_code) is not ours.
  assert.deepEqual(verify('{"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}}').ds, []);
});

test("JSON Lines: one record a line, positions on the record's line; a bad line does not stop the others", () => {
  const text =
    [
      '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {}}',
      '',
      `{"success": false, "error": {"code": [["NOPE_CODE"]], "message": "m"}}`,
      '{"success": false, [[,]]}',
      env('NOT_FOUND_ORDER', "Order 'a' not found", '{"order_id": "a"}'),
      '[[42]]',
    ].join('\n') + '\n';
  const { ds, spans } = verify(text, 'file:///work/log.responses.jsonl');
  assert.deepEqual(codes(ds), ['verify.unknown-code', 'verify.json-syntax', 'verify.unknown-shape']);
  assert.deepEqual(
    ds.map(d => d.range),
    spans,
  );
  assert.deepEqual(
    ds.map(d => d.range.start.line),
    [2, 3, 5],
  );
});

test("a JSON file that is not JSON gets verify.json-syntax at the parser's position; a list holds several records", () => {
  const { ds, spans } = verify('{"success": false,\n  "error": {"code": "X" [["]]message": "m"}}');
  assert.deepEqual(codes(ds), ['verify.json-syntax']);
  assert.deepEqual(ds[0]!.range, spans[0]);
  assert.match(String(ds[0]!.message), /expected ',' or '}'/);
  const list = verify(
    `[${env('NOT_FOUND_ORDER', "Order 'a' not found", '{"order_id": "a"}')}, {"success": false, "error": {"code": [["NOPE"]], "message": "m"}}]`,
  );
  assert.deepEqual(codes(list.ds), ['verify.unknown-code']);
  assert.deepEqual(list.ds[0]!.range, list.spans[0]);
  assert.deepEqual(verify('').ds, []);
});

test('which files are response files: the default globs and mcpAql.responseFiles', () => {
  assert.equal(service.isResponseFile('file:///w/logs/run.responses.jsonl'), true);
  assert.equal(service.isResponseFile('file:///w/x.envelope.json'), true);
  assert.equal(service.isResponseFile('file:///w/x.json'), false);
  assert.equal(service.isResponseFile('file:///w/golden/a.json', { responseFiles: ['**/golden/*.json'] }), true);
  assert.equal(service.isResponseFile('file:///w/shop.adapter.yaml'), false);
});

test('the contract: custom codes with their declaration, registry codes, mapping templates', () => {
  const c = contract.codes.get('NOT_FOUND_ORDER')!;
  assert.equal(c.source, 'custom');
  assert.deepEqual(c.location, { uri: ADAPTER_URI, range: { start: { line: 1, character: 2 }, end: { line: 1, character: 17 } } });
  assert.deepEqual(
    c.details.map(d => [d.name, d.type, d.required]),
    [
      ['order_id', 'string', true],
      ['region', 'string', false],
    ],
  );
  const r = contract.codes.get('NOT_FOUND_RESOURCE')!;
  assert.equal(r.source, 'registry');
  assert.equal(r.mapped, true);
  assert.deepEqual(
    r.templates.map(t => t.label),
    ['error_mapping[404]', 'registry'],
  );
  assert.ok(r.details.some(d => d.name === 'thing' && d.required === false));
  assert.equal(contract.codes.get('RATE_LIMIT_QUOTA_WARNING')!.kind, 'warning');
});

test('hostile response files: deep nesting, a byte order mark, huge lines stay bounded and positioned', () => {
  const deep = verify('{"a": '.repeat(100_000));
  assert.deepEqual(codes(deep.ds), ['verify.json-syntax']);
  assert.match(String(deep.ds[0]!.message), /nesting deeper than 256 levels/);
  assert.deepEqual(verify('\ufeff' + env('NOT_FOUND_ORDER', "Order 'a' not found", '{"order_id": "a"}')).ds, []);
  const long = 'x'.repeat(100_000);
  const t0 = Date.now();
  const text = Array.from({ length: 20 }, () =>
    env('CONFLICT_OUT_OF_STOCK', `${long} sku-1 ${long} 2`, '{"sku": "sku-1", "available": 2}'),
  ).join('\n');
  const ds = service.verifyResponses(TextDocument.create('file:///work/big.responses.jsonl', 'jsonl', 1, text), contract);
  assert.deepEqual(new Set(codes(ds)), new Set(['verify.message-localized']));
  assert.deepEqual(
    ds.map(d => d.range.start.line),
    Array.from({ length: 20 }, (_, i) => i),
  );
  assert.ok(Date.now() - t0 < 5000, `${Date.now() - t0} ms`);
});

test('retry: a declared retry-after-delay answer carries its delay, the others promise none; defaults are not judged', () => {
  const s = newService();
  const c = s.contract([
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
        '    details: { retry_after_seconds: { type: integer, required: false }, retryAfterMs: { type: integer, required: false } }',
        '  NOT_FOUND_GONE:',
        '    category: NOT_FOUND',
        '    retry: do-not-retry',
        '    message_template: "Gone"',
        '    details: { retryAfterMs: { type: integer, required: false } }',
        '  RATE_LIMIT_PLAIN:',
        '    category: RATE_LIMIT',
        '    message_template: "Plain"',
      ),
    ),
  ]);
  const run = (text: string) => {
    const f = fixture(text, { uri: 'file:///work/r.envelope.json' });
    return { ds: s.verifyResponses(f.doc, c), spans: f.spans };
  };
  const missing = run('{"success": false, "error": {"code": [["RATE_LIMIT_SLOW"]], "message": "Slow down", "details": {}}}');
  assert.deepEqual(codes(missing.ds), ['verify.retry-delay']);
  assert.deepEqual(missing.ds[0]!.range, missing.spans[0]);
  assert.equal(
    missing.ds[0]!.message,
    'RATE_LIMIT_SLOW is retry-after-delay, but this answer carries no delay: put retryAfterMs, retry_after_seconds or Retry-After in its details.',
  );
  assert.deepEqual(run(env('RATE_LIMIT_SLOW', 'Slow down', '{"retry_after_seconds": 3}')).ds, []);
  assert.deepEqual(run(env('RATE_LIMIT_SLOW', 'Slow down', '{"retryAfterMs": 3000}')).ds, []);
  const promised = run('{"success": false, "error": {"code": "NOT_FOUND_GONE", "message": "Gone", "details": {[["retryAfterMs"]]: 10}}}');
  assert.deepEqual(codes(promised.ds), ['verify.retry-delay']);
  assert.deepEqual(promised.ds[0]!.range, promised.spans[0]);
  assert.match(
    String(promised.ds[0]!.message),
    /^NOT_FOUND_GONE is do-not-retry, but this answer promises a retry after a delay \('retryAfterMs'\)/,
  );
  assert.deepEqual(run(env('NOT_FOUND_GONE', 'Gone', '{}')).ds, []);
  // RATE_LIMIT's default is retry-after-delay, but a default is not judged.
  assert.deepEqual(run(env('RATE_LIMIT_PLAIN', 'Plain', '{}')).ds, []);
  assert.equal(c.codes.get('RATE_LIMIT_PLAIN')!.retry, 'retry-after-delay');
  assert.equal(c.codes.get('RATE_LIMIT_PLAIN')!.retryDeclared, false);
  assert.equal(c.codes.get('PERMISSION_DENIED')!.retry, 'do-not-retry');
});

test('JSON Lines read by JSON.parse first: a repeated detail key is judged as written, each time the record comes', () => {
  // JSON.parse keeps the second order_id; the first, an integer, is still judged (plainJson.ts reads such a record again).
  const rec = `{"success": false, "error": {"code": "NOT_FOUND_ORDER", "message": "Order 'a' not found", "details": {"order_id": [[5]], "order_id": "a"}}}`;
  const clean = env('NOT_FOUND_ORDER', "Order 'a' not found", '{"order_id": "a"}');
  const text = [clean, rec, clean, rec.replace('[[5]]', '5'), clean].join('\n');
  const { ds, spans } = verify(text, 'file:///work/log.responses.jsonl');
  assert.deepEqual(codes(ds), ['verify.detail-type', 'verify.detail-type']);
  const at = spans[0]!; // the first order_id's value on line 1; line 3 is the same record
  assert.deepEqual(
    ds.map(d => d.range),
    [at, { start: { ...at.start, line: 3 }, end: { ...at.end, line: 3 } }],
  );
});

test('JSON Lines: a tool result whose text was read before is judged again with its own isError', () => {
  const text = (flag: boolean) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      result: {
        content: [
          {
            type: 'text',
            text: `{"success": false, "error": {"code": "NOT_FOUND_ORDER", "message": "Order 'a' not found", "details": {"order_id": "a"}}}`,
          },
        ],
        isError: flag,
      },
    });
  const { ds } = verify([text(true), text(false), text(true)].join('\n'), 'file:///work/log.responses.jsonl');
  assert.deepEqual(codes(ds), ['verify.is-error']);
  assert.equal(ds[0]!.range.start.line, 1);
});
