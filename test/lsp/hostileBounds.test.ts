/**
 * Cases 8–12 of docs/robustness.md ("Hostile repositories, round two") at the LSP boundary: the built server
 * (dist/server.js over stdio) on inputs that blocked or crashed it, each bounded by a generous timeout, and
 * the LSP lifecycle errors.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { MAX_NESTING } from '../../server/src/service';
import { deepAdapter, DEEP_SHAPES, fanOut } from '../service/hostileTexts';
import { overStdio, PLAIN } from './harness';

const summary = (ds: Diagnostic[]) => ds.map(d => [d.code, d.range.start.line, d.range.start.character]);

test('case 8: merge keys that fan out do not block the server', { timeout: 60_000 }, async () => {
  const c = await overStdio(PLAIN);
  const uri = 'file:///ws/fan.adapter.yaml';
  try {
    await c.open(uri, fanOut(40));
    const ds = await c.waitForDiagnostics(uri, d => d.length > 0, 20_000);
    assert.deepEqual(summary(ds), [
      ['template.unused-detail', 1, 75],
      ['yaml.alias-limit', 117, 21],
    ]);
    // And it still answers.
    const symbols = (await c.conn.sendRequest('textDocument/documentSymbol', { textDocument: { uri } })) as unknown[];
    assert.equal(symbols.length > 0, true);
  } finally {
    await c.close();
  }
});

test(
  'case 9: deep nesting — the server checks valid text at the limit, refuses deeper text with one diagnostic, and stays up',
  { timeout: 120_000 },
  async () => {
    const c = await overStdio(PLAIN);
    try {
      for (const shape of DEEP_SHAPES) {
        const ok = deepAdapter(shape, MAX_NESTING);
        const okUri = `file:///ws/ok-${shape}.adapter.${ok.ext}`;
        await c.open(okUri, ok.text, ok.ext);
        const okDs = await c.waitForDiagnostics(okUri, d => d.length > 0, 20_000);
        // The shapes' files declare the same code (code.declared-elsewhere across them is silentSlips.test.ts's).
        assert.deepEqual(
          okDs.map(d => d.code).filter(c => c !== 'code.declared-elsewhere'),
          ['schema.unknown-key'],
          shape,
        );
        const deep = deepAdapter(shape, 1001);
        const uri = `file:///ws/deep-${shape}.adapter.${deep.ext}`;
        await c.open(uri, deep.text, deep.ext);
        const ds = await c.waitForDiagnostics(uri, d => d.length > 0, 20_000);
        const at = deepAdapter(shape, MAX_NESTING + 1).firstPast;
        const lines = deep.text.slice(0, at).split('\n');
        assert.deepEqual(summary(ds), [['file.too-deep', lines.length - 1, lines[lines.length - 1]!.length]], shape);
      }
      assert.equal(c.proc.exitCode, null);
    } finally {
      await c.close();
    }
  },
);
