/** The import rules of ARCHITECTURE.md, checked on the sources (what an ESLint no-restricted-imports would). */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './helpers';

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap(n => {
    const p = join(dir, n);
    return statSync(join(ROOT, p)).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}
const imports = (file: string) =>
  [...readFileSync(join(ROOT, file), 'utf8').matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'|^\s*import\s+'([^']+)'/gm)].map(
    m => m[1] ?? m[2]!,
  );
const resolved = (file: string, spec: string) => (spec.startsWith('.') ? relative(ROOT, join(ROOT, file, '..', spec)) : spec);

test('server/src/service imports only yaml, ajv, the LSP type packages and its own files', () => {
  for (const f of files('server/src/service'))
    for (const s of imports(f)) {
      const r = resolved(f, s);
      assert.ok(
        ['yaml', 'ajv', 'vscode-languageserver-types', 'vscode-languageserver-textdocument'].includes(s) ||
          r.startsWith('server/src/service'),
        `${f} imports ${s}`,
      );
    }
});

test('server/src/lsp reaches the service only through its façade', () => {
  for (const f of files('server/src/lsp'))
    for (const s of imports(f)) {
      const r = resolved(f, s);
      if (r.startsWith('server/src/service')) assert.equal(r, 'server/src/service', `${f} imports service internals: ${s}`);
      assert.ok(!['yaml', 'ajv'].includes(s) && !r.startsWith('client'), `${f} imports ${s}`);
    }
});

test('client/src imports only vscode, the language client, Node and server/src/protocol.ts', () => {
  for (const f of files('client/src'))
    for (const s of imports(f)) {
      const r = resolved(f, s);
      if (r.startsWith('server')) assert.equal(r, 'server/src/protocol', `${f} imports ${s}`);
      assert.ok(!['yaml', 'ajv', 'vscode-languageserver'].includes(s), `${f} imports ${s}`);
    }
});

test('client/webview imports only its own files and the message types', () => {
  for (const f of files('client/webview'))
    for (const s of imports(f)) {
      const r = resolved(f, s);
      assert.ok(r.startsWith('client/webview') || r === 'client/src/preview/messages', `${f} imports ${s}`);
    }
});

test('server/src/main.ts imports only startServer, the schemas and the connection', () => {
  for (const s of imports('server/src/main.ts')) {
    assert.ok(['vscode-languageserver/node', './lsp/startServer', './envelopeSchemas', './service'].includes(s) || s.endsWith('.json'), s);
  }
});

test("server/src/browserMain.ts (the web extension's server) imports only startServer, the schemas and the browser connection", () => {
  for (const s of imports('server/src/browserMain.ts')) {
    assert.ok(
      ['vscode-languageserver/browser', './lsp/startServer', './envelopeSchemas', './service'].includes(s) || s.endsWith('.json'),
      s,
    );
  }
});

test("server/src/browser (the browser build's stand-in for the file system) imports nothing", () => {
  for (const f of files('server/src/browser')) assert.deepEqual(imports(f), [], f);
});

test('server/src/cli reaches the service only through its façade', () => {
  for (const f of files('server/src/cli'))
    for (const s of imports(f)) {
      const r = resolved(f, s);
      if (r.startsWith('server/src/service')) assert.equal(r, 'server/src/service', `${f} imports service internals: ${s}`);
      assert.ok(!r.startsWith('server/src/lsp') && !r.startsWith('client'), `${f} imports ${s}`);
    }
});

test("the MCP SDK: only its client, stdio transport and types, and only in the probe's session (the CLI bundle stays lean)", () => {
  const SDK = [
    '@modelcontextprotocol/sdk/client/index.js',
    '@modelcontextprotocol/sdk/client/stdio.js',
    '@modelcontextprotocol/sdk/types.js',
  ];
  const users: string[] = [];
  for (const dir of ['server/src', 'client/src'])
    for (const f of files(dir))
      for (const s of imports(f))
        if (s.startsWith('@modelcontextprotocol/')) {
          assert.ok(SDK.includes(s), `${f} imports ${s}`);
          users.push(f);
        }
  assert.deepEqual([...new Set(users)], ['server/src/cli/probeSession.ts']);
});

test('server/src/node imports only Node built-ins, the text document package and the service façade', () => {
  for (const f of files('server/src/node'))
    for (const s of imports(f)) {
      const r = resolved(f, s);
      if (s.startsWith('.')) assert.ok(r === 'server/src/service' || r.startsWith('server/src/node'), `${f} imports ${s}`);
      else
        assert.ok(
          s.startsWith('node:') || ['vscode-languageserver-textdocument', 'vscode-languageserver-types'].includes(s),
          `${f} imports ${s}`,
        );
    }
});

/** The stages of the service (ARCHITECTURE.md, "Inside the service"): a folder imports only the folders listed for it. */
const SERVICE_STAGES: Record<string, readonly string[]> = {
  util: ['model'],
  condition: [],
  model: [],
  parse: ['model', 'util'],
  workspace: ['model', 'parse', 'util'],
  checks: ['codes', 'model', 'parse', 'workspace', 'condition', 'util'],
  fixes: ['codes', 'model', 'parse', 'workspace', 'util'],
  features: ['codes', 'model', 'parse', 'workspace', 'condition', 'util'],
  envelopes: ['model', 'parse', 'workspace', 'condition', 'util', 'features'],
  config: ['codes', 'model', 'util'],
  contract: ['model', 'workspace', 'util'],
  verify: ['codes', 'checks', 'contract', 'envelopes', 'model', 'parse', 'util'],
  evolution: ['contract', 'model', 'util'],
  reference: ['contract', 'envelopes', 'evolution', 'features', 'model', 'util'],
  runtime: ['codes', 'checks', 'contract', 'model', 'verify'],
};

test('inside the service, each stage imports only the stages below it', () => {
  const top = readdirSync(join(ROOT, 'server/src/service')).filter(n => statSync(join(ROOT, 'server/src/service', n)).isDirectory());
  assert.deepEqual(top.sort(), Object.keys(SERVICE_STAGES).sort(), 'every service folder has a row in SERVICE_STAGES and ARCHITECTURE.md');
  for (const [stage, allowed] of Object.entries(SERVICE_STAGES)) {
    for (const f of files(`server/src/service/${stage}`))
      for (const s of imports(f)) {
        if (!s.startsWith('.')) continue;
        const r = relative(join(ROOT, 'server/src/service'), join(ROOT, f, '..', s)).split(/[\\/]/)[0]!;
        if (r === stage) continue;
        assert.ok(allowed.includes(r), `${f} (stage ${stage}) imports ${s}: ${stage} may import ${allowed.join(', ') || 'nothing'}`);
      }
  }
});
