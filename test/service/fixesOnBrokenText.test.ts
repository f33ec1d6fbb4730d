/**
 * No fix is offered, preferred or applied by Fix all on a range that touches a
 * yaml.syntax, json.syntax or template.malformed-placeholder diagnostic; and the property of every
 * offered fix on every fixture (fixProperty.ts): it adds no syntax error and removes no diagnostic it
 * does not mean to fix.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from 'vscode-languageserver-types';
import { createWorkspaceIndex, type AdapterService } from '../../server/src/service';
import { propertyViolations } from './fixProperty';
import { docOf, newService, ROOT } from './helpers';

/** Folders of fixtures; each is one workspace. */
const FOLDERS = [
  'test/fixtures/adversarial',
  'test/fixtures/corpus',
  'test/fixtures/matrix',
  'test/fixtures',
  'examples',
  'examples/broken',
];
const ADAPTER = /(\.adapter\.(ya?ml|json)|-adapter\.md|adapter-schema\.json|mcp-schema\.json)$/;

/** The fixture folders with their adapter documents, indexed as a workspace each. */
export function fixtureWorkspaces(): { folder: string; service: AdapterService; docs: TextDocument[] }[] {
  return FOLDERS.map(folder => {
    const dir = join(ROOT, folder);
    const docs = readdirSync(dir)
      .filter(f => ADAPTER.test(f))
      .sort()
      .map(f => {
        const lang = f.endsWith('.json') ? 'json' : f.endsWith('.md') ? 'markdown' : 'yaml';
        return TextDocument.create(pathToFileURL(join(dir, f)).href, lang, 1, readFileSync(join(dir, f), 'utf8'));
      });
    const index = createWorkspaceIndex();
    const service = newService(index);
    for (const d of docs) index.update(d.uri, service.declaredCodes(d), service.codeOccurrences(d));
    return { folder, service, docs };
  });
}

test('every fix offered on every fixture adds no syntax error and removes no diagnostic it does not mean to fix', () => {
  const problems: string[] = [];
  let offered = 0;
  for (const { service, docs } of fixtureWorkspaces()) {
    for (const doc of docs) {
      const before = service.validate(doc);
      for (const d of before) {
        for (const a of service.quickFixes(doc, d.range, { diagnostics: [d] })) {
          offered++;
          const fixed = docOf(TextDocument.applyEdits(doc, a.edit?.changes?.[doc.uri] ?? []), doc.uri, 2);
          const after = service.validate(fixed);
          service.forget(doc.uri);
          for (const v of propertyViolations(doc, before, d, a, after)) problems.push(`${doc.uri.replace(/^.*\//, '')}: ${v}`);
        }
      }
    }
  }
  assert.ok(offered > 50, `only ${offered} fixes offered`);
  assert.deepEqual(problems, []);
});

const JSON_ADAPTER = [
  '{',
  '  "name": "airtable",',
  '  "error_codes": {',
  '    "NOT_FOUND_BASE": {',
  '      "category": "NOT_FOUND",',
  '      "message_template": \'Base {base_id} was not found\',',
  '      "details": { "base_id": "string" }',
  '    }',
  '  },',
  '  "error_mapping": { "404": { "code": "NOT_FOUND_BASE", }, },',
  '}',
  '',
].join('\n');

test('a JSON adapter with a single-quoted template: Fix all writes nothing, and the three trailing commas after it stay reported', () => {
  const s = newService();
  const doc = docOf(JSON_ADAPTER, 'file:///w/airtable.adapter.json');
  const ds = s.validate(doc);
  assert.deepEqual(
    ds.map(d => [d.code, d.range.start.line, d.range.start.character, d.range.end.character]),
    [
      ['json.syntax', 5, 26, 56],
      ['json.syntax', 9, 54, 55],
      ['json.syntax', 9, 57, 58],
      ['json.syntax', 9, 60, 61],
    ],
  );
  assert.deepEqual(s.fixAll(doc), []);
});

test('a fix whose diagnostic or edit touches a json.syntax error is not offered (the check of fixes, not of diagnostics)', () => {
  const s = newService();
  const doc = docOf(JSON_ADAPTER, 'file:///w/airtable.adapter.json');
  // What the template check reported before salvaged text went unchecked (checks/salvaged.ts): its quoting fix would write YAML's '' escapes.
  const d: Diagnostic = {
    range: { start: { line: 5, character: 32 }, end: { line: 5, character: 41 } },
    source: 'mcp-aql',
    code: 'template.unquoted-placeholder',
    message: 'x',
    data: { key: 'base_id' },
  };
  assert.deepEqual(s.quickFixes(doc, d.range, { diagnostics: [d] }), []);
  // The same diagnostic in a well-formed copy gets its fix (the filter is about broken text only).
  const ok = docOf(JSON_ADAPTER.replace("'Base {base_id} was not found'", '"Base {base_id} was not found"'), 'file:///w/ok.adapter.json');
  assert.deepEqual(
    s.quickFixes(ok, d.range, { diagnostics: [d] }).map(a => a.edit?.changes?.[ok.uri]),
    [[{ range: d.range, newText: "'{base_id}'" }]],
  );
});

for (const [form, uri, wrap] of [
  ['yaml', 'file:///w/e.adapter.yaml', (t: string) => t],
  ['markdown', 'file:///w/e-adapter.md', (t: string) => `---\n${t}---\n\n# Events\n`],
  ['json', 'file:///w/e.adapter.json', undefined],
] as const) {
  test(`{{event_id}} (${form}): one malformed-placeholder diagnostic over the whole, no quoting fix, Fix all writes nothing`, () => {
    const text = wrap
      ? wrap(
          'name: events\nerror_codes:\n  NOT_FOUND_EVENT:\n    category: NOT_FOUND\n    message_template: "Event {{event_id}} was not found"\n    details:\n      event_id: string\n',
        )
      : '{\n  "name": "events",\n  "error_codes": {\n    "NOT_FOUND_EVENT": {\n      "category": "NOT_FOUND",\n      "message_template": "Event {{event_id}} was not found",\n      "details": { "event_id": "string" }\n    }\n  }\n}\n';
    const s = newService();
    const doc = docOf(text, uri);
    const ds = s.validate(doc);
    const at = text.indexOf('{{event_id}}');
    assert.deepEqual(
      ds.map(d => [d.code, doc.offsetAt(d.range.start), doc.offsetAt(d.range.end), d.message]),
      [['template.malformed-placeholder', at, at + 12, 'Malformed placeholder: double braces: write {event_id}.']],
    );
    assert.deepEqual(s.fixAll(doc), []);
    // The quoting fix the placeholder inside used to get is not offered even when asked for directly.
    const inner = { start: doc.positionAt(at + 1), end: doc.positionAt(at + 11) };
    const d: Diagnostic = {
      range: inner,
      source: 'mcp-aql',
      code: 'template.unquoted-placeholder',
      message: 'x',
      data: { key: 'event_id' },
    };
    assert.deepEqual(s.quickFixes(doc, inner, { diagnostics: [d] }), []);
  });
}
