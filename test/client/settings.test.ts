/** The settings are defined once (server/src/settingsSchema.ts); package.json and the server derive from it. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allCodes, CODE_SCOPES, globError, ruleLevelOf } from '../../server/src/service';
import { DEFAULT_SETTINGS, normalizeSettings, RULE_LEVELS, SETTINGS } from '../../server/src/settingsSchema';

const ROOT = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

test('package.json contributes.configuration equals SETTINGS, key by key and in order', () => {
  assert.deepEqual(pkg.contributes.configuration.properties, JSON.parse(JSON.stringify(SETTINGS)));
  assert.deepEqual(Object.keys(pkg.contributes.configuration.properties), Object.keys(SETTINGS));
});

test('the settings section is titled MCP-AQL, the category of the commands', () => {
  // VS Code 1.100 names the section (and its entry in the table of contents) by this title; a setting's
  // own label comes from its key (`mcpAql.files` → "Files"), so the keys stay as they are.
  assert.equal(pkg.contributes.configuration.title, 'MCP-AQL');
  assert.ok(pkg.contributes.commands.every((c: { category: string }) => c.category === 'MCP-AQL'));
});

test('the server normalizes to the same defaults; malformed values fall back per key', () => {
  assert.deepEqual(normalizeSettings(undefined), DEFAULT_SETTINGS);
  assert.deepEqual(DEFAULT_SETTINGS, {
    files: [],
    responseFiles: [],
    rules: {},
    codeScope: 'workspace',
    maxFileSize: SETTINGS['mcpAql.maxFileSize'].default,
    codeLens: { enabled: true },
  });
  assert.deepEqual(
    normalizeSettings({
      files: ['a', 3],
      responseFiles: [null, 'r'],
      rules: { 'yaml.syntax': 'warning', 'x.y': 'loud' },
      codeScope: 'galaxy',
      maxFileSize: -1,
      codeLens: { enabled: 'no' },
    }),
    {
      files: ['a'],
      responseFiles: ['r'],
      rules: { 'yaml.syntax': 'warning' },
      codeScope: 'workspace',
      maxFileSize: DEFAULT_SETTINGS.maxFileSize,
      codeLens: { enabled: true },
    },
  );
  assert.deepEqual(normalizeSettings({ codeLens: { enabled: false }, codeScope: 'file' }).codeLens, { enabled: false });
  assert.equal(normalizeSettings({ codeScope: 'file' }).codeScope, 'file');
  // Invalid globs are left out and told, with the service's reason.
  const bad: string[] = [];
  const s = normalizeSettings({ files: ['**/*.adapter.yaml', 'a{b'] }, { globError, onBadGlob: (g, why) => bad.push(`${g}: ${why}`) });
  assert.deepEqual(s.files, ['**/*.adapter.yaml']);
  assert.deepEqual(bad, [`a{b: ${globError('a{b')}`]);
  assert.ok(globError('a{b'));
});

test("rule levels and code scopes are the service's, and every code can be set", () => {
  assert.deepEqual([...SETTINGS['mcpAql.codeScope'].enum], [...CODE_SCOPES]);
  assert.deepEqual([...RULE_LEVELS], ['off', 'hint', 'information', 'warning', 'error']);
  const rules = Object.fromEntries(allCodes.map(c => [c, 'off']));
  assert.equal(Object.keys(normalizeSettings({ rules }).rules).length, allCodes.length);
});

test('the config file schema agrees with the settings it shares (codeScope, rule levels, files, maxFileSize)', () => {
  const config = JSON.parse(readFileSync(join(ROOT, 'schemas/config.schema.json'), 'utf8')).properties;
  assert.deepEqual(config.codeScope.enum, [...SETTINGS['mcpAql.codeScope'].enum]);
  // The config file also takes --rule's spellings (warn, info, 0, 1, 2); the setting, the five names.
  for (const [code, rule] of Object.entries(config.rules.properties) as [string, { enum: (string | number)[] }][]) {
    assert.deepEqual(
      rule.enum.filter(l => (RULE_LEVELS as readonly unknown[]).includes(l)),
      [...RULE_LEVELS],
      code,
    );
    assert.deepEqual(rule.enum.map(ruleLevelOf), [
      ...RULE_LEVELS.slice(0, 3),
      'information',
      'warning',
      'warning',
      'error',
      'off',
      'warning',
      'error',
      'off',
      'warning',
      'error',
    ]);
  }
  assert.equal(config.files.items.type, SETTINGS['mcpAql.files'].items.type);
  assert.equal(config.maxFileSize.minimum, SETTINGS['mcpAql.maxFileSize'].minimum);
});
