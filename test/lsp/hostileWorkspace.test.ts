/**
 * A hostile workspace folder opened in the built server: an invalid glob in
 * mcpAql.files, link loops, links leading outside the folder, a FIFO, a file deleted under the server.
 * Over stdio, so a hang is a timeout and a crash is a dead process, not a stuck test run.
 */
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CompletionItem, ShowMessageParams } from 'vscode-languageserver-protocol';
import { tempTree } from '../cli/helpers';
import { overStdio, PLAIN } from './harness';

const within = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([p, new Promise<T>((_, rej) => setTimeout(() => rej(new Error(`${what}: no answer within ${ms} ms`)), ms))]);
const declares = (code: string) => `error_codes:\n  ${code}:\n    category: VALIDATION\n`;
const canFifo = process.platform !== 'win32' && spawnSync('mkfifo', ['--version']).status === 0;
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

test(
  'a hostile folder: bad glob warned, loops scanned once, links out not read, FIFO skipped, deleted file survived',
  { timeout: 90_000 },
  async () => {
    const outside = tempTree({
      'secret.adapter.yaml': declares('VALIDATION_ZZ_SECRET'),
      'dir/x.adapter.yaml': declares('VALIDATION_ZZ_OUTSIDE'),
    });
    const ws = tempTree({
      'a.adapter.yaml': declares('VALIDATION_ZZ_LOCAL'),
      'sub/b.adapter.yaml': declares('VALIDATION_ZZ_SUB'),
      'custom/notes.md': '---\n' + declares('VALIDATION_ZZ_CUSTOM') + '---\n# by glob only\n',
      // A backtracking matcher spends seconds per file on this name with the glob below.
      [`${'a'.repeat(44)}.yaml`]: 'plain: 1\n',
    });
    dirs.push(outside, ws);
    symlinkSync('.', join(ws, 'self'));
    for (const n of ['up1', 'up2', 'up3']) symlinkSync('..', join(ws, 'sub', n));
    symlinkSync(join(outside, 'secret.adapter.yaml'), join(ws, 'leak.adapter.yaml'));
    symlinkSync(join(outside, 'dir'), join(ws, 'leakdir'));
    if (canFifo) assert.equal(spawnSync('mkfifo', [join(ws, 'pipe.adapter.yaml')]).status, 0);
    const uri = (p: string) => pathToFileURL(join(ws, p)).href;

    const c = await overStdio(
      { ...PLAIN, workspace: { configuration: true } },
      { files: ['[z-a]', 'custom/*.md', '{unclosed', '*a*a*a*a*a*a*a*a*a*a*c'] },
      [pathToFileURL(ws).href],
    );
    const shown: ShowMessageParams[] = [];
    c.conn.onNotification('window/showMessage', (p: ShowMessageParams) => {
      shown.push(p);
    });
    try {
      const open = uri('open.adapter.yaml');
      await c.open(open, 'error_mapping:\n  404:\n    code: \n');
      const codes = async () => {
        const r = await within(
          c.conn.sendRequest('textDocument/completion', { textDocument: { uri: open }, position: { line: 2, character: 10 } }) as Promise<
            { items: CompletionItem[] } | CompletionItem[]
          >,
          2000,
          'completion',
        );
        return (Array.isArray(r) ? r : r.items)
          .map(i => i.label)
          .filter(l => l.startsWith('VALIDATION_ZZ_'))
          .sort();
      };
      // The scan runs after `initialized`; wait for it (a hang or a crash would never get here).
      const deadline = Date.now() + 10_000;
      while (!(await codes()).includes('VALIDATION_ZZ_LOCAL') && Date.now() < deadline) await new Promise(r => setTimeout(r, 100));
      assert.deepEqual(
        await codes(),
        ['VALIDATION_ZZ_CUSTOM', 'VALIDATION_ZZ_LOCAL', 'VALIDATION_ZZ_SUB'],
        'no code from outside the folder',
      );

      // Invalid globs: one warning each, the server keeps running and the valid glob still applies.
      await c.conn.sendNotification('workspace/didChangeConfiguration', { settings: {} });
      const until = Date.now() + 5000;
      while (shown.length < 2 && Date.now() < until) await new Promise(r => setTimeout(r, 50));
      assert.deepEqual([...new Set(shown.map(s => `${s.type} ${s.message}`))].sort(), [
        "2 mcpAql.files: invalid glob '[z-a]': range 'z-a' at column 2 is out of order; it is ignored.",
        "2 mcpAql.files: invalid glob '{unclosed': '{' at column 1 is never closed; it is ignored.",
      ]);

      // Watched-file events for the link leading out and for the FIFO: not read, no hang.
      await c.conn.sendNotification('workspace/didChangeWatchedFiles', {
        changes: [
          { uri: uri('leak.adapter.yaml'), type: 2 },
          { uri: uri('leakdir/x.adapter.yaml'), type: 1 },
          { uri: uri('pipe.adapter.yaml'), type: 2 },
        ],
      });
      assert.deepEqual(await codes(), ['VALIDATION_ZZ_CUSTOM', 'VALIDATION_ZZ_LOCAL', 'VALIDATION_ZZ_SUB']);

      // A file deleted without an event: validateWorkspace skips it and answers.
      unlinkSync(join(ws, 'sub', 'b.adapter.yaml'));
      const v = await within(
        c.conn.sendRequest('mcpAql/validateWorkspace') as Promise<{ files: number; problems: { uri: string }[] }>,
        5000,
        'validateWorkspace',
      );
      assert.ok(
        v.problems.every(p => !p.uri.includes('b.adapter.yaml') && !p.uri.includes('leak') && !p.uri.includes('pipe')),
        JSON.stringify(v.problems),
      );
      assert.equal(c.proc.exitCode, null, 'server alive');
    } finally {
      await c.close();
    }
  },
);
