/** Recorded-response files in the editor: live verify diagnostics against the workspace's adapters. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { inMemory, overStdio, PLAIN, RICH } from './harness';
import { tempDir } from '../tempDirs';

const ADAPTER = [
  'error_codes:',
  '  NOT_FOUND_ORDER:',
  '    category: NOT_FOUND',
  '    message_template: "Order \'{order_id}\' not found"',
  '    details:',
  '      order_id: string',
  '',
].join('\n');
const RESPONSE = [
  '{"success": false, "error": {"code": "NOT_FOUND_ORDER", "message": "Order \'a\' not found", "details": {"order_id": "a"}}}',
  '{"success": false, "error": {"code": "NOT_FOUND_ORDER", "message": "Order a not found", "details": {"order_id": "a", "x": 1}}}',
  '{"success": false, "error": {"code": "NOT_FOUND_ORDR", "message": "m"}}',
  '',
].join('\n');

function workspace(): { dir: string; uri: (p: string) => string } {
  const dir = tempDir('mcp-aql-resp-');
  mkdirSync(join(dir, 'logs'));
  mkdirSync(join(dir, 'golden'));
  writeFileSync(join(dir, 'shop.adapter.yaml'), ADAPTER);
  return { dir, uri: p => pathToFileURL(join(dir, p)).href };
}

const pull = async (c: Awaited<ReturnType<typeof inMemory>>, uri: string) =>
  ((await c.conn.sendRequest('textDocument/diagnostic', { textDocument: { uri } })) as { items: Diagnostic[] }).items;

/** Pull until the workspace scan has indexed the adapter (it runs after `initialized`). */
async function pullSettled(c: Awaited<ReturnType<typeof inMemory>>, uri: string, n: number): Promise<Diagnostic[]> {
  for (let i = 0; i < 100; i++) {
    const items = await pull(c, uri);
    if (items.length === n) return items;
    await new Promise(r => setTimeout(r, 50));
  }
  return pull(c, uri);
}

test('a *.responses.jsonl file gets verify diagnostics, with related information at the adapter declaration', async () => {
  const ws = workspace();
  const c = await inMemory(RICH, {}, [pathToFileURL(ws.dir).href]);
  try {
    const uri = ws.uri('logs/run.responses.jsonl');
    await c.open(uri, RESPONSE, 'jsonl');
    const items = await pullSettled(c, uri, 3);
    const doc = TextDocument.create(uri, 'jsonl', 1, RESPONSE);
    assert.deepEqual(
      items.map(d => [d.code, d.range.start.line, doc.getText(d.range)]),
      [
        ['verify.message-mismatch', 1, 'a'],
        ['verify.undeclared-detail', 1, '"x"'],
        ['verify.unknown-code', 2, '"NOT_FOUND_ORDR"'],
      ],
    );
    const rel = items[1]!.relatedInformation!;
    assert.deepEqual(
      rel.map(r => [r.location.uri, r.location.range.start, r.message]),
      [[ws.uri('shop.adapter.yaml'), { line: 1, character: 2 }, 'NOT_FOUND_ORDER is declared here']],
    );
    assert.match(items[0]!.codeDescription!.href, /\/docs\/rules\.md#verify-message-mismatch$/);
  } finally {
    await c.close();
  }
});

test('the live text of an open adapter is the contract; mcpAql.responseFiles adds files; other JSON is left alone', async () => {
  const ws = workspace();
  const c = await inMemory(RICH, { responseFiles: ['**/golden/*.json'] }, [pathToFileURL(ws.dir).href]);
  try {
    const golden = ws.uri('golden/a.json');
    const text =
      '{"success": false, "error": {"code": "NOT_FOUND_ORDER", "message": "Order \'a\' not found", "details": {"order_id": "a", "x": 1}}}\n';
    await c.open(golden, text, 'json');
    assert.deepEqual(
      (await pullSettled(c, golden, 1)).map(d => d.code),
      ['verify.undeclared-detail'],
    );
    // Declare x in the open (unsaved) adapter: the response file is clean.
    await c.open(ws.uri('shop.adapter.yaml'), ADAPTER + '      x: integer\n');
    assert.deepEqual(await pullSettled(c, golden, 0), []);
    const other = ws.uri('notes.json');
    await c.open(other, '{"success": false}', 'json');
    assert.deepEqual(await pull(c, other), []);
  } finally {
    await c.close();
  }
});

test('push clients get response-file diagnostics too, refreshed when an adapter is edited', async () => {
  const ws = workspace();
  writeFileSync(join(ws.dir, 'x.envelope.json'), '');
  const c = await inMemory(PLAIN, {}, [pathToFileURL(ws.dir).href]);
  try {
    const uri = ws.uri('x.envelope.json');
    const adapterUri = ws.uri('shop.adapter.yaml');
    await c.open(adapterUri, ADAPTER);
    await c.open(uri, '{"success": false, "error": {"code": "NOT_FOUND_CUSTOMER", "message": "m"}}', 'json');
    const first = await c.waitForDiagnostics(uri, d => d.length === 1);
    assert.equal(first[0]!.code, 'verify.unknown-code');
    assert.equal(first[0]!.relatedInformation, undefined, 'stripped for a client that did not declare relatedInformation');
    await c.conn.sendNotification('textDocument/didChange', {
      textDocument: { uri: adapterUri, version: 2 },
      contentChanges: [{ text: ADAPTER + '  NOT_FOUND_CUSTOMER:\n    category: NOT_FOUND\n    message_template: m\n' }],
    });
    assert.deepEqual(await c.waitForDiagnostics(uri, d => d.length === 0), []);
  } finally {
    await c.close();
  }
});

test('mcpAql/verifyResponse: a pasted response against the previewed adapter', async () => {
  const ws = workspace();
  const c = await inMemory(RICH, {}, []);
  try {
    const adapterUri = ws.uri('shop.adapter.yaml');
    await c.open(adapterUri, ADAPTER);
    const pasted = '{"success": false, "error": {"code": "NOT_FOUND_ORDER", "message": "Order \'a\' not found", "details": {}}}';
    const one = (await c.conn.sendRequest('mcpAql/verifyResponse', { uri: adapterUri, text: pasted })) as {
      diagnostics: Diagnostic[];
      adapters: string[];
      records: number;
    };
    assert.deepEqual(
      one.diagnostics.map(d => [d.code, d.range.start.character, d.range.end.character]),
      [['verify.missing-detail', pasted.indexOf('"details"'), pasted.indexOf('"details"') + 9]],
    );
    assert.deepEqual([one.adapters, one.records], [[adapterUri], 1]);
    const lines = (await c.conn.sendRequest('mcpAql/verifyResponse', { text: RESPONSE })) as { diagnostics: Diagnostic[]; records: number };
    assert.equal(lines.records, 3);
    assert.deepEqual(
      lines.diagnostics.map(d => d.range.start.line),
      [1, 1, 2],
    );
    const junk = (await c.conn.sendRequest('mcpAql/verifyResponse', { text: '{oops' })) as { diagnostics: Diagnostic[] };
    assert.deepEqual(
      junk.diagnostics.map(d => d.code),
      ['verify.json-syntax'],
    );
  } finally {
    await c.close();
  }
});

test('the bundled server (dist/server.js over stdio) checks a response file', async () => {
  const c = await overStdio(PLAIN);
  try {
    await c.open('file:///ws/shop.adapter.yaml', ADAPTER);
    await c.open('file:///ws/run.responses.jsonl', RESPONSE, 'jsonl');
    const ds = await c.waitForDiagnostics('file:///ws/run.responses.jsonl', d => d.length === 3);
    assert.deepEqual(
      ds.map(d => d.code),
      ['verify.message-mismatch', 'verify.undeclared-detail', 'verify.unknown-code'],
    );
  } finally {
    await c.close();
  }
});
