/** The server's workspace scan: every file, in slices that leave requests answered meanwhile. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inMemory, PLAIN } from './harness';
import { tempDir } from '../tempDirs';

test('a scan of many files yields to requests, indexes them all, and Validate Workspace sees them all', { timeout: 120_000 }, async () => {
  const dir = tempDir('mcp-aql-scan-');
  const N = 400;
  for (let i = 0; i < N; i++) {
    mkdirSync(join(dir, `p${i % 10}`), { recursive: true });
    writeFileSync(
      join(dir, `p${i % 10}`, `s${i}.adapter.yaml`),
      [
        'error_codes:',
        ...Array.from(
          { length: 12 },
          (_, j) =>
            `  NOT_FOUND_S${i}_E${j}:\n    category: NOT_FOUND\n    message_template: "No '{id}' ${j}"\n    details: { id: string }`,
        ),
        'error_mapping:',
        '  403:',
        '    code: PERMISSION_DENIED',
        '  404:',
        `    code: NOT_FOUND_S${(i + 1) % N}_E0`,
        '',
      ].join('\n'),
    );
  }
  const c = await inMemory(PLAIN, {}, [pathToFileURL(dir).href]);
  try {
    let indexedAt = 0;
    const logs: string[] = [];
    c.conn.onNotification('window/logMessage', (p: { message: string }) => {
      logs.push(p.message);
      if (/indexed \d+ adapter file/.test(p.message)) indexedAt = performance.now();
    });
    const uri = 'file:///elsewhere/open.adapter.yaml';
    await c.open(uri, 'error_mapping:\n  403:\n    code: PERMISSION_DENIED\n');
    const t0 = performance.now();
    const hover = await c.conn.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 2, character: 12 } });
    const answeredAt = performance.now();
    assert.ok(hover, 'hover answered');
    assert.ok(indexedAt === 0 || answeredAt < indexedAt, 'the hover was answered while the scan ran, not after it');
    assert.ok(answeredAt - t0 < 2000, `hover took ${answeredAt - t0} ms during the scan`);
    while (!indexedAt) await new Promise(r => setTimeout(r, 50));
    assert.ok(
      logs.some(m => m.includes(`indexed ${N + 1} adapter file(s), ${N} declaring codes`)),
      logs.join('\n'),
    );
    const report = (await c.conn.sendRequest('mcpAql/validateWorkspace')) as { files: number; problems: unknown[] };
    assert.equal(report.files, N + 1);
    assert.deepEqual(report.problems, []);
  } finally {
    await c.close();
  }
});

test('Validate Workspace reports progress and can be cancelled from it', { timeout: 120_000 }, async () => {
  const dir = tempDir('mcp-aql-validate-');
  const N = 300;
  for (let i = 0; i < N; i++)
    writeFileSync(
      join(dir, `s${i}.adapter.yaml`),
      [
        'error_codes:',
        ...Array.from(
          { length: 12 },
          (_, j) =>
            `  NOT_FOUND_S${i}_E${j}:\n    category: NOT_FOUND\n    message_template: "No '{id}' ${j}"\n    details: { id: string }`,
        ),
        '',
      ].join('\n'),
    );
  const c = await inMemory({ ...PLAIN, window: { workDoneProgress: true } }, {}, [pathToFileURL(dir).href]);
  try {
    let scanned = false;
    c.conn.onNotification('window/logMessage', (p: { message: string }) => {
      if (/indexed \d+ adapter file/.test(p.message)) scanned = true;
    });
    const kinds: string[] = [];
    let validating: string | number | undefined;
    c.conn.onRequest('window/workDoneProgress/create', (p: { token: string | number }) => {
      validating = p.token;
      return null;
    });
    c.conn.onNotification('$/progress', (p: { token: string | number; value: { kind: string; title?: string; cancellable?: boolean } }) => {
      if (p.token !== validating) return;
      kinds.push(p.value.kind);
      if (p.value.kind === 'begin' && p.value.title?.includes('validating')) {
        assert.equal(p.value.cancellable, true);
        void c.conn.sendNotification('window/workDoneProgress/cancel', { token: p.token });
      }
    });
    while (!scanned) await new Promise(r => setTimeout(r, 50));
    const report = (await c.conn.sendRequest('mcpAql/validateWorkspace')) as { files: number; cancelled?: boolean };
    // Cancelled part-way: `files` counts the adapter files validated before the cancel.
    assert.equal(report.cancelled, true);
    assert.ok(report.files > 0 && report.files <= N, String(report.files));
    assert.deepEqual([kinds[0], kinds.at(-1)], ['begin', 'end']);
  } finally {
    await c.close();
  }
});
