/**
 * Details keys no placeholder can name are reported and never
 * inserted; `{ticket}` with the one unused key `ticket_id` is changed to it (preferred, Fix all); a
 * code renamed for its format gets its category's prefix. In all three forms.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic } from 'vscode-languageserver-types';
import { applyEdits, docOf, editsOf, fixesOf, newService } from './helpers';

const BODY = [
  'name: tracker',
  'error_codes:',
  '  CONFLICT_TICKET_HELD:',
  '    category: CONFLICT',
  `    message_template: "Ticket '{ticket}' is locked by '{owner}'"`,
  '    details:',
  '      ticket_id: string',
  '      owner: string',
  '  ticketLocked:',
  '    category: CONFLICT',
  '    message_template: "Locked"',
  '  RATE_LIMIT_SLOW_DOWN:',
  '    category: RATE_LIMIT',
  '    message_template: "Slow down"',
  '    details:',
  '      durée_minutes: integer',
  '      retry-after: integer',
  '      note: { type: string, required: false }',
  '',
].join('\n');

const JSON_BODY =
  JSON.stringify(
    {
      name: 'tracker',
      error_codes: {
        CONFLICT_TICKET_HELD: {
          category: 'CONFLICT',
          message_template: "Ticket '{ticket}' is locked by '{owner}'",
          details: { ticket_id: 'string', owner: 'string' },
        },
        ticketLocked: { category: 'CONFLICT', message_template: 'Locked' },
        RATE_LIMIT_SLOW_DOWN: {
          category: 'RATE_LIMIT',
          message_template: 'Slow down',
          details: { durée_minutes: 'integer', 'retry-after': 'integer', note: { type: 'string', required: false } },
        },
      },
    },
    null,
    2,
  ) + '\n';

const FORMS = [
  ['yaml', 'file:///w/tracker.adapter.yaml', BODY],
  ['markdown', 'file:///w/tracker-adapter.md', `---\n${BODY}---\n\n# Tracker\n`],
  ['json', 'file:///w/tracker.adapter.json', JSON_BODY],
] as const;

const q = (form: string, k: string) => (form === 'json' ? `"${k}"` : k);

for (const [form, uri, text] of FORMS) {
  const s = newService();
  const doc = docOf(text, uri);
  const ds = s.validate(doc);
  const at = (needle: string, from = 0) => {
    const i = text.indexOf(needle, from);
    assert.ok(i >= 0, needle);
    return [i, i + needle.length];
  };
  const span = (d: Diagnostic) => [doc.offsetAt(d.range.start), doc.offsetAt(d.range.end)];

  test(`${form}: durée_minutes and retry-after are template.invalid-detail-name (not unused-detail); no "Use in template"; rename offered`, () => {
    const bad = ds.filter(d => d.code === 'template.invalid-detail-name');
    assert.deepEqual(bad.map(span), [at(q(form, 'durée_minutes')), at(q(form, 'retry-after'))]);
    assert.equal(
      bad[1]!.message,
      "Rename 'retry-after' to 'retry_after' to use it in the template, or mark it required: false if it is data only: a placeholder name is letters, digits and _ ([A-Za-z_][A-Za-z0-9_]*), so {retry-after} could never be filled.",
    );
    assert.deepEqual(
      ds.filter(d => d.code === 'template.unused-detail').map(span),
      [at(q(form, 'ticket_id'))],
      'only ticket_id is an unused key (note is required: false)',
    );
    const fixes = fixesOf(s, doc, bad[0]!.range, { diagnostics: [bad[0]!] });
    assert.deepEqual(
      fixes.map(a => [a.title, !!a.isPreferred]),
      [["Rename details key 'durée_minutes' to 'duree_minutes'", false]],
    );
    assert.equal(applyEdits(doc, editsOf(fixes[0]!, uri)), text.replace(q(form, 'durée_minutes'), q(form, 'duree_minutes')));
    // Even asked as an unused key, "Use in template" is not offered for it.
    const asUnused = { ...bad[1]!, code: 'template.unused-detail' };
    assert.ok(!fixesOf(s, doc, asUnused.range, { diagnostics: [asUnused] }).some(a => /^Use /.test(a.title)));
  });

  test(`${form}: {ticket} with the one unused key ticket_id: "Change to '{ticket_id}'" is preferred and Fix all applies it`, () => {
    const d = ds.find(x => x.code === 'template.unknown-placeholder')!;
    assert.deepEqual(span(d), at('{ticket}'));
    const fixes = fixesOf(s, doc, d.range, { diagnostics: [d] });
    assert.deepEqual(
      fixes.map(a => [a.title, !!a.isPreferred]),
      [
        ["Declare 'ticket: string' in details", false],
        ["Change to '{ticket_id}'", true],
        ["Remove '{ticket}' from the template", false],
      ],
    );
    const all = s.fixAll(doc);
    assert.deepEqual(all, [{ range: d.range, newText: '{ticket_id}' }]);
    const fixed = applyEdits(doc, all);
    assert.equal(fixed, text.replace("'{ticket}'", "'{ticket_id}'"));
    assert.deepEqual(s.fixAll(docOf(fixed, uri, 2)), [], 'idempotent');
  });

  test(`${form}: renaming ticketLocked (CONFLICT) gives CONFLICT_TICKET_LOCKED, which satisfies both naming rules`, () => {
    const d = ds.find(x => x.code === 'code.name-format')!;
    assert.deepEqual(span(d), at(q(form, 'ticketLocked')));
    assert.match(String(d.message), /^Rename to 'CONFLICT_TICKET_LOCKED': /);
    const a = fixesOf(s, doc, d.range, { diagnostics: [d] }).find(x => x.isPreferred) ?? fixesOf(s, doc, d.range, { diagnostics: [d] })[0]!;
    const renamed = applyEdits(doc, editsOf(a, uri));
    const after = newService().validate(docOf(renamed, uri));
    assert.ok(renamed.includes(q(form, 'CONFLICT_TICKET_LOCKED') + ':') || renamed.includes('"CONFLICT_TICKET_LOCKED": {'));
    assert.deepEqual(
      after.filter(x => String(x.code).startsWith('code.')).map(x => x.code),
      [],
    );
  });
}

test('placeholder completion does not offer a key no placeholder can name', () => {
  const text = BODY.replace('message_template: "Slow down"', 'message_template: "Slow down {"');
  const doc = docOf(text, 'file:///w/c.adapter.yaml');
  const at = doc.positionAt(text.indexOf('down {') + 6);
  const labels = newService()
    .complete(doc, at)
    .map(i => i.label);
  assert.ok(!labels.includes('retry-after') && !labels.includes('durée_minutes'), labels.join());
});
