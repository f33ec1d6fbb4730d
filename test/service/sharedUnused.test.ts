/**
 * An unused details key reached through an alias names the entry that does not use
 * it (the squiggle is on the anchored source, which the entries that do use it share). YAML and
 * Markdown; JSON has no aliases, so its message stays the plain one.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { docOf, newService } from './helpers';

const BODY = [
  'error_codes:',
  '  NOT_FOUND_A:',
  '    category: NOT_FOUND',
  `    message_template: "A '{id}' because '{reason}'"`,
  '    details: &shared',
  '      id: string',
  '      reason: string',
  '  NOT_FOUND_B:',
  '    category: NOT_FOUND',
  `    message_template: "B '{id}'"`,
  '    details: *shared',
  'error_mapping:',
  '  404:',
  '    code: NOT_FOUND_A',
  `    message_template: "Gone: '{id}'"`,
  '    details: *shared',
  '',
].join('\n');

for (const [form, uri, text, shift] of [
  ['yaml', 'file:///w/s.adapter.yaml', BODY, 0],
  ['markdown', 'file:///w/s-adapter.md', `---\n${BODY}---\n\n# S\n`, 1],
] as const) {
  test(`${form}: the unused key of shared details names each entry that does not use it`, () => {
    const doc = docOf(text, uri);
    const ds = newService()
      .validate(doc)
      .filter(d => d.code === 'template.unused-detail');
    assert.deepEqual(
      ds.map(d => [d.range.start.line - shift, doc.getText(d.range), d.message, (d.relatedInformation ?? []).map(r => r.message)]),
      [
        [
          6,
          'reason',
          "Details key 'reason' is never used in the message template of NOT_FOUND_B (these details are shared through an alias).",
          ["Details key 'reason' is never used in the message template of error_mapping 404 (these details are shared through an alias)."],
        ],
      ],
    );
  });
}

test('json: a details key unused in its own (unshared) details keeps the plain message', () => {
  const text = JSON.stringify({
    error_codes: { NOT_FOUND_A: { category: 'NOT_FOUND', message_template: "A '{id}'", details: { id: 'string', reason: 'string' } } },
  });
  const [d] = newService().validate(docOf(text, 'file:///w/s.adapter.json'));
  assert.deepEqual([d?.code, d?.message], ['template.unused-detail', "Details key 'reason' is never used in the message template."]);
});
