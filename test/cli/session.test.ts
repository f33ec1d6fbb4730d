/**
 * The run-time session interface (server/src/cli/runtime/session): the session started over stdio on
 * the example server, its tools listed, a call answered, both directions of traffic seen from the
 * discovery and the handshake on, the negotiated revision, and the server ended by `close`.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openSession, type Direction } from '../../server/src/cli/runtime/session';
import { ROOT } from './helpers';

const SERVER = join(ROOT, 'examples/server/server.mjs');

test('a stdio session: tools listed, one call answered, every message seen in order, both directions', async () => {
  const session = openSession({ transport: 'stdio', command: process.execPath, args: [SERVER], cwd: ROOT }, '0.0.0-test');
  const seen: [Direction, { method?: string; id?: unknown; result?: unknown; error?: unknown }][] = [];
  session.onTraffic((d, m) => seen.push([d, JSON.parse(m)]));
  try {
    const tools = await session.start(10_000);
    assert.deepEqual(
      tools.map(t => t.name),
      ['mcp_aql_read', 'mcp_aql_create'],
    );
    const outcome = await session.call('mcp_aql_read', { operation: 'no_such_operation' }, 10_000);
    assert.equal(outcome.kind, 'answer');
    assert.equal(JSON.parse(outcome.request).params.name, 'mcp_aql_read');
    if (outcome.kind === 'answer') assert.equal(JSON.parse(outcome.response).id, JSON.parse(outcome.request).id);
    // The discovery and the handshake are seen too: server/discover out, refused (a 2025-11-25 server),
    // then initialize out, its answer in, the initialized notification out.
    assert.deepEqual(
      seen.slice(0, 5).map(([d, m]) => [d, m.method ?? (m.result ? 'result' : 'error')]),
      [
        ['sent', 'server/discover'],
        ['received', 'error'],
        ['sent', 'initialize'],
        ['received', 'result'],
        ['sent', 'notifications/initialized'],
      ],
    );
    assert.deepEqual([session.negotiated?.revision, session.negotiated?.era], ['2025-11-25', 'handshake']);
    const last = seen.at(-1)!;
    assert.equal(last[0], 'received');
    assert.equal(last[1].id, JSON.parse(outcome.request).id);
    assert.equal(seen.filter(([d]) => d === 'sent').length, seen.filter(([d]) => d === 'received').length + 1);
    assert.equal(session.closed, false);
  } finally {
    await session.close();
  }
  assert.equal(session.closed, true);
  await session.close(); // twice is fine
});

test('a session to a command that does not exist fails on start, and closes cleanly', async () => {
  const session = openSession({ transport: 'stdio', command: join(ROOT, 'no-such-server'), args: [], cwd: ROOT }, '0.0.0-test');
  await assert.rejects(session.start(5_000));
  await session.close();
});
