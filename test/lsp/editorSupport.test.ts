/**
 * Editor support (server/src/lsp/editorSupport.ts): mcpAql/isAdapter, the CodeLens setting, a change
 * of mcpAql.files taking effect without a restart, and Validate Workspace counting adapter files only,
 * as the log does.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CodeLens, Diagnostic } from 'vscode-languageserver-protocol';
import { IsAdapter, ValidateWorkspace, type WorkspaceReport } from '../../server/src/protocol';
import { inMemory, PLAIN, RICH } from './harness';
import { tempDir } from '../tempDirs';

const ADAPTER =
  'error_codes:\n  NOT_FOUND_WIDGET:\n    category: NOT_FOUND\n    message_template: "Widget \'{id}\' not found"\n    details: { id: string }\n';

test('mcpAql/isAdapter: named and sniffed adapters are; other open files and unopened files are not', async () => {
  const c = await inMemory(PLAIN);
  try {
    await c.open('file:///ws/a.adapter.yaml', ADAPTER);
    await c.open('file:///ws/sniffed.yml', ADAPTER);
    await c.open('file:///ws/notes.yaml', 'name: x\n');
    await c.open('file:///ws/readme.md', '# hi\n', 'markdown');
    const ask = (uri: string) => c.conn.sendRequest(IsAdapter.type, { uri });
    assert.deepEqual(
      await Promise.all(
        ['a.adapter.yaml', 'sniffed.yml', 'notes.yaml', 'readme.md', 'never-opened.adapter.yaml'].map(n => ask(`file:///ws/${n}`)),
      ),
      [true, true, false, false, false],
    );
  } finally {
    await c.close();
  }
});

test('mcpAql.codeLens.enabled: false answers no CodeLens; the default answers them', async () => {
  const settings: Record<string, unknown> = {};
  const c = await inMemory(RICH, settings);
  try {
    const uri = 'file:///ws/a.adapter.yaml';
    await c.open(uri, ADAPTER);
    const lenses = () => c.conn.sendRequest('textDocument/codeLens', { textDocument: { uri } }) as Promise<CodeLens[]>;
    const on = await lenses();
    assert.ok(on.length > 0);
    assert.equal(on[0]!.range.start.line, 1);
    settings.codeLens = { enabled: false };
    await c.conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
    assert.deepEqual(await lenses(), []);
  } finally {
    await c.close();
  }
});

test(
  'a new mcpAql.files glob takes effect without a restart: the workspace is re-scanned and other files re-checked',
  { timeout: 20_000 },
  async () => {
    const dir = tempDir('mcp-aql-files-');
    try {
      mkdirSync(join(dir, 'docs'));
      writeFileSync(join(dir, 'docs', 'errors.md'), `---\n${ADAPTER}---\n# Errors\n`);
      const folder = pathToFileURL(dir).href;
      const c = await inMemory(PLAIN, {}, [folder]);
      try {
        const b = `${folder}/b.adapter.yaml`;
        await c.open(b, 'error_mapping:\n  404:\n    code: NOT_FOUND_WIDGET\n');
        const before = await c.waitForDiagnostics(b, d => d.length > 0);
        assert.deepEqual(
          before.map((d: Diagnostic) => d.code),
          ['mapping.unknown-code'],
        );
        // An open document the glob will name: not an adapter yet (its model is cached as such).
        const open = `${folder}/docs/open-errors.md`;
        await c.open(open, '---\nerror_mapping:\n  404:\n    code: NOT_FOUND_OPEN\n---\n', 'markdown');
        assert.deepEqual(await c.waitForDiagnostics(open), []);
        await c.conn.sendNotification('workspace/didChangeConfiguration', {
          settings: { mcpAql: { files: ['**/docs/errors.md', '**/docs/open-errors.md'] } },
        });
        assert.deepEqual(await c.waitForDiagnostics(b, d => d.length === 0), []);
        assert.deepEqual(
          (await c.waitForDiagnostics(open, d => d.length > 0)).map(d => d.code),
          ['mapping.unknown-code'],
        );
        // And back: removing the glob drops the file from the index again.
        await c.conn.sendNotification('workspace/didChangeConfiguration', { settings: { mcpAql: { files: [] } } });
        assert.deepEqual(
          (await c.waitForDiagnostics(b, d => d.length > 0)).map(d => d.code),
          ['mapping.unknown-code'],
        );
      } finally {
        await c.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  'Validate Workspace counts adapter files only (an open non-adapter file is not one), as the log does',
  { timeout: 20_000 },
  async () => {
    const dir = tempDir('mcp-aql-count-');
    try {
      writeFileSync(join(dir, 'a.adapter.yaml'), ADAPTER);
      writeFileSync(join(dir, 'shop-adapter.md'), `---\nerror_mapping:\n  404:\n    code: NOT_FOUND_NOPE\n---\n`);
      writeFileSync(join(dir, 'package.json'), '{"name": "x"}\n');
      const folder = pathToFileURL(dir).href;
      const c = await inMemory(PLAIN, {}, [folder]);
      const logs: string[] = [];
      c.conn.onNotification('window/logMessage', (m: { message: string }) => {
        logs.push(m.message);
      });
      try {
        await c.open(`${folder}/package.json`, '{"name": "x"}\n', 'json');
        await c.open('untitled:notes', 'name: x\n');
        // A change that re-scans (the size limit decides which files are read); the same settings again would not.
        await c.conn.sendNotification('workspace/didChangeConfiguration', { settings: { mcpAql: { maxFileSize: 1 << 20 } } });
        const report: WorkspaceReport = await c.conn.sendRequest(ValidateWorkspace.type);
        assert.equal(report.files, 2);
        assert.deepEqual(
          report.problems.map(p => [p.uri.slice(folder.length), p.diagnostics.map(d => d.code)]),
          [['/shop-adapter.md', ['mapping.unknown-code']]],
        );
        const line = await (async () => {
          for (let i = 0; i < 100 && !logs.some(l => l.includes('re-scanned')); i++) await new Promise(r => setTimeout(r, 20));
          return logs.find(l => l.includes('re-scanned'));
        })();
        assert.match(line ?? '', /re-scanned, 2 adapter file\(s\)/);
      } finally {
        await c.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
