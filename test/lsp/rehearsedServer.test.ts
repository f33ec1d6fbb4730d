/**
 * The keystroke rehearsed after an open, in the server as the editor's client sees it (lsp/diagnostics.ts,
 * lsp/rehearseKeystroke.ts; documents of 1 MiB or more): it publishes nothing, and the keystrokes typed after it get
 * exactly the diagnostics a fresh server gives the same text.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { inMemory, PLAIN } from './harness';
import { REHEARSAL_MIN_LENGTH } from '../../server/src/lsp/rehearseKeystroke';
import { generatedAdapter } from '../service/helpers';

const generate = (n: number): string =>
  generatedAdapter(n, { flawed: true, tail: ['error_mapping:', '  400:', '    code: VALIDATION_E1', '  409:', '    code: NOT_A_CODE'] });

test('after the rehearsed keystroke, what the user types gets what a fresh server says of the same text', async () => {
  let text = generate(8000);
  assert.ok(text.length >= REHEARSAL_MIN_LENGTH, 'large enough to be rehearsed');
  const uri = 'file:///w/rehearsed.adapter.yaml';
  const typed = await inMemory(PLAIN);
  try {
    await typed.open(uri, text);
    await typed.waitForDiagnostics(uri, () => typed.published.get(uri)?.version === 1, 60_000);
    // The rehearsal runs once the first diagnostics are written; a pause lets it finish before typing.
    await new Promise(res => setTimeout(res, 300));
    let version = 1;
    for (const word of ['(entry 0)', '(entry 7000)', 'NOT_A_CODE']) {
      const at = text.indexOf(word) + 1;
      const line = text.slice(0, at).split('\n').length - 1;
      const character = at - text.lastIndexOf('\n', at - 1) - 1;
      text = text.slice(0, at) + 'x' + text.slice(at);
      await typed.conn.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: ++version },
        contentChanges: [{ range: { start: { line, character }, end: { line, character } }, text: 'x' }],
      });
      // One at a time: each takes the keystroke path (one entry re-parsed), as typing does.
      await typed.waitForDiagnostics(uri, () => typed.published.get(uri)?.version === version, 60_000);
    }
    const mine = typed.published.get(uri)!.diagnostics;
    assert.deepEqual(
      typed.publications
        .filter(p => p.uri === uri)
        .map(p => p.version)
        .filter(v => v !== undefined && v < 1),
      [],
      'the rehearsed version is never published',
    );
    const fresh = await inMemory(PLAIN);
    try {
      await fresh.open(uri, text);
      const theirs = await fresh.waitForDiagnostics(uri, () => fresh.published.get(uri)?.version === 1, 60_000);
      assert.ok(theirs.length > 0);
      assert.deepEqual(mine, theirs);
    } finally {
      await fresh.close();
    }
  } finally {
    await typed.close();
  }
});
