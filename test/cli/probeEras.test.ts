/**
 * `probe` against servers of each protocol era and over each way of reaching them (docs/cli.md, "probe"):
 * a server that speaks only 2026-07-28 (stateless) and one that speaks only 2024-11-05 (test/fixtures/
 * servers), a host's config (VS Code's mcp.json, --server, --all), and Streamable HTTP (server-everything
 * on 127.0.0.1). The negotiated revision and era are in every report format. No network but loopback.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, run, tempTree } from './helpers';
import { startEverything, startModernHttp } from './httpServers';

const MODERN = join(ROOT, 'test/fixtures/servers/modernServer.mjs');
const LEGACY = join(ROOT, 'test/fixtures/servers/legacyServer.mjs');

interface JsonReport {
  file: string;
  diagnostics: { line: number; code: string; severity: string; message: string }[];
}
const findings = (out: string) =>
  (JSON.parse(out) as JsonReport[]).flatMap(f => f.diagnostics.map(d => `${d.line} ${d.code} ${d.severity}`));

test('a server that speaks only 2026-07-28: discovered, probed statelessly, its slips found', async () => {
  const r = await run(['probe', '--format', 'json', '--', process.execPath, MODERN]);
  assert.equal(r.code, 0, r.err);
  assert.equal(
    r.err,
    'mcp-aql-errors probe: MCP 2026-07-28 (stateless era); 8 of 8 calls sent, to 2 of 2 listed tools and an unknown tool; 0 tools not called, 0 kinds of call left out (the coverage says why)\n',
  );
  const [report] = JSON.parse(r.out) as JsonReport[];
  assert.equal(
    report!.diagnostics[0]!.message,
    'MCP 2026-07-28, the stateless era (server/discover, the revision in each request), over stdio, with modern-only 1.0.0.',
  );
  assert.deepEqual(findings(r.out), [
    '1 runtime.session hint',
    '2 runtime.text-only-error info', // lookup: missing id
    '2 runtime.error-output-schema warning', // … and its structuredContent fails the outputSchema
    '4 runtime.text-only-error info',
    '4 runtime.error-output-schema warning',
    '6 runtime.text-only-error info',
    '6 runtime.error-output-schema warning',
    '8 runtime.accepted-call warning', // lookup of an id no one issued, answered as found
    // 10-14: pending answered input_required, no failure
    '16 runtime.text-only-error info', // the unknown tool
    '18 runtime.legacy-error-code warning', // resources/read: -32002
  ]);
});

test('a server that speaks only 2024-11-05: the discovery refused, then initialize; -32602 is what its revision shows', async () => {
  for (const extra of [[], ['exit']]) {
    const r = await run(['probe', '--format', 'json', '--', process.execPath, LEGACY, ...extra]);
    assert.equal(r.code, 0, r.err);
    assert.equal(
      r.err,
      'mcp-aql-errors probe: MCP 2024-11-05 (handshake era); 3 of 3 calls sent, to 1 of 1 listed tool and an unknown tool; 0 tools not called, 1 kind of call left out (the coverage says why)\n',
    );
    assert.deepEqual(findings(r.out), ['1 runtime.session hint', '2 runtime.protocol-error info', '4 runtime.protocol-error info']);
  }
  // MCP-AQL's own rule (a contract) wants a tool result whatever the revision.
  const withContract = await run(['probe', '--format', 'json', '--contract', 'examples/server', '--', process.execPath, LEGACY]);
  assert.deepEqual(findings(withContract.out), [
    '1 runtime.session hint',
    '2 runtime.protocol-error warning',
    '4 runtime.protocol-error warning',
  ]);
});

test('the revision and era are in every report format', async () => {
  for (const format of ['text', 'compact', 'json', 'sarif', 'github', 'junit', 'checkstyle', 'codeclimate']) {
    const r = await run(['probe', '--format', format, '--', process.execPath, MODERN]);
    assert.match(r.out, /MCP 2026-07-28, the stateless era/, format);
  }
  const off = await run(['probe', '--format', 'json', '--rule', 'runtime.session=off', '--', process.execPath, LEGACY]);
  assert.deepEqual(findings(off.out), ['2 runtime.protocol-error info', '4 runtime.protocol-error info']);
});

const MCP_JSON = (modern: string, legacy: string) => `{
  // both eras, as a VS Code workspace declares them
  "servers": {
    "modern": { "type": "stdio", "command": "${process.execPath}", "args": ["\${workspaceFolder}/${modern}"] },
    "legacy": { "command": "${process.execPath}", "args": ["${legacy}"], "env": { "UNUSED": "\${env:HOME}" } },
  }
}
`;

test("--config: a server of the host's mcp.json by --server, every one by --all, into one report", async () => {
  const dir = tempTree({ '.vscode/mcp.json': MCP_JSON('m.mjs', LEGACY), 'm.mjs': `import ${JSON.stringify(MODERN)};\n` });
  try {
    const one = await run(['probe', '--format', 'json', '--config', '.vscode/mcp.json', '--server', 'modern'], dir);
    assert.equal(one.code, 0, one.err);
    assert.match((JSON.parse(one.out) as JsonReport[])[0]!.diagnostics[0]!.message, /^'modern': MCP 2026-07-28/);
    const all = await run(['probe', '--format', 'json', '--config', '.vscode/mcp.json', '--all'], dir);
    assert.equal(all.code, 0, all.err);
    assert.deepEqual(
      (JSON.parse(all.out) as JsonReport[]).map(f => [f.file, f.diagnostics[0]!.message.split(',')[0]]),
      [
        ['probe.modern.responses.jsonl', "'modern': MCP 2026-07-28"],
        ['probe.legacy.responses.jsonl', "'legacy': MCP 2024-11-05"],
      ],
    );
    assert.match(
      all.err,
      /^mcp-aql-errors probe: modern: MCP 2026-07-28 \(stateless era\); .*\nmcp-aql-errors probe: legacy: MCP 2024-11-05 \(handshake era\); /,
    );
    const which = await run(['probe', '--config', '.vscode/mcp.json'], dir);
    assert.equal(which.code, 2);
    assert.equal(
      which.err,
      'mcp-aql-errors: .vscode/mcp.json has 2 servers: name one with --server (modern, legacy) (mcp-aql-errors probe --help)\n',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('usage errors: one way to the server, --header with --url, a URL that is http', async () => {
  for (const [args, message] of [
    [['probe', '--url', 'ftp://x/mcp'], "--url takes an http:// or https:// URL, not 'ftp://x/mcp'"],
    [['probe', '--url', 'http://127.0.0.1:9/mcp', '--header', 'no colon'], "--header takes 'Name: value', not 'no colon'"],
    [['probe', '--header', 'A: b', '--', 'x'], 'probe: --header goes with --url'],
    [['probe', '--url', 'http://127.0.0.1:9/mcp', '--', 'x'], "probe: give the server one way: a command after '--' or --url"],
    [['probe', '--all', '--', 'x'], 'probe: --all probes every server of --config <file> (without --server)'],
    [['probe', '--server', 'a', '--', 'x'], 'probe: --server names a server of --config <file>'],
    [['probe'], 'probe needs a server: --config <file>'],
  ] as const) {
    const r = await run([...args]);
    assert.equal(r.code, 2, args.join(' '));
    assert.ok(r.err.startsWith(`mcp-aql-errors: ${message}`), r.err);
  }
  const nobody = await run(['probe', '--timeout', '1000', '--url', 'http://127.0.0.1:9/mcp']);
  assert.equal(nobody.code, 2);
  assert.match(nobody.err, /^mcp-aql-errors probe: cannot reach 'http:\/\/127\.0\.0\.1:9\/mcp' as an MCP server: /);
});

test('--url: a Streamable HTTP server (server-everything on loopback), its HTTP exchanges judged too', { timeout: 60_000 }, async () => {
  const { url, child } = await startEverything();
  try {
    const r = await run(['probe', '--format', 'json', '--allow-writes', '--url', url, '--header', 'X-Probe: yes']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /^mcp-aql-errors probe: MCP 2025-11-25 \(handshake era\); \d+ of \d+ calls sent, to \d+ of 13 listed tools/);
    const [report] = JSON.parse(r.out) as JsonReport[];
    assert.match(
      report!.diagnostics[0]!.message,
      /^MCP 2025-11-25, the handshake era \(initialize\), over Streamable HTTP, with mcp-servers\/everything /,
    );
    // No HTTP-level finding: every error came as a JSON-RPC error in its body or stream.
    assert.deepEqual(
      report!.diagnostics.filter(d => /http-status|stream-no-answer|method-header/.test(d.code)),
      [],
    );
  } finally {
    child.kill();
  }
});

test('--url, 2026-07-28: the requests a server must refuse at the HTTP level, and how it answered them', { timeout: 60_000 }, async () => {
  const { url, child } = await startModernHttp();
  try {
    const r = await run(['probe', '--format', 'json', '--url', url]);
    assert.equal(r.code, 0, r.err);
    const [report] = JSON.parse(r.out) as JsonReport[];
    assert.match(
      report!.diagnostics[0]!.message,
      /^MCP 2026-07-28, the stateless era .*, over Streamable HTTP, with modern-only 1\.0\.0\.$/,
    );
    assert.deepEqual(
      report!.diagnostics.filter(d => /http-status|method-header/.test(d.code)).map(d => `${d.line} ${d.code} ${d.message.slice(0, 60)}`),
      [
        "19 runtime.method-header The server accepted tools/list with Mcp-Method 'tools/call':",
        '21 runtime.method-header The server accepted tools/list without an Mcp-Method header:',
        '23 runtime.http-status JSON-RPC error -32022 to tools/list came with HTTP 200: 2026',
      ],
    );
  } finally {
    child.kill();
  }
});
