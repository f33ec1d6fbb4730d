/** The settings the client gives in `initialize` (client/src/initialSettings.ts): the section as workspace/configuration answers it. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { initialSettings } from '../../client/src/initialSettings';
import { normalizeSettings, SETTINGS, type SettingKey } from '../../server/src/settingsSchema';

test('every setting, nested by its dots, and the server reads back what the editor holds', () => {
  const held: Partial<Record<SettingKey, unknown>> = {
    'mcpAql.files': ['**/docs/*.md'],
    'mcpAql.rules': { 'mapping.unknown-code': 'hint' },
    'mcpAql.codeLens.enabled': false,
  };
  const get = (k: SettingKey) => (k in held ? held[k] : SETTINGS[k].default);
  const section = initialSettings(get);
  assert.deepEqual(section, {
    files: ['**/docs/*.md'],
    responseFiles: [],
    rules: { 'mapping.unknown-code': 'hint' },
    codeScope: 'workspace',
    maxFileSize: SETTINGS['mcpAql.maxFileSize'].default,
    codeLens: { enabled: false },
    trace: { server: 'off' },
  });
  assert.deepEqual(normalizeSettings(section), {
    files: ['**/docs/*.md'],
    responseFiles: [],
    rules: { 'mapping.unknown-code': 'hint' },
    codeScope: 'workspace',
    maxFileSize: SETTINGS['mcpAql.maxFileSize'].default,
    codeLens: { enabled: false },
  });
});
