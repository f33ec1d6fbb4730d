/**
 * The web extension's server (dist/browser-server.js) in a real browser: Debian's Chromium through
 * playwright-core, the bundle in a Web Worker, LSP JSON-RPC over postMessage from the page (what
 * vscode-languageclient/browser does in vscode.dev). Diagnostics, a quick fix, completion, and the
 * workspace index of open documents. Skipped (one line) without Chromium, except under CI=true.
 */
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

const ROOT = join(__dirname, '..', '..');
const CHROMIUM = '/usr/bin/chromium';
const why = !existsSync(CHROMIUM)
  ? 'Debian chromium is not installed'
  : !existsSync(join(ROOT, 'dist/browser-server.js'))
    ? 'dist/browser-server.js is not built (npm run build)'
    : undefined;
const skip = why && process.env.CI !== 'true' ? `web: skipped — ${why}; run \`npm run setup:e2e\` and \`npm run build\`` : false;

/** The page: a worker running the bundle, and a minimal LSP client over postMessage (answers the server's own requests). */
const PAGE = `<!doctype html><meta charset="utf-8"><script>
const worker = new Worker('/browser-server.js');
let next = 1; const pending = new Map(); window.notes = []; window.errors = [];
worker.onerror = e => window.errors.push(String(e.message));
worker.onmessage = ({ data: m }) => {
  if (m.method && m.id !== undefined) {            // a request from the server
    const result = m.method === 'workspace/configuration' ? m.params.items.map(() => ({})) : null;
    worker.postMessage({ jsonrpc: '2.0', id: m.id, result });
  } else if (m.id !== undefined && pending.has(m.id)) { pending.get(m.id)(m); pending.delete(m.id); }
  else window.notes.push(m);
};
window.request = (method, params) => new Promise(resolve => { const id = next++; pending.set(id, resolve); worker.postMessage({ jsonrpc: '2.0', id, method, params }); });
window.notify = (method, params) => worker.postMessage({ jsonrpc: '2.0', method, params });
window.published = uri => { const all = window.notes.filter(n => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri); return all.length ? all[all.length - 1].params.diagnostics : undefined; };
</script>`;

let server: Server | undefined, browser: Browser | undefined, page: Page | undefined;

before(
  async () => {
    if (why) return;
    const bundle = readFileSync(join(ROOT, 'dist/browser-server.js'));
    server = createServer((req, res) => {
      if (req.url === '/browser-server.js') {
        res.writeHead(200, { 'content-type': 'text/javascript' });
        res.end(bundle);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(PAGE);
    });
    await new Promise<void>(r => server!.listen(0, '127.0.0.1', r));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
    const init = (await page.evaluate(() =>
      (window as any).request('initialize', {
        processId: null,
        rootUri: null,
        workspaceFolders: null,
        capabilities: {
          textDocument: {
            publishDiagnostics: { dataSupport: true, codeDescriptionSupport: true },
            codeAction: { dataSupport: true },
            completion: { completionItem: { snippetSupport: false } },
          },
          workspace: { configuration: true },
        },
      }),
    )) as { result?: { capabilities: { completionProvider?: unknown } }; error?: unknown };
    assert.ok(init.result?.capabilities.completionProvider, JSON.stringify(init.error));
    await page.evaluate(() => (window as any).notify('initialized', {}));
  },
  { timeout: 60_000 },
);
after(async () => {
  await browser?.close();
  server?.close();
});

type Diag = {
  code: string;
  message: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  data?: unknown;
};
const w = () => page!.evaluate.bind(page!);
async function open(uri: string, text: string): Promise<void> {
  await w()(
    ([u, t]) => (window as any).notify('textDocument/didOpen', { textDocument: { uri: u, languageId: 'yaml', version: 1, text: t } }),
    [uri, text] as const,
  );
}
async function diagnostics(uri: string, pred: (d: Diag[]) => boolean): Promise<Diag[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const d = (await w()(u => (window as any).published(u), uri)) as Diag[] | undefined;
    if (d && pred(d)) return d;
    if (Date.now() > deadline)
      throw new Error(
        `no matching diagnostics for ${uri}: ${JSON.stringify(d)}; worker errors: ${await w()(() => (window as any).errors.join('; '))}`,
      );
    await new Promise(r => setTimeout(r, 50));
  }
}
const request = (method: string, params: unknown) =>
  w()(([m, p]) => (window as any).request(m, p), [method, params] as const) as Promise<{ result: any; error?: unknown }>;

const ADAPTER = [
  'error_codes:',
  '  NOT_FOUND_REPOSITORY:',
  '    category: NOT_FOUND',
  '    message_template: "Repository \'{owner}/{repos}\' not found"',
  '    details: { owner: string, repo: string }',
  'error_mapping:',
  '  403:',
  '    code: PERMISSION_DENIE',
  '',
].join('\n');
const URI = 'vscode-vfs://github/o/r/api.adapter.yaml';
const REPOS = ADAPTER.split('\n')[3]!.indexOf('{repos}'); // 43

test('the browser bundle in a Web Worker: diagnostics with exact ranges', { skip, timeout: 60_000 }, async () => {
  await open(URI, ADAPTER);
  const ds = await diagnostics(URI, d => d.some(x => x.code === 'template.unknown-placeholder'));
  const ph = ds.find(d => d.code === 'template.unknown-placeholder')!;
  assert.deepEqual(ph.range, { start: { line: 3, character: REPOS }, end: { line: 3, character: REPOS + 7 } });
  assert.deepEqual(
    ds.filter(d => d.code === 'mapping.unknown-code').map(d => d.range.start),
    [{ line: 7, character: 10 }],
  );
});

test('the browser bundle: a quick fix with its exact edit', { skip, timeout: 60_000 }, async () => {
  const ds = await diagnostics(URI, d => d.length > 0);
  const ph = ds.find(d => d.code === 'template.unknown-placeholder')!;
  const r = await request('textDocument/codeAction', {
    textDocument: { uri: URI },
    range: ph.range,
    context: { diagnostics: [ph], only: ['quickfix'] },
  });
  const fix = (r.result as { title: string; edit: { changes: Record<string, { range: Diag['range']; newText: string }[]> } }[]).find(
    a => a.title === "Change to '{repo}'",
  );
  assert.ok(fix, JSON.stringify(r.result?.map((a: { title: string }) => a.title)));
  assert.deepEqual(fix.edit.changes[URI], [
    { range: { start: { line: 3, character: REPOS }, end: { line: 3, character: REPOS + 7 } }, newText: '{repo}' },
  ]);
});

test('the browser bundle: completion after code: offers registry codes', { skip, timeout: 60_000 }, async () => {
  const r = await request('textDocument/completion', { textDocument: { uri: URI }, position: { line: 7, character: 26 } });
  const items = (Array.isArray(r.result) ? r.result : r.result.items) as { label: string }[];
  assert.ok(
    items.some(i => i.label === 'PERMISSION_DENIED'),
    items
      .map(i => i.label)
      .slice(0, 20)
      .join(' '),
  );
});

test('the browser bundle: the workspace index holds the open documents (no file system)', { skip, timeout: 60_000 }, async () => {
  const b = 'vscode-vfs://github/o/r/b.adapter.yaml';
  await open(b, 'error_mapping:\n  404:\n    code: NOT_FOUND_WIDGET\n');
  await diagnostics(b, d => d.some(x => x.code === 'mapping.unknown-code'));
  await open('vscode-vfs://github/o/r/a.adapter.yaml', 'error_codes:\n  NOT_FOUND_WIDGET:\n    category: NOT_FOUND\n');
  assert.deepEqual(await diagnostics(b, d => d.length === 0), []);
  const report = await request('mcpAql/validateWorkspace', null);
  assert.equal(report.result.files, 3, 'the three open adapters');
});
