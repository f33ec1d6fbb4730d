/**
 * The words `probe` gives when a server does not start or cannot be reached: the SDK's step names
 * ("Request timed out", "fetch failed") with the cause a user can act on.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { startFailure } from '../../server/src/cli/runtime/probe/startFailure';
import { run } from './helpers';

test('a server that never answers: the handshake and the wait are named, not the SDK\'s "Request timed out"', () => {
  const timedOut = Object.assign(new Error('Request timed out'), { code: -32001 });
  assert.equal(
    startFailure(timedOut, 10_000),
    'the server did not answer the handshake (10 s for each request: server/discover, then initialize): is it an MCP server, or is it waiting for something (a network, a credential, input)?',
  );
  assert.match(startFailure(new Error('MCP error -32001: Request timed out'), 12_500), /\(12\.5 s for each request/);
});

test("an error's causes follow its message, once each, and a plain message stays as it is", () => {
  const refused = new Error('connect ECONNREFUSED 127.0.0.1:1');
  const fetchFailed = new TypeError('fetch failed', { cause: refused });
  const sdk = new Error('Version negotiation probe failed: fetch failed', { cause: fetchFailed });
  assert.equal(startFailure(sdk, 10_000), 'Version negotiation probe failed: fetch failed (connect ECONNREFUSED 127.0.0.1:1)');
  assert.equal(startFailure(new Error('Connection closed'), 10_000), 'Connection closed');
  assert.equal(startFailure('a string', 10_000), 'a string');
  // A cause that loops back on itself ends the walk.
  const a: Error & { cause?: unknown } = new Error('a');
  const b = new Error('b', { cause: a });
  a.cause = b;
  assert.equal(startFailure(a, 10_000), 'a (b)');
});

test('probe --url on a port nobody listens on: exit 2, and the refused connection is said', async () => {
  const port = await new Promise<number>(resolve => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  const r = await run(['probe', '--timeout', '1000', '--url', `http://127.0.0.1:${port}/mcp`]);
  assert.equal(r.code, 2);
  assert.match(
    r.err,
    new RegExp(`^mcp-aql-errors probe: cannot reach 'http://127\\.0\\.0\\.1:${port}/mcp' as an MCP server: .*ECONNREFUSED`),
  );
});
