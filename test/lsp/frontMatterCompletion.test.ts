/**
 * The server's side of editing front matter: in an adapter's front matter, where nothing of the error contract
 * fits (a free-text value, the Markdown body), the server answers an empty list — never words — so the
 * only thing that can fill the widget there is the editor's word fallback, which the VS Code client stops
 * (client/src/wordFallback.ts). Where something fits, it answers items.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CompletionList } from 'vscode-languageserver-protocol';
import { fixture, inMemory, RICH } from './harness';

const URI = 'file:///ws/broken-github-adapter.md';
const text = fixture('broken-github-adapter.md');
const doc = TextDocument.create(URI, 'markdown', 1, text);
const after = (needle: string) => doc.positionAt(text.indexOf(needle) + needle.length);

test('front matter: an empty list where nothing fits, items where something does', async () => {
  const c = await inMemory(RICH);
  try {
    await c.open(URI, text, 'markdown');
    const complete = (position: { line: number; character: number }) =>
      c.conn.sendRequest('textDocument/completion', { textDocument: { uri: URI }, position }) as Promise<CompletionList>;
    // Inside the description's text, inside the author's name: free text, nothing of the contract.
    for (const needle of ['description: "Adapter for GitHub REST', 'author: "MCP-AQL Spec']) {
      const at = after(needle);
      assert.ok(at.line < text.split('\n').indexOf('---', 1), `${needle} is in the front matter`);
      assert.deepEqual(await complete(at), { isIncomplete: false, items: [] }, needle);
    }
    // The Markdown body after the front matter: not the server's either.
    const body = text.split('\n').findIndex((l, i) => i > 0 && l === '---') + 2;
    assert.deepEqual(await complete({ line: body, character: 0 }), { isIncomplete: false, items: [] });
    // Where the contract has an answer, it answers.
    const codes = await complete(after('code: PERMISSION_'));
    assert.ok(codes.items.some(i => i.label === 'PERMISSION_DENIED'));
  } finally {
    await c.close();
  }
});
