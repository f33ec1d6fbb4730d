/**
 * The adversarial corpus (test/fixtures/adversarial, its README): hand-written adapters for real APIs with
 * marked mistakes. The CLI and the language server must report exactly the marked set on every file
 * (the folder is one workspace), and every quick fix offered must apply and re-check cleanly.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-protocol';
import { run } from '../cli/helpers';
import { inMemory, RICH, ROOT, type Client } from './harness';

const DIR = join(ROOT, 'test', 'fixtures', 'adversarial');
const FILES = readdirSync(DIR)
  .filter(f => /adapter\.(ya?ml|json|md)$|-adapter\.md$/.test(f))
  .sort();
const uriOf = (f: string) => pathToFileURL(join(DIR, f)).href;
const languageOf = (f: string) => (f.endsWith('.md') ? 'markdown' : f.endsWith('.json') ? 'json' : 'yaml');

/** "line: codes" strings (1-based lines), sorted, from the `# expect:` markers or the `.expect.json` sidecar. */
function expected(f: string): string[] {
  const sidecar = join(DIR, `${f}.expect.json`);
  const out: string[] = [];
  if (existsSync(sidecar)) {
    for (const [line, codes] of Object.entries(JSON.parse(readFileSync(sidecar, 'utf8')) as Record<string, string[]>))
      for (const c of codes) out.push(`${line}: ${c}`);
  } else {
    readFileSync(join(DIR, f), 'utf8')
      .split('\n')
      .forEach((t, i) => {
        const m = /# expect: (.*)$/.exec(t);
        if (m) for (const c of m[1]!.split(',')) out.push(`${i + 1}: ${c.trim()}`);
      });
  }
  return out.sort();
}
const found = (ds: readonly { range: Diagnostic['range']; code?: unknown }[]) =>
  ds.map(d => `${d.range.start.line + 1}: ${String(d.code)}`).sort();

async function serverDiagnostics(c: Client, f: string): Promise<Diagnostic[]> {
  const r = (await c.conn.sendRequest('textDocument/diagnostic', { textDocument: { uri: uriOf(f) } })) as { items: Diagnostic[] };
  return r.items;
}

/** The server's answer once the workspace index has settled (the scan runs after initialize). */
async function settled(c: Client, f: string, want: string[]): Promise<Diagnostic[]> {
  let ds: Diagnostic[] = [];
  for (let i = 0; i < 50; i++) {
    ds = await serverDiagnostics(c, f);
    if (JSON.stringify(found(ds)) === JSON.stringify(want)) return ds;
    await new Promise(r => setTimeout(r, 100));
  }
  return ds;
}

test('adversarial corpus: the CLI reports exactly the marked mistakes', async () => {
  const r = await run(['check', DIR, '--format', 'json']);
  const byFile = new Map(
    (JSON.parse(r.out) as { file: string; diagnostics: Diagnostic[] }[]).map(x => [x.file.split('/').pop()!, x.diagnostics]),
  );
  for (const f of FILES) assert.deepEqual(found(byFile.get(f) ?? []), expected(f), f);
});

test(
  'adversarial corpus: the language server reports the same as the CLI, and every quick fix applies and re-checks',
  { timeout: 120_000 },
  async () => {
    const c = await inMemory(RICH, {}, [pathToFileURL(DIR).href]);
    try {
      for (const f of FILES) await c.open(uriOf(f), readFileSync(join(DIR, f), 'utf8'), languageOf(f));
      let version = 1;
      for (const f of FILES) {
        const uri = uriOf(f),
          text = readFileSync(join(DIR, f), 'utf8');
        const ds = await settled(c, f, expected(f));
        assert.deepEqual(found(ds), expected(f), f);
        const doc = TextDocument.create(uri, languageOf(f), 1, text);
        for (const d of ds) {
          const actions = (await c.conn.sendRequest('textDocument/codeAction', {
            textDocument: { uri },
            range: d.range,
            context: { diagnostics: [d], only: ['quickfix'] },
          })) as CodeAction[];
          for (const a of actions) {
            const edits = a.edit?.changes?.[uri] ?? [];
            if (!edits.length) continue;
            const fixed = TextDocument.applyEdits(doc, edits);
            await c.conn.sendNotification('textDocument/didChange', {
              textDocument: { uri, version: ++version },
              contentChanges: [{ text: fixed }],
            });
            const after = await serverDiagnostics(c, f);
            const still = after.some(
              x =>
                x.code === d.code &&
                x.range.start.line === d.range.start.line &&
                x.range.start.character === d.range.start.character &&
                TextDocument.create(uri, 'x', 1, fixed).getText(x.range) === doc.getText(d.range),
            );
            assert.ok(!still, `${f}:${d.range.start.line + 1} ${String(d.code)}: "${a.title}" left the problem in place`);
            await c.conn.sendNotification('textDocument/didChange', {
              textDocument: { uri, version: ++version },
              contentChanges: [{ text }],
            });
          }
        }
      }
    } finally {
      await c.close();
    }
  },
);

test('the broken-text fixtures: the broken one gets only its marked yaml.syntax (one per block), the one of every legitimate form nothing', async () => {
  assert.ok(FILES.includes('linear-broken.adapter.yaml') && FILES.includes('zendesk-forms.adapter.yaml'));
  const r = await run(['check', join(DIR, 'linear-broken.adapter.yaml'), join(DIR, 'zendesk-forms.adapter.yaml'), '--format', 'json']);
  const byFile = new Map(
    (JSON.parse(r.out) as { file: string; diagnostics: Diagnostic[] }[]).map(x => [x.file.split('/').pop()!, x.diagnostics]),
  );
  assert.deepEqual(byFile.get('zendesk-forms.adapter.yaml') ?? [], []);
  const broken = byFile.get('linear-broken.adapter.yaml') ?? [];
  assert.deepEqual(
    broken.map(d => [d.range.start.line + 1, d.code]),
    [6, 9, 15, 29, 48, 56].map(l => [l, 'yaml.syntax']),
  );
});
