/**
 * Big files (docs/performance.md, "Big files"). Read once (the CLI), a YAML region of ONCE_WHOLE_MAX or more is
 * parsed in chunks and keeps no chunk state; what a user sees of it equals the editor's chunked parse. A file over
 * maxFileSize gets exactly one file.too-large at line 0, character 0, whatever its text holds.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createAdapterService, type AdapterService } from '../../server/src/service';
import { buildModel, ONCE_WHOLE_MAX } from '../../server/src/service/parse/buildModel';
import { loadDeps } from './helpers';

/** An adapter of `n` codes, the last with an unknown category and status (two errors), and a short error_mapping. */
function adapter(n: number): string {
  const out = ['name: big', 'type: adapter', 'error_codes:'];
  for (let i = 0; i < n; i++)
    out.push(
      `  VALIDATION_E${String(i).padStart(6, '0')}:`,
      i === n - 1 ? '    category: BOGUS' : '    category: VALIDATION',
      `    message_template: "Request '{resource_id}' failed during '{operation}' (entry ${i})"`,
      i === n - 1 ? '    maps_from_http: [999]' : '    maps_from_http: [422]',
      '    details: { resource_id: string, operation: string }',
    );
  out.push('error_mapping:', '  400:', '    - condition: "response.body.code == \'m\'"', '      code: VALIDATION_E000001');
  return out.join('\n') + '\n';
}

const BIG = adapter(5200);
const URI = 'file:///w/big.adapter.yaml';

function seen(service: AdapterService, text: string): unknown {
  const doc = TextDocument.create(URI, 'yaml', 1, text);
  const diagnostics = service.validate(doc);
  const fixes = diagnostics.map(d => service.quickFixes(doc, d.range, { diagnostics: [d] }));
  service.forget(URI);
  return { diagnostics, fixes };
}

test('a region of ONCE_WHOLE_MAX or more, read once, is parsed in chunks and keeps no chunk state', () => {
  assert.ok(BIG.length > ONCE_WHOLE_MAX, `${BIG.length}`);
  const once = buildModel(URI, BIG, [], { once: true })!;
  const whole = buildModel(URI, BIG, [], { chunkThreshold: Infinity })!;
  assert.equal(once.parseState, undefined);
  assert.equal(once.codes.length, 5200);
  assert.deepEqual(
    once.codes.map(c => [c.name, c.keySpan, c.entrySpan, c.category?.value, c.template?.value, c.template?.span]),
    whole.codes.map(c => [c.name, c.keySpan, c.entrySpan, c.category?.value, c.template?.value, c.template?.span]),
  );
  assert.deepEqual(once.sections[0]!.doc.toJS(), whole.sections[0]!.doc.toJS());
  assert.deepEqual(once.syntaxErrors, whole.syntaxErrors);
});

test('a big file: read once, the diagnostics and quick fixes equal the editor chunked parse (clean and broken)', () => {
  const once = createAdapterService({ ...loadDeps(), once: true });
  const editor = createAdapterService({ ...loadDeps() });
  const clean = seen(once, BIG) as { diagnostics: { code: string; range: unknown }[] };
  assert.deepEqual(
    clean.diagnostics.map(d => [d.code, d.range]),
    [
      ['code.unknown-category', { start: { line: 25999, character: 14 }, end: { line: 25999, character: 19 } }],
      ['http.invalid-status', { start: { line: 26001, character: 21 }, end: { line: 26001, character: 24 } }],
    ],
  );
  assert.deepEqual(clean, seen(editor, BIG));
  const broken = BIG.replace('    category: VALIDATION\n', '    category: [VALIDATION\n');
  assert.deepEqual(seen(once, broken), seen(editor, broken));
});

test('over maxFileSize: one file.too-large at 0:0, the same whatever the text holds (lines, lone CRs)', () => {
  const s = createAdapterService({ ...loadDeps() });
  for (const text of [BIG, BIG.replaceAll('\n', '\r'), 'x'.repeat(2048)]) {
    const doc = TextDocument.create(URI, 'yaml', 1, text);
    assert.deepEqual(s.validate(doc, { maxFileSize: 1024 }), [
      {
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        severity: 2,
        source: 'mcp-aql',
        code: 'file.too-large',
        message: `This file has ${text.length} characters, more than mcpAql.maxFileSize (1024); it is not checked.`,
        codeDescription: { href: 'https://github.com/mcp-aql/mcp-aql-errors/blob/main/docs/rules.md#file-too-large' },
        data: { size: text.length, max: 1024 },
      },
    ]);
    assert.deepEqual(s.documentSymbols(doc, { maxFileSize: 1024 }), []);
    assert.deepEqual(s.codeLenses(doc, { maxFileSize: 1024 }), []);
  }
});
