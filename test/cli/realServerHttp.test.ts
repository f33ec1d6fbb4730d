/**
 * A real MCP server from npm on the current revision (2026-07-28) over Streamable HTTP:
 * @upstash/context7-mcp, on loopback, dummy key. `probe --url` discovers it statelessly; its two tools
 * are read-only but open-world (they ask context7.com), so outside the sandbox they get only the calls
 * that fail their schema; `watch --listen` in front of it passes the same session and judges it alike.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, run } from './helpers';
import { freePort, startContext7 } from './httpServers';

const CLI = join(ROOT, 'dist/cli.js');

interface JsonReport {
  diagnostics: { line: number; code: string; severity: string; message: string }[];
}
const findings = (out: string) => (JSON.parse(out) as JsonReport[]).flatMap(f => f.diagnostics.map(d => `${d.code} ${d.severity}`));

const SUMMARY =
  'mcp-aql-errors probe: MCP 2026-07-28 (stateless era); 5 of 5 calls sent, to 2 of 2 listed tools and an unknown tool; 0 tools not called, 2 kinds of call left out (the coverage says why)\n';
const FOUND = [
  'runtime.session hint',
  ...Array<string>(4).fill('runtime.text-only-error info'), // missing-required and wrong-type, on each tool
];

test('context7-mcp over Streamable HTTP: 2026-07-28 discovered, only schema-failing calls to its open-world tools, the same through watch --listen', async () => {
  const { url, child } = await startContext7();
  const port = await freePort();
  const w = spawn(process.execPath, [CLI, 'watch', '--listen', `127.0.0.1:${port}`, '--url', url], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  const up = new Promise<void>(done =>
    w.stderr.on('data', (c: Buffer) => {
      err += c.toString();
      if (err.includes(`at http://127.0.0.1:${port}`)) done();
    }),
  );
  const ended = new Promise<number | null>(done => w.on('close', code => done(code)));
  try {
    const direct = await run(['probe', '--format', 'json', '--url', url]);
    assert.equal(direct.code, 0, direct.err);
    assert.equal(direct.err, SUMMARY);
    const [report] = JSON.parse(direct.out) as JsonReport[];
    assert.equal(
      report!.diagnostics[0]!.message,
      'MCP 2026-07-28, the stateless era (server/discover, the revision in each request), over Streamable HTTP, with Context7 4.1.1.',
    );
    assert.deepEqual(findings(direct.out), FOUND);
    // No HTTP-level finding, and no call that could reach context7.com (the not-found kind left out).
    assert.ok(report!.diagnostics.every(d => !/http-status|stream-no-answer|method-header/.test(d.code)));

    await up;
    const proxied = await run(['probe', '--format', 'json', '--url', `http://127.0.0.1:${port}/mcp`]);
    assert.equal(proxied.code, 0, proxied.err);
    assert.equal(proxied.err, SUMMARY);
    assert.deepEqual(findings(proxied.out), FOUND);
    w.kill('SIGINT');
    assert.equal(await ended, 0);
    assert.equal(err.match(/information runtime\.text-only-error: /g)?.length, 4, err);
  } finally {
    w.kill('SIGKILL');
    child.kill();
  }
});
