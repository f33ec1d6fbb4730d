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

test('client/src imports only vscode, the language client, Node and server/src/protocol.ts (serverProcess.ts, for the loader)', () => {
  for (const f of files('client/src'))
    for (const s of imports(f)) {
      const r = resolved(f, s);
      if (r.startsWith('server')) assert.ok(['server/src/protocol', 'server/src/serverProcess'].includes(r), `${f} imports ${s}`);
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

test('server/src/main.ts imports only startServer, the schemas (and their validators built with the bundle), the connection and the scan thread', () => {
  for (const s of imports('server/src/main.ts')) {
    assert.ok(
      [
        'vscode-languageserver/node',
        './lsp/startServer',
        './envelopeSchemas',
        './service',
        'mcp-aql:adapter-validators',
        './node/indexThread',
        'node:path',
        'node:worker_threads',
      ].includes(s) || s.endsWith('.json'),
      s,
    );
  }
});

test('server/src/loadServer.ts (dist/server.js, the loader of the server bundle) imports Node built-ins only', () => {
  const found = imports('server/src/loadServer.ts');
  assert.ok(found.length > 0);
  for (const s of found) assert.match(s, /^node:/, s);
});

test("server/src/browserMain.ts (the web extension's server) imports only startServer, the schemas and the browser connection", () => {
  for (const s of imports('server/src/browserMain.ts')) {
    assert.ok(
      ['vscode-languageserver/browser', './lsp/startServer', './envelopeSchemas', './service', 'mcp-aql:adapter-validators'].includes(s) ||
        s.endsWith('.json'),
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

test('the MCP SDK: only the 2.x client package, and only in the session (the CLI bundle stays lean)', () => {
  const SDK = ['@modelcontextprotocol/client', '@modelcontextprotocol/client/stdio'];
  const users: string[] = [];
  for (const dir of ['server/src', 'client/src'])
    for (const f of files(dir))
      for (const s of imports(f))
        if (s.startsWith('@modelcontextprotocol/')) {
          assert.ok(SDK.includes(s), `${f} imports ${s}`);
          users.push(f);
        }
  assert.deepEqual([...new Set(users)], ['server/src/cli/runtime/session/clientSession.ts']);
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
  inference: ['contract', 'envelopes', 'model', 'parse', 'util', 'verify'],
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

/**
 * The CLI's rooms (ARCHITECTURE.md, "Inside the CLI"): one folder per command family, entered through its
 * `index.ts`; a folder imports only the folders listed for it, and the shared files at the top. The
 * shared files import no folder but `format/`; `main.ts` dispatches to every folder's index.
 */
const CLI_FOLDERS: Record<string, readonly string[]> = {
  format: [],
  cache: [],
  fix: ['format'],
  check: ['cache', 'fix', 'format'],
  verify: ['format'],
  contract: ['format'],
  authoring: ['format'],
  runtime: ['format'],
};

test('inside the CLI, each folder is entered through its index.ts and imports only the folders listed for it', () => {
  const CLI = 'server/src/cli';
  const top = readdirSync(join(ROOT, CLI)).filter(n => statSync(join(ROOT, CLI, n)).isDirectory());
  assert.deepEqual(top.sort(), Object.keys(CLI_FOLDERS).sort(), 'every CLI folder has a row in CLI_FOLDERS and ARCHITECTURE.md');
  for (const f of files(CLI)) {
    const from = relative(CLI, f).split(/[\\/]/);
    const folder = from.length > 1 ? from[0]! : undefined;
    for (const s of imports(f)) {
      if (!s.startsWith('.')) continue;
      const r = relative(join(ROOT, CLI), join(ROOT, f, '..', s.replace(/\.js$/, ''))).split(/[\\/]/);
      if (r[0] === '..') continue; // the service façade, node/, schemas: the rows above
      const to = r.length > 1 || Object.hasOwn(CLI_FOLDERS, r[0]!) ? r[0]! : undefined;
      if (to === undefined || to === folder) continue;
      assert.ok(r.length === 1 || (r.length === 2 && r[1] === 'index'), `${f} imports ${s}: enter ${to}/ through its index.ts`);
      if (folder === undefined)
        assert.ok(f === `${CLI}/main.ts` || to === 'format', `${f} (a shared file) imports ${s}: shared files import only format/`);
      else
        assert.ok(
          CLI_FOLDERS[folder]!.includes(to),
          `${f} (${folder}/) imports ${s}: ${folder}/ may import ${CLI_FOLDERS[folder]!.join(', ') || 'no folder'}`,
        );
    }
  }
});

/** Relative imports between the .ts files under `roots`, type-only ones included, each resolved to a file. */
function importGraph(roots: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const root of roots)
    for (const f of files(root)) {
      const to: string[] = [];
      for (const s of imports(f)) {
        if (!s.startsWith('.')) continue;
        const base = relative(ROOT, join(ROOT, f, '..', s.replace(/\.js$/, '')));
        const hit = [`${base}.ts`, join(base, 'index.ts')].find(c => {
          try {
            return statSync(join(ROOT, c)).isFile();
          } catch {
            return false;
          }
        });
        if (hit) to.push(hit);
      }
      graph.set(f, to);
    }
  return graph;
}

/** The strongly connected components of more than one file, or of a file importing itself (Tarjan, iterative). */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>(),
    low = new Map<string, number>(),
    on = new Set<string>(),
    stack: string[] = [];
  const out: string[][] = [];
  let n = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: [string, number][] = [[start, 0]];
    while (work.length) {
      const top = work[work.length - 1]!;
      const [v, i] = top;
      if (i === 0) {
        index.set(v, n);
        low.set(v, n++);
        stack.push(v);
        on.add(v);
      }
      const next = graph.get(v) ?? [];
      if (i < next.length) {
        top[1]++;
        const w = next[i]!;
        if (!index.has(w)) work.push([w, 0]);
        else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const u = work[work.length - 1]![0];
        low.set(u, Math.min(low.get(u)!, low.get(v)!));
      }
      if (low.get(v) === index.get(v)) {
        const scc: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          on.delete(w);
          scc.push(w);
        } while (w !== v);
        if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc.sort());
      }
    }
  }
  return out;
}

test('no import circle anywhere in server/src or client (type-only imports included)', () => {
  assert.deepEqual(circles(importGraph(['server/src', 'client'])), []);
});

test('the circle finder finds a circle', () => {
  const g = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a', 'd']],
    ['d', []],
    ['e', ['e']],
  ]);
  assert.deepEqual(circles(g), [['a', 'b', 'c'], ['e']]);
});
