/**
 * The LSP lifecycle at the boundary, with the built server over stdio: a request
 * before `initialize` gets ServerNotInitialized (-32002), one after `shutdown` InvalidRequest (-32600).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';
import { ROOT } from './harness';

const hover = { textDocument: { uri: 'file:///ws/a.adapter.yaml' }, position: { line: 0, character: 0 } };

async function errorOf(p: Promise<unknown>): Promise<[number, string] | 'answered'> {
  try {
    await p;
    return 'answered';
  } catch (e) {
    const r = e as { code: number; message: string };
    return [r.code, r.message];
  }
}

test('requests before initialize and after shutdown get the protocol errors; exit still ends the server', { timeout: 30_000 }, async () => {
  const proc = spawn(process.execPath, [join(ROOT, 'dist', 'server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = createProtocolConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
  conn.listen();
  try {
    assert.deepEqual(await errorOf(conn.sendRequest('textDocument/hover', hover)), [
      -32002,
      'The server is not initialized: send initialize first.',
    ]);
    assert.deepEqual(await errorOf(conn.sendRequest('mcpAql/registry')), [-32002, 'The server is not initialized: send initialize first.']);
    // A notification before initialize is dropped: the document is not open afterwards.
    await conn.sendNotification('textDocument/didOpen', {
      textDocument: { uri: 'file:///ws/a.adapter.yaml', languageId: 'yaml', version: 1, text: 'error_codes:\n  X: 1\n' },
    });
    const init = (await conn.sendRequest('initialize', { processId: null, rootUri: null, capabilities: {} })) as { capabilities: object };
    assert.equal(typeof init.capabilities, 'object');
    await conn.sendNotification('initialized', {});
    assert.equal(await conn.sendRequest('textDocument/hover', hover), null);
    assert.equal(await conn.sendRequest('shutdown'), null);
    assert.deepEqual(await errorOf(conn.sendRequest('textDocument/hover', hover)), [
      -32600,
      'The server is shut down: only exit is accepted.',
    ]);
    assert.deepEqual(await errorOf(conn.sendRequest('shutdown')), [-32600, 'The server is shut down: only exit is accepted.']);
    const exited = new Promise<number | null>(r => proc.on('exit', code => r(code)));
    await conn.sendNotification('exit');
    assert.equal(await exited, 0);
  } finally {
    conn.dispose();
    proc.kill();
  }
});
