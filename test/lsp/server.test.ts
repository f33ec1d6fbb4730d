/** The real server wiring, in memory, on a real adapter file: every feature with exact ranges, edits and items. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type {
  CodeAction,
  CompletionItem,
  Diagnostic,
  DocumentSymbol,
  Hover,
  Location,
  WorkspaceEdit,
} from 'vscode-languageserver-protocol';
import { createAdapterService } from '../../server/src/service';
import { deps, fixture, inMemory, PLAIN, RICH } from './harness';

const URI = 'file:///ws/broken-github-adapter.md';
const text = fixture('broken-github-adapter.md');
const doc = TextDocument.create(URI, 'markdown', 1, text);
const pos = (needle: string, delta = 0) => doc.positionAt(text.indexOf(needle) + delta);
const under = (d: { range: Diagnostic['range'] }) => doc.getText(d.range);

test('pull diagnostics: codes, exact ranges, codeDescription and data for a rich client', async () => {
  const c = await inMemory(RICH);
  try {
    await c.open(URI, text, 'markdown');
    const r = (await c.conn.sendRequest('textDocument/diagnostic', { textDocument: { uri: URI } })) as { items: Diagnostic[] };
    assert.deepEqual(
      r.items.map(d => [d.code, under(d)]),
      [
        ['template.unknown-placeholder', '{repos}'],
        ['template.unused-detail', 'repo'],
        ['mapping.unknown-code', 'PERMISSION_DENIE'],
      ],
    );
    assert.match(r.items[0]!.codeDescription!.href, /\/docs\/rules\.md#template-unknown-placeholder$/);
    assert.ok(r.items[0]!.data);
    const other = (await c.conn.sendRequest('textDocument/diagnostic', { textDocument: { uri: 'file:///ws/notes.yaml' } })) as {
      items: Diagnostic[];
    };
    assert.deepEqual(other.items, []);
  } finally {
    await c.close();
  }
});

test('quick fixes and Fix all through textDocument/codeAction', async () => {
  const c = await inMemory(RICH);
  try {
    await c.open(URI, text, 'markdown');
    const { items } = (await c.conn.sendRequest('textDocument/diagnostic', { textDocument: { uri: URI } })) as { items: Diagnostic[] };
    const d = items[0]!;
    const actions = (await c.conn.sendRequest('textDocument/codeAction', {
      textDocument: { uri: URI },
      range: d.range,
      context: { diagnostics: [d], only: ['quickfix'] },
    })) as CodeAction[];
    const preferred = actions.find(a => a.isPreferred)!;
    assert.equal(preferred.title, "Change to '{repo}'");
    assert.deepEqual(preferred.edit!.changes![URI], [{ range: d.range, newText: '{repo}' }]);
    const all = (await c.conn.sendRequest('textDocument/codeAction', {
      textDocument: { uri: URI },
      range: d.range,
      context: { diagnostics: [], only: ['source.fixAll'] },
    })) as CodeAction[];
    assert.equal(all.length, 1);
    assert.equal(all[0]!.kind, 'source.fixAll.mcp-aql');
    const fixed = TextDocument.applyEdits(doc, all[0]!.edit!.changes![URI]!);
    // Fix all takes the one-candidate placeholder key; the unknown mapping code stays for a person.
    assert.ok(fixed.includes("'{owner}/{repo}'") && fixed.includes('code: PERMISSION_DENIE\n'));
  } finally {
    await c.close();
  }
});

test('completion, hover, definition, references, rename, symbols, CodeLens', async () => {
  const c = await inMemory(RICH);
  try {
    await c.open(URI, text, 'markdown');
    const td = { uri: URI };
    const { items } = (await c.conn.sendRequest('textDocument/completion', {
      textDocument: td,
      position: pos('code: PERMISSION_DENIE', 'code: PERMISSION_'.length),
    })) as { items: CompletionItem[] };
    assert.ok(items.some(i => i.label === 'PERMISSION_DENIED'));
    assert.ok(items.every(i => String(i.label).startsWith('PERMISSION_')));
    const { items: all } = (await c.conn.sendRequest('textDocument/completion', {
      textDocument: td,
      position: pos('code: PERMISSION_DENIE', 'code: '.length),
    })) as { items: CompletionItem[] };
    assert.ok(all.some(i => i.label === 'NOT_FOUND_REPOSITORY' && i.detail === 'NOT_FOUND · custom'));
    const h = (await c.conn.sendRequest('textDocument/hover', {
      textDocument: td,
      position: pos('code: RATE_LIMIT_EXCEEDED', 8),
    })) as Hover;
    assert.equal((h.contents as { kind: string }).kind, 'markdown');
    assert.match((h.contents as { value: string }).value, /RATE_LIMIT_EXCEEDED\*\* — RATE_LIMIT/);
    const defs = (await c.conn.sendRequest('textDocument/definition', {
      textDocument: td,
      position: pos('code: NOT_FOUND_REPOSITORY', 8),
    })) as Location[];
    assert.deepEqual(
      defs.map(l => doc.getText(l.range)),
      ['NOT_FOUND_REPOSITORY'],
    );
    assert.equal(defs[0]!.range.start.line, pos('  NOT_FOUND_REPOSITORY:').line);
    const refs = (await c.conn.sendRequest('textDocument/references', {
      textDocument: td,
      position: pos('code: NOT_FOUND_REPOSITORY', 8),
      context: { includeDeclaration: true },
    })) as Location[];
    assert.equal(refs.length, 2);
    const prep = (await c.conn.sendRequest('textDocument/prepareRename', {
      textDocument: td,
      position: pos('code: NOT_FOUND_REPOSITORY', 8),
    })) as { placeholder: string };
    assert.equal(prep.placeholder, 'NOT_FOUND_REPOSITORY');
    const edit = (await c.conn.sendRequest('textDocument/rename', {
      textDocument: td,
      position: pos('code: NOT_FOUND_REPOSITORY', 8),
      newName: 'NOT_FOUND_REPO',
    })) as WorkspaceEdit;
    assert.equal(edit.changes![URI]!.length, 2);
    const syms = (await c.conn.sendRequest('textDocument/documentSymbol', { textDocument: td })) as DocumentSymbol[];
    assert.deepEqual(
      syms.map(s => s.name),
      ['error_codes', 'error_mapping'],
    );
    assert.deepEqual(
      syms[0]!.children!.map(s => s.name),
      ['RATE_LIMIT_ABUSE_DETECTED', 'NOT_FOUND_REPOSITORY', 'CONFLICT_REPOSITORY_EXISTS'],
    );
    // On the wire, the service's outline exactly.
    const service = createAdapterService(deps());
    assert.deepEqual(syms, JSON.parse(JSON.stringify(service.documentSymbols(TextDocument.create(URI, 'markdown', 1, text)))));
    const lenses = (await c.conn.sendRequest('textDocument/codeLens', { textDocument: td })) as { command: { command: string } }[];
    assert.ok(lenses.length >= 6 && lenses.every(l => l.command.command === 'mcpAql.previewEnvelope'));
    const reg = (await c.conn.sendRequest('mcpAql/registry')) as { codes: unknown[] };
    assert.equal(reg.codes.length, 37);
  } finally {
    await c.close();
  }
});

test('a plain client gets pushed diagnostics without codeDescription, data, markdown or snippets', async () => {
  const c = await inMemory(PLAIN);
  try {
    await c.open(URI, text, 'markdown');
    const ds = await c.waitForDiagnostics(URI, d => d.length > 0);
    assert.deepEqual(
      ds.map(d => d.code),
      ['template.unknown-placeholder', 'template.unused-detail', 'mapping.unknown-code'],
    );
    assert.ok(ds.every(d => d.codeDescription === undefined && d.data === undefined && d.relatedInformation === undefined));
    const h = (await c.conn.sendRequest('textDocument/hover', {
      textDocument: { uri: URI },
      position: pos('code: RATE_LIMIT_EXCEEDED', 8),
    })) as Hover;
    assert.equal(typeof h.contents, 'string');
    // Quick fixes still work: the server recomputes the data the client did not keep.
    const actions = (await c.conn.sendRequest('textDocument/codeAction', {
      textDocument: { uri: URI },
      range: ds[0]!.range,
      context: { diagnostics: [ds[0]] },
    })) as CodeAction[];
    assert.ok(actions.some(a => a.title === "Change to '{repo}'"));
    const { items } = (await c.conn.sendRequest('textDocument/completion', { textDocument: { uri: URI }, position: pos('  401:') })) as {
      items: CompletionItem[];
    };
    assert.ok(items.every(i => i.insertTextFormat !== 2));
    // A non-adapter file still gets an (empty) answer, and closing clears.
    await c.open('file:///ws/notes.yaml', 'name: x\n');
    assert.deepEqual(await c.waitForDiagnostics('file:///ws/notes.yaml'), []);
    await c.conn.sendNotification('textDocument/didClose', { textDocument: { uri: URI } });
    assert.deepEqual(await c.waitForDiagnostics(URI, d => d.length === 0), []);
  } finally {
    await c.close();
  }
});

test('settings per resource: mcpAql.rules changes severities', async () => {
  const c = await inMemory(RICH, { rules: { 'mapping.unknown-code': 'off', 'template.unknown-placeholder': 'warning' } });
  try {
    await c.open(URI, text, 'markdown');
    const r = (await c.conn.sendRequest('textDocument/diagnostic', { textDocument: { uri: URI } })) as { items: Diagnostic[] };
    assert.deepEqual(
      r.items.map(d => [d.code, d.severity]),
      [
        ['template.unknown-placeholder', 2],
        ['template.unused-detail', 4],
      ],
    );
  } finally {
    await c.close();
  }
});

test('edits: a newer version supersedes, and the result matches the new text', async () => {
  const c = await inMemory(PLAIN);
  try {
    await c.open(URI, text, 'markdown');
    await c.waitForDiagnostics(URI, d => d.length === 3);
    const at = pos('{repos}');
    await c.conn.sendNotification('textDocument/didChange', {
      textDocument: { uri: URI, version: 2 },
      contentChanges: [
        { range: { start: { line: at.line, character: at.character + 5 }, end: { line: at.line, character: at.character + 6 } }, text: '' },
      ],
    });
    const ds = await c.waitForDiagnostics(URI, d => d.length === 1);
    assert.deepEqual(
      ds.map(d => d.code),
      ['mapping.unknown-code'],
    );
    assert.equal(c.published.get(URI)!.version, 2);
  } finally {
    await c.close();
  }
});

test('workspace index: a code declared in another open file clears mapping.unknown-code there', { timeout: 20_000 }, async () => {
  const c = await inMemory(PLAIN);
  try {
    const b = 'file:///ws/b.adapter.yaml',
      a = 'file:///ws/a.adapter.yaml';
    await c.open(b, 'error_mapping:\n  404:\n    code: NOT_FOUND_WIDGET\n');
    await c.waitForDiagnostics(b, d => d.some(x => x.code === 'mapping.unknown-code'));
    await c.open(a, 'error_codes:\n  NOT_FOUND_WIDGET:\n    category: NOT_FOUND\n');
    assert.deepEqual(await c.waitForDiagnostics(b, d => d.length === 0), []);
  } finally {
    await c.close();
  }
});

test(
  'workspace index: a change that declares a code re-validates the other files, not the edited one twice',
  { timeout: 20_000 },
  async () => {
    const c = await inMemory(PLAIN);
    try {
      const b = 'file:///ws/b.adapter.yaml',
        a = 'file:///ws/a.adapter.yaml';
      await c.open(b, 'error_mapping:\n  404:\n    code: NOT_FOUND_WIDGET\n');
      await c.waitForDiagnostics(b, d => d.some(x => x.code === 'mapping.unknown-code'));
      await c.open(a, 'error_codes:\n  NOT_FOUND_OTHER:\n    category: NOT_FOUND\n');
      await c.waitForDiagnostics(a);
      await c.conn.sendNotification('textDocument/didChange', {
        textDocument: { uri: a, version: 2 },
        contentChanges: [{ range: { start: { line: 1, character: 12 }, end: { line: 1, character: 17 } }, text: 'WIDGET' }],
      });
      assert.deepEqual(await c.waitForDiagnostics(b, d => d.length === 0), []);
      await new Promise(r => setTimeout(r, 700)); // past the re-index delay and the refresh debounce
      assert.deepEqual(c.publications.filter(p => p.uri === a && p.version === 2).length, 1);
    } finally {
      await c.close();
    }
  },
);

test("workspace index: an opened document's codes count at once, before its own diagnostics", { timeout: 20_000 }, async () => {
  const c = await inMemory(PLAIN);
  try {
    const b = 'file:///ws/b.adapter.yaml',
      a = 'file:///ws/a.adapter.yaml';
    await c.open(a, 'error_codes:\n  NOT_FOUND_WIDGET:\n    category: NOT_FOUND\n');
    await c.open(b, 'error_mapping:\n  404:\n    code: NOT_FOUND_WIDGET\n');
    await c.waitForDiagnostics(b);
    await c.waitForDiagnostics(a);
    assert.deepEqual(
      c.publications.filter(p => p.uri === b).flatMap(p => p.diagnostics.map(d => d.code)),
      [],
    );
  } finally {
    await c.close();
  }
});
