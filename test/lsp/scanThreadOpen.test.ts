/**
 * The workspace scan's thread and a file opened while the thread reads it (lsp/workspaceIndexer.ts, `opened`):
 * that read is thrown away and the thread ended at once, so its heap is not held while the opened document's
 * model is built; the scan goes on with a new thread for its next large file, and nothing counts as a failure.
 * The thread is a stand-in that reads the entries with the service, as node/indexThread.ts does.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { IndexThread } from '../../server/src/node/indexThread';
import { WorkspaceIndexer } from '../../server/src/lsp/workspaceIndexer';
import { createAdapterService, createWorkspaceIndex, type IndexEntries, type ServiceOptions } from '../../server/src/service';
import { deps } from './harness';
import { tempDir } from '../tempDirs';

/** An adapter of 64 KiB or more (the scan reads such files in its thread) declaring `code`. */
const big = (code: string) =>
  [
    'error_codes:',
    `  ${code}:`,
    '    category: NOT_FOUND',
    "    message_template: 'Not found'",
    ...Array(4000).fill('# padding to 64 KiB'),
    '',
  ].join('\n');

test('a file opened while the scan thread reads it ends that thread; the next file gets a new one', async () => {
  const dir = tempDir('mcp-aql-scan-open-');
  writeFileSync(join(dir, 'a.adapter.yaml'), big('NOT_FOUND_A'));
  writeFileSync(join(dir, 'b.adapter.yaml'), big('NOT_FOUND_B'));
  const aUri = pathToFileURL(join(dir, 'a.adapter.yaml')).href;
  const bUri = pathToFileURL(join(dir, 'b.adapter.yaml')).href;
  const service = createAdapterService(deps());
  const index = createWorkspaceIndex();
  const logs: string[] = [];
  const threads: { closed: boolean; read: string[] }[] = [];
  const start = (): IndexThread => {
    const t = { closed: false, read: [] as string[] };
    threads.push(t);
    const pending: ((e: Error) => void)[] = [];
    return {
      entries(uri: string, text: string, opts: ServiceOptions): Promise<IndexEntries | undefined> {
        t.read.push(uri);
        if (t.closed) return Promise.reject(new Error('closed'));
        // The editor opens a.adapter.yaml while the thread reads it: the read never answers by itself.
        if (uri === aUri) {
          setImmediate(() => indexer.opened(aUri));
          return new Promise((_, reject) => pending.push(reject));
        }
        return Promise.resolve(service.indexEntries(TextDocument.create(uri, 'yaml', 0, text), opts, { model: false }));
      },
      close() {
        t.closed = true;
        for (const r of pending.splice(0)) r(new Error(`the scan's thread was closed`));
      },
    } as unknown as IndexThread;
  };
  const indexer = new WorkspaceIndexer(service, index, m => logs.push(m), start);
  await indexer.scan([pathToFileURL(dir).href], {});
  assert.equal(threads.length, 2, 'a new thread for the file after the opened one');
  assert.deepEqual(threads[0], { closed: true, read: [aUri] });
  assert.deepEqual(threads[1], { closed: true, read: [bUri] });
  assert.deepEqual(
    logs.filter(m => /failed/.test(m)),
    [],
  );
  assert.deepEqual(
    index.declaredIn(aUri).map(d => d.code),
    [],
    "the opened file's read is not filed (its live text is indexed instead)",
  );
  assert.deepEqual(
    index.declaredIn(bUri).map(d => d.code),
    ['NOT_FOUND_B'],
  );
  assert.ok(indexer.isOpen(aUri));
});
