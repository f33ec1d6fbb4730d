/**
 * Silent slips that deserve a word, in the three forms where each can occur: a plain template cut at
 * ` #`; an anchor defined twice; `required: yes`; the mapping shorthand `"401": "PERMISSION_DENIED"`
 * (with the rewrite to `{ code: … }`). A code declared in several files: declaredElsewhere.test.ts.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from 'vscode-languageserver-types';
import { applyEdits, docOf, editsOf, newService } from './helpers';

const md = (t: string) => `---\n${t}---\n\n# Notes\n`;
const spanOf = (doc: TextDocument, d: Diagnostic) => doc.getText(d.range);

for (const [form, uri, wrap] of [
  ['yaml', 'file:///w/rules.adapter.yaml', (t: string) => t],
  ['markdown', 'file:///w/rules-adapter.md', md],
] as const) {
  test(`${form}: a plain template cut at ' #' is template.comment-cut on the comment; the quoting fix restores the text (Fix all too)`, () => {
    const text = wrap(
      'error_codes:\n  NOT_FOUND_RULE:\n    category: NOT_FOUND\n    message_template: Rule #{n} is not found   \n    details:\n      n: integer\n',
    );
    const s = newService();
    const doc = docOf(text, uri);
    const ds = s.validate(doc);
    assert.deepEqual(
      ds.map(d => [d.code, spanOf(doc, d), d.message]),
      [
        [
          'template.comment-cut',
          '#{n} is not found',
          "Quote the template: YAML reads ' #{n} is not found' as a comment, so the message ends at 'Rule'.",
        ],
      ],
      'n is not reported unused: the author used it',
    );
    const fixed = text.replace('Rule #{n} is not found', '"Rule #{n} is not found"');
    assert.equal(applyEdits(doc, s.fixAll(doc)), fixed);
    assert.deepEqual(newService().validate(docOf(fixed, uri)), []);
    // An ordinary comment after a plain template is left alone.
    const note = wrap('error_codes:\n  NOT_FOUND_RULE:\n    category: NOT_FOUND\n    message_template: Rule not found # TODO: say which\n');
    assert.deepEqual(newService().validate(docOf(note, uri)), []);
  });

  test(`${form}: an anchor defined twice is yaml.duplicate-anchor on the second &name`, () => {
    const text = wrap(
      ['x-base: &base', '  category: NOT_FOUND', 'x-other: &base', '  category: CONFLICT', 'error_codes:', '  NOT_FOUND_A: *base', ''].join(
        '\n',
      ),
    );
    const doc = docOf(text, uri);
    const ds = newService().validate(doc);
    const line = form === 'markdown' ? 2 : 1;
    assert.deepEqual(
      ds.map(d => [d.code, d.range.start.line, d.range.start.character, spanOf(doc, d), d.message]),
      [
        [
          'yaml.duplicate-anchor',
          line + 1,
          9,
          '&base',
          `Rename this anchor: '&base' is already defined on line ${line}, so the aliases after this line mean this node and those before it the first one.`,
        ],
        // The alias means the second node: its category is CONFLICT, so the prefix rule speaks.
        ['code.category-prefix', line + 4, 2, 'NOT_FOUND_A', ds[1]?.message],
      ],
    );
  });

  test(`${form}: required: yes says that YAML 1.2 reads it as a string, with the fix to true`, () => {
    const text = wrap(
      'error_codes:\n  NOT_FOUND_RULE:\n    category: NOT_FOUND\n    message_template: "Rule {n}"\n    details:\n      n: { type: integer, required: yes }\n',
    );
    const s = newService();
    const doc = docOf(text, uri);
    const [d, ...rest] = s.validate(doc);
    assert.deepEqual(rest, []);
    assert.deepEqual(
      [d!.code, spanOf(doc, d!), d!.message],
      [
        'schema.type',
        'yes',
        'Write true: YAML 1.2 reads yes as the string "yes", not a boolean (only YAML 1.1 loaders read it as true); error_codes.NOT_FOUND_RULE.details.n.required must be boolean.',
      ],
    );
    const a = s.quickFixes(doc, d!.range, { diagnostics: [d!] }).find(x => x.isPreferred)!;
    assert.equal(a.title, 'Change to true');
    assert.equal(applyEdits(doc, editsOf(a, uri)), text.replace('required: yes', 'required: true'));
    assert.deepEqual(s.fixAll(doc), [], 'a value change is not applied by Fix all');
  });
}

const SHORTHAND: [string, string, string, string][] = [
  [
    'yaml',
    'file:///w/m.adapter.yaml',
    'error_mapping:\n  "401": "PERMISSION_DENIED"\n',
    'error_mapping:\n  "401": { code: "PERMISSION_DENIED" }\n',
  ],
  [
    'markdown',
    'file:///w/m-adapter.md',
    md('error_mapping:\n  401: PERMISSION_DENIED\n'),
    md('error_mapping:\n  401: { code: PERMISSION_DENIED }\n'),
  ],
  [
    'json',
    'file:///w/m.adapter.json',
    '{\n  "error_mapping": {\n    "401": "PERMISSION_DENIED"\n  }\n}\n',
    '{\n  "error_mapping": {\n    "401": { "code": "PERMISSION_DENIED" }\n  }\n}\n',
  ],
];
for (const [form, uri, text, want] of SHORTHAND) {
  test(`${form}: the mapping shorthand says what to write, and offers the rewrite to { code: … }`, () => {
    const s = newService();
    const doc = docOf(text, uri);
    const [d, ...rest] = s.validate(doc);
    assert.deepEqual(rest, []);
    assert.equal(d!.code, 'schema.type');
    assert.match(String(d!.message), /^Write \{ code: PERMISSION_DENIED \}: an error_mapping value is an entry with a code/);
    const a = s.quickFixes(doc, d!.range, { diagnostics: [d!] }).find(x => x.isPreferred)!;
    assert.equal(a.title, 'Write as { code: PERMISSION_DENIED }');
    const fixed = applyEdits(doc, editsOf(a, uri));
    assert.equal(fixed, want);
    assert.deepEqual(newService().validate(docOf(fixed, uri)), []);
  });
}
