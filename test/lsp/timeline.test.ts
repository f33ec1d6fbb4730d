/**
 * MCP_AQL_TIMELINE=1 (server/src/lsp/timeline.ts): the built server logs each hop of an opened file's way to
 * its first diagnostics with the wall clock, in the order they happen, between the test's own clock readings;
 * without the variable it logs none. test/e2e/firstDiagnostics.test.ts reads these lines in a real editor.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';
import { ROOT } from './harness';

const BAD = 'name: x\ntype: adapter\nerror_codes:\n  X_ONE:\n    category: BOGUS\n    message_template: "x"\n';
const URI = 'file:///timeline/x.adapter.yaml';

/** One session: initialize, open BAD, pull its diagnostics; the server's log lines and the test's clock around it. */
async function session(env: Record<string, string>): Promise<{ lines: string[]; from: number; to: number; codes: string[] }> {
  const from = Date.now();
  const proc = spawn(process.execPath, [join(ROOT, 'dist', 'server.js'), '--stdio'], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const conn = createProtocolConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
  const lines: string[] = [];
  conn.onNotification('window/logMessage', (p: { message: string }) => void lines.push(p.message));
  conn.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({})));
  conn.listen();
  try {
    await conn.sendRequest('initialize', {
      processId: process.pid,
      rootUri: null,
      capabilities: { workspace: { configuration: true }, textDocument: { diagnostic: {} } },
    });
    await conn.sendNotification('initialized', {});
    await conn.sendNotification('textDocument/didOpen', { textDocument: { uri: URI, languageId: 'yaml', version: 1, text: BAD } });
    const report = (await conn.sendRequest('textDocument/diagnostic', { textDocument: { uri: URI } })) as { items: { code: string }[] };
    // The log line of the answer is sent after the answer itself.
    await new Promise(r => setTimeout(r, 100));
    const to = Date.now();
    await conn.sendRequest('shutdown');
    return { lines, from, to, codes: report.items.map(i => i.code) };
  } finally {
    conn.dispose();
    proc.kill();
  }
}

test(
  'MCP_AQL_TIMELINE=1: the server logs each hop to the first diagnostics, in order, with the wall clock',
  { timeout: 60_000 },
  async () => {
    const { lines, from, to, codes } = await session({ MCP_AQL_TIMELINE: '1' });
    assert.ok(codes.includes('code.unknown-category'), codes.join());
    const hops = lines.flatMap(l => {
      const m = /^\[mcp-aql\] timeline (.*) @(\d+)$/.exec(l);
      return m ? [{ what: m[1]!, at: Number(m[2]) }] : [];
    });
    const order = [
      /^server initialize process-start=(\d+)$/,
      /^server initialized$/,
      /^server didOpen x\.adapter\.yaml$/,
      /^server pull x\.adapter\.yaml$/,
      /^server settings-asked x\.adapter\.yaml$/,
      /^server settings-known x\.adapter\.yaml$/,
      /^server pull-answered x\.adapter\.yaml 1$/,
    ];
    let last = from;
    for (const re of order) {
      const hop = hops.find(h => re.test(h.what));
      assert.ok(hop, `a line for ${re}: ${JSON.stringify(hops)}`);
      assert.ok(hop.at >= last && hop.at <= to, `${hop.what} at ${hop.at}, after ${last} and before ${to}`);
      last = hop.at;
    }
    // The process's start, on the same clock: after the test spawned it, before initialize reached it.
    const start = Number(/process-start=(\d+)/.exec(hops[0]!.what)?.[1]);
    assert.ok(start >= from - 5 && start <= hops[0]!.at, `process start ${start}`);
  },
);

test('without MCP_AQL_TIMELINE the server logs no timeline line', { timeout: 60_000 }, async () => {
  const { lines, codes } = await session({ MCP_AQL_TIMELINE: '' });
  assert.ok(codes.includes('code.unknown-category'), codes.join());
  assert.ok(
    lines.some(l => /initialize \d+ ms after the process started/.test(l)),
    lines.join('\n'),
  );
  assert.deepEqual(
    lines.filter(l => l.includes('timeline')),
    [],
  );
});
