/**
 * The server re-indexes an open document each time typing pauses, keeping what did not change
 * (service/workspace/workspaceIndex.ts, bench/NOTES.md "the re-index after a pause"): another open file's
 * cross-file diagnostics (mapping.unknown-code, code.declared-elsewhere, a template's placeholders) are, after every edit, those a fresh
 * service with a fresh index gives — edits typed as small changes that add, rename and remove codes and move lines.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import type { Diagnostic } from 'vscode-languageserver-types';
import { createWorkspaceIndex } from '../../server/src/service';
import { docOf, newService, yamlDoc } from '../service/helpers';
import { inMemory, PLAIN } from './harness';

const A = 'file:///ws/a.adapter.yaml';
const B = 'file:///ws/b.adapter.yaml';
const C = 'file:///ws/c.adapter.yaml';

const A_TEXT = yamlDoc(
  'error_codes:',
  '  A_ONE:',
  '    category: NOT_FOUND',
  `    message_template: "No '{id}'"`,
  '    details: { id: string }',
  '  A_TWO:',
  '    category: CONFLICT',
  'error_mapping:',
  '  500:',
  '    code: A_ONE',
);
const B_TEXT = yamlDoc(
  'error_mapping:',
  '  404:',
  '    code: A_ONE',
  `    message_template: "Gone: '{id}'"`,
  '  409:',
  '    code: A_TWO',
  '  410:',
  '    code: A_NEW',
  '  412:',
  '    code: SHARED_CODE',
);
const C_TEXT = yamlDoc('error_codes:', '  SHARED_CODE:', '    category: NOT_FOUND');

const EDITS: [string, (t: string) => string][] = [
  ['a character typed in a template', t => t.replace("No '{id}'", "No x'{id}'")],
  ['a line added above everything', t => `# moved\n${t}`],
  ['a detail renamed', t => t.replace('details: { id: string }', 'details: { key: string }')],
  ['a code added', t => t.replace('  A_TWO:', '  A_NEW:\n    category: VALIDATION\n  A_TWO:')],
  ['a code renamed', t => t.replace('  A_TWO:', '  A_TWX:')],
  ['the shared code declared here too', t => t.replace('error_mapping:', '  SHARED_CODE:\n    category: NOT_FOUND\nerror_mapping:')],
  ['a code removed', t => t.replace(/ {2}A_ONE:\n(?: {4}.*\n)+/, '')],
  ['lines removed above', t => t.replace('# moved\n', '')],
  ['the rename undone', t => t.replace('  A_TWX:', '  A_TWO:')],
];

/** The change from `before` to `after` as one small edit (the common start and end left alone). */
function changeOf(before: string, after: string) {
  let p = 0;
  while (p < before.length && p < after.length && before[p] === after[p]) p++;
  let s = 0;
  while (s < before.length - p && s < after.length - p && before[before.length - 1 - s] === after[after.length - 1 - s]) s++;
  const at = (o: number) => {
    const lines = before.slice(0, o).split('\n');
    return { line: lines.length - 1, character: lines[lines.length - 1]!.length };
  };
  return { range: { start: at(p), end: at(before.length - s) }, text: after.slice(p, after.length - s) };
}

const shown = (ds: Diagnostic[]) =>
  ds.map(d => ({ code: d.code, message: d.message, range: d.range })).sort((x, y) => String(x.message).localeCompare(String(y.message)));

/** b's diagnostics from a fresh service over a fresh index of the three texts. */
function expected(a: string): ReturnType<typeof shown> {
  const index = createWorkspaceIndex();
  const s = newService(index);
  for (const [uri, t] of [
    [A, a],
    [B, B_TEXT],
    [C, C_TEXT],
  ] as const) {
    const d = docOf(t, uri, 1);
    index.update(uri, s.declaredCodes(d), s.codeOccurrences(d));
  }
  return shown(s.validate(docOf(B_TEXT, B, 1)));
}

test("typing in one open file: another's cross-file diagnostics follow each re-index as a fresh index's", { timeout: 60_000 }, async () => {
  const c = await inMemory(PLAIN);
  try {
    await c.open(C, C_TEXT);
    await c.open(B, B_TEXT);
    await c.open(A, A_TEXT);
    await c.waitForDiagnostics(A);
    let text = A_TEXT,
      version = 1;
    const first = expected(text);
    assert.ok(first.some(d => d.code === 'mapping.unknown-code'));
    await c.waitForDiagnostics(B, d => isDeepStrictEqual(shown(d), first), 5000);
    const codes = new Set<string>();
    for (const [what, edit] of EDITS) {
      const next = edit(text);
      assert.notEqual(next, text, what);
      await c.conn.sendNotification('textDocument/didChange', {
        textDocument: { uri: A, version: ++version },
        contentChanges: [changeOf(text, next)],
      });
      text = next;
      const want = expected(text);
      for (const d of want) codes.add(String(d.code));
      await c.waitForDiagnostics(A, () => c.published.get(A)?.version === version, 5000);
      const got = await c
        .waitForDiagnostics(B, d => isDeepStrictEqual(shown(d), want), 5000)
        .catch(() => shown(c.published.get(B)?.diagnostics ?? []));
      assert.deepEqual(shown(got as Diagnostic[]), want, what);
    }
    // The sequence went through both cross-file rules.
    assert.ok(
      ['mapping.unknown-code', 'code.declared-elsewhere', 'template.unknown-placeholder'].every(x => codes.has(x)),
      [...codes].join(),
    );
  } finally {
    await c.close();
  }
});
