/** The bundled rule docs ("Explain rule") and registry documents: pure Markdown from the shipped files. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allCodes } from '../../server/src/service';
import { registryMarkdown } from '../../client/src/docs/registryDoc';
import {
  explainCommandUri,
  parseDocPath,
  registryDocPath,
  RULE_DOC_FILES,
  ruleDocPath,
  ruleMarkdown,
  ruleRows,
  ruleSection,
} from '../../client/src/docs/ruleDocs';

const ROOT = join(__dirname, '..', '..');
const [TABLE, ...DEEP] = RULE_DOC_FILES.map(f => readFileSync(join(ROOT, f), 'utf8'));

test('every diagnostic code has a row in the rule table (docs/rules.md), and Explain rule finds it', () => {
  const rows = ruleRows(TABLE!);
  assert.deepEqual(rows.map(r => r.code).sort(), [...allCodes].sort());
  for (const code of allCodes) assert.doesNotMatch(ruleMarkdown(code, TABLE!, DEEP), /No documentation is bundled/, code);
});

test('a rule document: title, default level, meaning, fixes, the in-depth section, how to silence it', () => {
  const md = ruleMarkdown('template.unknown-placeholder', TABLE!, DEEP);
  const lines = md.split('\n');
  assert.equal(lines[0], '# `template.unknown-placeholder`');
  assert.equal(lines[2], 'Default level: **error** (change it per code with the setting `mcpAql.rules`).');
  assert.match(md, /^`\{x\}` is not a details key the template can see/m);
  assert.match(md, /^\*\*Quick fixes:\*\* declare `x` in details/m);
  assert.match(md, /^## In depth$/m);
  assert.match(md, /mcp-aql-disable-next-line template\.unknown-placeholder/);
  // A rule without fixes says so; an unknown code says it is not ours.
  assert.match(ruleMarkdown('yaml.syntax', TABLE!, DEEP), /\*\*Quick fixes:\*\* none/);
  assert.match(ruleMarkdown('no.such-rule', TABLE!, DEEP), /No documentation is bundled/);
});

test('table cells with escaped pipes, and sections cut at the next heading', () => {
  const readme = '| <a id="x-y"></a>`x.y` | warning | a \\| b | fix `c` |\n| `not.a-row` | error | z | – |\n';
  assert.deepEqual(ruleRows(readme), [{ code: 'x.y', level: 'warning', meaning: 'a | b', fixes: 'fix `c`' }]);
  const doc = '## A\n### `x.y` (warning)\nbody one\n\n#### example\nmore\n### `x.z`\nother\n';
  assert.equal(ruleSection(doc, 'x.y'), 'body one\n\n#### example\nmore');
  assert.equal(ruleSection(doc, 'x.q'), undefined);
  assert.equal(ruleSection('### `xay`\nnot me\n', 'x.y'), undefined, 'the dot is literal');
});

test('explain links are command: URIs with the code as the one argument; doc paths round-trip', () => {
  const uri = explainCommandUri('template.unknown-placeholder');
  assert.equal(uri, 'command:mcpAql.explainRule?%5B%22template.unknown-placeholder%22%5D');
  assert.deepEqual(JSON.parse(decodeURIComponent(uri.split('?')[1]!)), ['template.unknown-placeholder']);
  assert.deepEqual(parseDocPath(ruleDocPath('yaml.syntax')), { kind: 'rule', name: 'yaml.syntax' });
  assert.deepEqual(parseDocPath(registryDocPath('RATE_LIMIT_EXCEEDED')), { kind: 'registry', name: 'RATE_LIMIT_EXCEEDED' });
  assert.equal(parseDocPath('/rules/../../etc/passwd.md'), undefined);
  assert.equal(parseDocPath('/other/x.md'), undefined);
});

test('a registry code as Markdown: header, fields, details table with escaped cells, recovery', () => {
  const md = registryMarkdown({
    code: 'RATE_LIMIT_EXCEEDED',
    category: 'RATE_LIMIT',
    kind: 'error',
    phase: 'runtime',
    description: 'Too many requests.',
    message_template: "Rate limit exceeded, retry after '{retry_after_seconds}' s",
    http_status: [429],
    details: { retry_after_seconds: { type: 'integer', required: true }, 'a|b': { type: 'string' } } as never,
    recovery: { text: 'Wait, then retry.', source: 'spec s5' },
  });
  assert.equal(
    md,
    [
      '# RATE_LIMIT_EXCEEDED',
      '',
      'Too many requests.',
      '',
      '- category: RATE_LIMIT',
      '- kind: error (runtime)',
      '- HTTP: 429',
      "- template: `Rate limit exceeded, retry after '{retry_after_seconds}' s`",
      '',
      '| details key | type | required |',
      '|---|---|---|',
      '| retry_after_seconds | integer | yes |',
      '| a\\|b | string | no |',
      '',
      '**Client recovery:** Wait, then retry. (spec s5)',
      '',
    ].join('\n'),
  );
});
