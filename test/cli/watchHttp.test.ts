/**
 * `watch` in front of a server as a host runs it: the Streamable HTTP reverse proxy (--listen, --url)
 * with server-everything behind it on 127.0.0.1, and the config route — `--print-config`'s file used as
 * it is, by `probe --config`, through `watch`, to the server that speaks only 2024-11-05.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClientSession } from '../../server/src/cli/runtime/session/clientSession';
import { ROOT, run, tempTree } from './helpers';
import { freePort, startEverything } from './httpServers';
import { CLI, watch } from './watchRun';

async function answers(url: string): Promise<string[]> {
  const s = new ClientSession({ transport: 'http', url, headers: {} }, '0');
  const tools = await s.start(10_000);
  const out = [`${s.negotiated!.revision} ${tools.length}`];
  for (const [name, args] of [
    ['echo', { message: 'hi' }],
    ['echo', {}],
  ] as const) {
    const o = await s.call(name, args as Record<string, unknown>, 5000);
    out.push(o.kind === 'answer' ? o.response : o.kind);
  }
  await s.close();
  return out;
}

test(
  'watch --listen --url: transparent to a Streamable HTTP session, findings on stderr, ends on SIGINT',
  { timeout: 90_000 },
  async () => {
    const { url, child } = await startEverything();
    const port = await freePort();
    const w = spawn(process.execPath, [CLI, 'watch', '--listen', `127.0.0.1:${port}`, '--url', url], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    const up = new Promise<void>(done =>
      w.stderr.on('data', (c: Buffer) => {
        err += c.toString();
        if (err.includes(`at http://127.0.0.1:${port}`)) done();
      }),
    );
    const ended = new Promise<number | null>(done => w.on('close', code => done(code)));
    try {
      await up;
      const direct = await answers(url);
      const proxied = await answers(`http://127.0.0.1:${port}/mcp`);
      assert.deepEqual(proxied, direct);
      w.kill('SIGINT');
      assert.equal(await ended, 0);
      assert.match(err, /^mcp-aql-errors watch: proxy for http:\/\/127\.0\.0\.1:\d+\/mcp at http:\/\/127\.0\.0\.1:\d+\n/);
      // The bad call's text-only error, judged by the same thread as stdio's.
      assert.match(err, /mcp-aql-errors watch: echo \(id \d+\): information runtime\.text-only-error: /);
      assert.match(err, /2 tool calls checked/);
    } finally {
      w.kill('SIGKILL');
      child.kill();
    }
  },
);

test('--print-config, used as it is: probe --config reaches the server through watch', { timeout: 60_000 }, async () => {
  const legacy = join(ROOT, 'test/fixtures/servers/legacyServer.mjs');
  const dir = tempTree({
    '.vscode/mcp.json': `{\n  // one server\n  "servers": { "legacy": { "type": "stdio", "command": ${JSON.stringify(process.execPath)}, "args": [${JSON.stringify(legacy)}] } }\n}\n`,
  });
  try {
    // In-process, process.argv[1] is the test runner: the printed command is checked, then made the CLI's.
    const printed = await run(['watch', '--config', '.vscode/mcp.json', '--server', 'legacy', '--print-config'], dir);
    assert.equal(printed.code, 0, printed.err);
    const launch = JSON.stringify([process.argv[1], 'watch', '--', process.execPath, legacy]);
    assert.equal(
      printed.out,
      `{\n  // one server\n  "servers": { "legacy": { "type": "stdio", "command": ${JSON.stringify(process.execPath)}, "args": ${launch} } }\n}\n`,
    );
    writeFileSync(join(dir, 'watched.json'), printed.out.replace(JSON.stringify(process.argv[1]), JSON.stringify(CLI)));
    const r = await run(['probe', '--format', 'json', '--config', 'watched.json'], dir);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /^mcp-aql-errors probe: MCP 2024-11-05 \(handshake era\); 3 of 3 calls sent, to 1 of 1 listed tool/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(
  'watch --config --server: the stdio server as the host declares it (its args and env), bytes through unchanged',
  { timeout: 60_000 },
  async () => {
    const legacy = join(ROOT, 'test/fixtures/servers/legacyServer.mjs');
    const dir = tempTree({
      'claude_desktop_config.json': JSON.stringify({ mcpServers: { notes: { command: process.execPath, args: [legacy] } } }),
    });
    try {
      const init = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } },
      });
      const r = await watch(['--config', join(dir, 'claude_desktop_config.json')], [Buffer.from(init + '\n')]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(
        r.stdout.toString(),
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          result: { protocolVersion: '2024-11-05', capabilities: { tools: {} }, serverInfo: { name: 'legacy-only', version: '1.0.0' } },
        }) + '\n',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
