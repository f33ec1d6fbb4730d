/**
 * Settings changes compared by value (server/src/lsp/settings.ts): the settings a client pushes as it starts, the
 * same it gave in `initialize`, neither re-scan the workspace nor ask for any file's settings again; a new
 * mcpAql.files glob re-scans; a new rule level only re-checks; settings taken from `initialize` that a file's own
 * answer contradicts are redone; in several folders a push without news still asks each folder again.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter, type Diagnostic } from 'vscode-languageserver-protocol/node';
import { startServer } from '../../server/src/lsp/startServer';
import { settingsChange } from '../../server/src/lsp/settings';
import { DEFAULT_SETTINGS, normalizeSettings } from '../../server/src/settingsSchema';
import { deps, RICH } from './harness';
import { tempDir } from '../tempDirs';

const DECLARES = 'error_codes:\n  NOT_FOUND_WIDGET:\n    category: NOT_FOUND\n    message_template: "Widget not found"\n';
const MAPS = 'error_mapping:\n  404:\n    code: NOT_FOUND_WIDGET\n';

/** A check that, from now on, the server asks no settings, refreshes nothing and logs no settings change. */
function quiet(c: Awaited<ReturnType<typeof start>>): () => void {
  const asked = c.asked.length;
  const refreshes = c.refreshes();
  return () => {
    assert.equal(c.asked.length, asked, `asked again: ${c.asked.slice(asked).join(', ')}`);
    assert.equal(c.refreshes(), refreshes);
    assert.deepEqual(
      c.logs.filter(l => l.includes('settings changed')),
      [],
    );
  };
}
test('settingsChange: globs and the size limit re-scan, rules and scope re-check, key order is no change', () => {
  const s = (raw: unknown) => normalizeSettings(raw);
  assert.equal(settingsChange(DEFAULT_SETTINGS, s({})), 'none');
  assert.equal(settingsChange(s({ rules: { a: 'off', b: 'hint' } }), s({ rules: { b: 'hint', a: 'off' } })), 'none');
  assert.equal(settingsChange(DEFAULT_SETTINGS, s({ files: ['**/x.md'] })), 'scan');
  assert.equal(settingsChange(DEFAULT_SETTINGS, s({ responseFiles: ['**/r.json'] })), 'scan');
  assert.equal(settingsChange(DEFAULT_SETTINGS, s({ maxFileSize: 2048 })), 'scan');
  assert.equal(settingsChange(DEFAULT_SETTINGS, s({ rules: { 'mapping.unknown-code': 'off' } })), 'check');
  assert.equal(settingsChange(DEFAULT_SETTINGS, s({ codeScope: 'file' })), 'check');
  assert.equal(settingsChange(DEFAULT_SETTINGS, s({ codeLens: { enabled: false } })), 'check');
  assert.equal(settingsChange(s({ rules: { x: 'off' } }), s({ files: ['a'], rules: {} })), 'scan');
});

/** A pulling client (RICH) that gives `init` in `initialize` and answers workspace/configuration with `answer(scopeUri)`. */
async function start(folders: string[], answer: (scopeUri: string) => unknown, init?: unknown) {
  const up = new PassThrough(),
    down = new PassThrough();
  const serverConn = createConnection(ProposedFeatures.all, new StreamMessageReader(up), new StreamMessageWriter(down));
  startServer(serverConn, deps());
  const conn = createProtocolConnection(new StreamMessageReader(down), new StreamMessageWriter(up));
  const asked: string[] = [];
  const logs: string[] = [];
  let refreshes = 0;
  conn.onRequest('workspace/configuration', (p: { items: { scopeUri?: string }[] }) =>
    p.items.map(i => {
      asked.push(i.scopeUri ?? '');
      return answer(i.scopeUri ?? '');
    }),
  );
  conn.onRequest('client/registerCapability', () => null);
  conn.onRequest('window/workDoneProgress/create', () => null);
  conn.onRequest('workspace/diagnostic/refresh', () => {
    refreshes++;
    return null;
  });
  conn.onNotification('window/logMessage', (m: { message: string }) => {
    logs.push(m.message);
  });
  conn.listen();
  await conn.sendRequest('initialize', {
    processId: null,
    rootUri: null,
    capabilities: RICH,
    workspaceFolders: folders.map((f, i) => ({ uri: f, name: `ws${i}` })),
    ...(init === undefined ? {} : { initializationOptions: { settings: init } }),
  });
  await conn.sendNotification('initialized', {});
  const until = async (what: string, pred: () => boolean | Promise<boolean>, ms = 10_000) => {
    const end = Date.now() + ms;
    while (!(await pred())) {
      if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms; log:\n${logs.join('\n')}`);
      await new Promise(r => setTimeout(r, 20));
    }
  };
  return {
    conn,
    asked,
    logs,
    refreshes: () => refreshes,
    until,
    open: (uri: string, text: string) =>
      conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } }),
    pull: async (uri: string) =>
      ((await conn.sendRequest('textDocument/diagnostic', { textDocument: { uri } })) as { items: Diagnostic[] }).items.map(d => d.code),
    /** Wait until the first scan is done, as its log line says. */
    scanned: () => until('the first scan', () => logs.some(l => l.includes('indexed '))),
    /** A few turns for a notification's work to show (or not). */
    settle: () => new Promise(r => setTimeout(r, 400)),
    close: async () => {
      await Promise.race([conn.sendRequest('shutdown').catch(() => undefined), new Promise(r => setTimeout(r, 2000))]);
      conn.dispose();
      serverConn.dispose();
      up.destroy();
      down.destroy();
    },
  };
}

function workspace(files: Record<string, string>): { dir: string; folder: string } {
  const dir = tempDir('mcp-aql-settings-');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return { dir, folder: pathToFileURL(dir).href };
}

test('the same settings pushed as the client starts (as given in initialize): no re-scan, no re-check, no question', async () => {
  const { dir, folder } = workspace({ 'a.adapter.yaml': DECLARES });
  const settings = { files: ['**/extra/*.md'], rules: { 'template.unquoted-placeholder': 'off', 'yaml.syntax': 'warning' } };
  const c = await start([folder], () => settings, settings);
  try {
    const b = `${folder}/b.adapter.yaml`;
    await c.open(b, MAPS);
    await c.scanned();
    await c.settle(); // the scan's own refresh, once it is done
    assert.deepEqual(await c.pull(b), []);
    const nothingSince = quiet(c);
    // What vscode-languageclient sends after `initialized`: the whole section, in its own key order.
    await c.conn.sendNotification('workspace/didChangeConfiguration', {
      settings: {
        mcpAql: {
          rules: { 'yaml.syntax': 'warning', 'template.unquoted-placeholder': 'off' },
          files: ['**/extra/*.md'],
          codeLens: { enabled: true },
          maxFileSize: DEFAULT_SETTINGS.maxFileSize,
        },
      },
    });
    await c.settle();
    assert.deepEqual(await c.pull(b), []);
    nothingSince();
  } finally {
    await c.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a client that gives no settings in initialize: its first push, equal to its answers, asks and re-scans nothing', async () => {
  const { dir, folder } = workspace({ 'a.adapter.yaml': DECLARES });
  const settings = { rules: { 'yaml.syntax': 'warning' } };
  const c = await start([folder], () => settings);
  try {
    const b = `${folder}/b.adapter.yaml`;
    await c.open(b, MAPS);
    await c.scanned();
    await c.settle();
    assert.deepEqual(await c.pull(b), []);
    const nothingSince = quiet(c);
    await c.conn.sendNotification('workspace/didChangeConfiguration', { settings: { mcpAql: settings } });
    await c.settle();
    assert.deepEqual(await c.pull(b), []);
    nothingSince();
  } finally {
    await c.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test(
  'a new mcpAql.files glob pushed re-scans the workspace and re-checks; a new rule level only re-checks',
  { timeout: 20_000 },
  async () => {
    const { dir, folder } = workspace({ 'docs/errors.md': `---\n${DECLARES}---\n# Errors\n` });
    const settings: Record<string, unknown> = {};
    const c = await start([folder], () => settings, {});
    try {
      const b = `${folder}/b.adapter.yaml`;
      await c.open(b, MAPS);
      await c.scanned();
      assert.deepEqual(await c.pull(b), ['mapping.unknown-code']);
      settings.files = ['**/docs/errors.md'];
      await c.conn.sendNotification('workspace/didChangeConfiguration', { settings: { mcpAql: settings } });
      await c.until('the re-scan', () => c.logs.some(l => /settings changed: workspace index re-scanned, 2 adapter file/.test(l)));
      await c.until('a refresh', () => c.refreshes() > 0);
      assert.deepEqual(await c.pull(b), []);

      const refreshes = c.refreshes();
      settings.files = [];
      settings.rules = { 'mapping.unknown-code': 'hint' };
      await c.conn.sendNotification('workspace/didChangeConfiguration', { settings: { mcpAql: settings } });
      await c.until('the re-scan', () => c.logs.filter(l => l.includes('re-scanned')).length === 2);
      await c.until('a refresh', () => c.refreshes() > refreshes);
      const after = c.refreshes();
      settings.rules = { 'mapping.unknown-code': 'off' };
      await c.conn.sendNotification('workspace/didChangeConfiguration', { settings: { mcpAql: settings } });
      await c.until('the re-check', () => c.logs.some(l => l.includes('settings changed: open files re-checked')));
      await c.until('a refresh', () => c.refreshes() > after);
      assert.deepEqual(await c.pull(b), []);
      assert.equal(c.logs.filter(l => l.includes('re-scanned')).length, 2, 'a rule level re-scans nothing');
    } finally {
      await c.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test("settings from initialize that a file's own answer contradicts: the file is re-checked with its own", async () => {
  // No folder: nothing is held back for a scan, the unknown code shows at once.
  const c = await start([], () => ({}), { rules: { 'mapping.unknown-code': 'off' } });
  try {
    const b = 'file:///nowhere/b.adapter.yaml';
    await c.open(b, MAPS);
    await c.until('the answer', () => c.asked.includes(b));
    await c.until('a refresh', () => c.refreshes() > 0);
    assert.ok(c.logs.some(l => l.includes(`the settings of ${b} differ from the window's: re-checking`)));
    assert.deepEqual(await c.pull(b), ['mapping.unknown-code']);
  } finally {
    await c.close();
  }
});

test('several folders: a push without news asks each folder again, and a folder whose settings changed is re-checked', async () => {
  const one = workspace({ 'a.adapter.yaml': DECLARES });
  const two = workspace({});
  const byFolder: Record<string, unknown> = { [one.folder]: {}, [two.folder]: {} };
  const c = await start([one.folder, two.folder], uri => byFolder[Object.keys(byFolder).find(f => uri.startsWith(f)) ?? ''] ?? {}, {});
  try {
    const b = `${two.folder}/b.adapter.yaml`;
    await c.open(b, MAPS.replace('NOT_FOUND_WIDGET', 'NOT_FOUND_NOWHERE'));
    await c.scanned();
    assert.deepEqual(await c.pull(b), ['mapping.unknown-code']);
    const asked = c.asked.length;
    await c.conn.sendNotification('workspace/didChangeConfiguration', { settings: { mcpAql: {} } });
    await c.settle();
    assert.ok(c.asked.length > asked, 'asked again');
    assert.deepEqual(
      c.logs.filter(l => l.includes('settings changed')),
      [],
    );
    // A folder's own settings changed: the window's, pushed, did not.
    byFolder[two.folder] = { rules: { 'mapping.unknown-code': 'off' } };
    await c.conn.sendNotification('workspace/didChangeConfiguration', { settings: { mcpAql: {} } });
    await c.until('the re-check', () => c.logs.some(l => l.includes('settings changed: open files re-checked')));
    assert.deepEqual(await c.pull(b), []);
  } finally {
    await c.close();
    rmSync(one.dir, { recursive: true, force: true });
    rmSync(two.dir, { recursive: true, force: true });
  }
});

test("several folders: settings from initialize are not assumed for a file (its folder's own may differ), it waits for its answer", async () => {
  const one = workspace({});
  const two = workspace({});
  const c = await start([one.folder, two.folder], () => ({}), { rules: { 'mapping.unknown-code': 'off' } });
  try {
    const b = `${two.folder}/b.adapter.yaml`;
    await c.open(b, MAPS.replace('NOT_FOUND_WIDGET', 'NOT_FOUND_NOWHERE'));
    await c.scanned();
    assert.deepEqual(await c.pull(b), ['mapping.unknown-code']);
    assert.deepEqual(
      c.logs.filter(l => l.includes("differ from the window's")),
      [],
    );
  } finally {
    await c.close();
    rmSync(one.dir, { recursive: true, force: true });
    rmSync(two.dir, { recursive: true, force: true });
  }
});
