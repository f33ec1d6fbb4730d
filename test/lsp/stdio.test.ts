/** The built bundle dist/server.js over stdio (volar test-utils style): it starts, answers, and exits. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic, Hover } from 'vscode-languageserver-protocol';
import { fixture, overStdio, PLAIN, ROOT } from './harness';

test('dist/server.js over stdio: diagnostics, hover, and a clean exit', { timeout: 30_000 }, async () => {
  assert.ok(existsSync(join(ROOT, 'dist', 'server.js')), 'run npm run build first (npm test does)');
  const c = await overStdio(PLAIN);
  const uri = 'file:///ws/broken-github-adapter.md';
  try {
    await c.open(uri, fixture('broken-github-adapter.md'), 'markdown');
    const ds: Diagnostic[] = await c.waitForDiagnostics(uri, d => d.length > 0, 20_000);
    assert.deepEqual(
      ds.map(d => d.code),
      ['template.unknown-placeholder', 'template.unused-detail', 'mapping.unknown-code'],
    );
    const h = (await c.conn.sendRequest('textDocument/hover', { textDocument: { uri }, position: ds[2]!.range.start })) as Hover;
    assert.match(String(h.contents), /unknown code/);
    await c.conn.sendRequest('shutdown');
    const exited = new Promise<number | null>(r => c.proc.on('exit', code => r(code)));
    await c.conn.sendNotification('exit');
    assert.equal(await exited, 0);
  } finally {
    c.proc.kill();
  }
});
