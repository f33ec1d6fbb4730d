/** The settings are defined once (server/src/settingsSchema.ts); package.json and the server derive from it. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allCodes } from '../../server/src/service';
import { DEFAULT_SETTINGS, normalizeSettings, RULE_LEVELS, SETTINGS } from '../../server/src/settingsSchema';

const ROOT = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

test('package.json contributes.configuration equals SETTINGS, key by key and in order', () => {
  assert.deepEqual(pkg.contributes.configuration.properties, JSON.parse(JSON.stringify(SETTINGS)));
  assert.deepEqual(Object.keys(pkg.contributes.configuration.properties), Object.keys(SETTINGS));
});

test('the server normalizes to the same defaults; malformed values fall back per key', () => {
  assert.deepEqual(normalizeSettings(undefined), DEFAULT_SETTINGS);
  assert.deepEqual(DEFAULT_SETTINGS, { files: [], rules: {}, maxFileSize: SETTINGS['mcpAql.maxFileSize'].default, codeLens: { enabled: true } });
  assert.deepEqual(normalizeSettings({ files: ['a', 3], rules: { 'yaml.syntax': 'warning', 'x.y': 'loud' }, maxFileSize: -1, codeLens: { enabled: 'no' } }),
    { files: ['a'], rules: { 'yaml.syntax': 'warning' }, maxFileSize: DEFAULT_SETTINGS.maxFileSize, codeLens: { enabled: true } });
  assert.deepEqual(normalizeSettings({ codeLens: { enabled: false } }).codeLens, { enabled: false });
});

test('rule levels are the service\'s levels, and every code can be set', () => {
  assert.deepEqual([...RULE_LEVELS], ['off', 'hint', 'information', 'warning', 'error']);
  const rules = Object.fromEntries(allCodes.map(c => [c, 'off']));
  assert.equal(Object.keys(normalizeSettings({ rules }).rules).length, allCodes.length);
});
