/** Nothing is written to disk except edits the user applies: the server and the CLI only read. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { main } from '../../server/src/cli/main';
import { inMemory, RICH, ROOT } from './harness';
import { tempDir } from '../tempDirs';

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else out[p] = `${st.mtimeMs}:${createHash('sha256').update(readFileSync(p)).digest('hex')}`;
    }
  };
  walk(dir);
  return out;
}

test('indexing, checking, fixing (without applying) and previewing a workspace writes nothing', { timeout: 60_000 }, async () => {
  const ws = tempDir('mcp-aql-ws-');
  cpSync(join(ROOT, 'examples'), ws, { recursive: true });
  const before = snapshot(ws);
  const c = await inMemory(RICH, {}, [pathToFileURL(ws).href]);
  try {
    const uri = pathToFileURL(join(ws, 'broken', 'broken-adapter.md')).href;
    await c.open(uri, readFileSync(join(ws, 'broken', 'broken-adapter.md'), 'utf8'), 'markdown');
    const { items } = (await c.conn.sendRequest('textDocument/diagnostic', { textDocument: { uri } })) as { items: { range: unknown }[] };
    await c.conn.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: items[0]!.range, context: { diagnostics: items } });
    await c.conn.sendRequest('mcpAql/validateWorkspace');
    await c.conn.sendRequest('mcpAql/simulate', { uri, status: 404 });
  } finally {
    await c.close();
  }
  let out = '';
  await main(['check', '.', '--format', 'sarif'], {
    cwd: ws,
    color: false,
    stdout: s => {
      out += s;
    },
    stderr: () => undefined,
  });
  await main(['preview', 'github-adapter.md'], { cwd: ws, color: false, stdout: () => undefined, stderr: () => undefined });
  assert.ok(out.length > 0);
  assert.deepEqual(snapshot(ws), before);
});
