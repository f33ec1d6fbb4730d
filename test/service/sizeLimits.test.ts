/** A checkout's config or settings cannot lift maxFileSize without bound. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { MAX_FILE_SIZE_CEILING, parseProjectConfig } from '../../server/src/service';
import { MAX_FILE_SIZE_CEILING as SETTINGS_CEILING, normalizeSettings, SETTINGS } from '../../server/src/settingsSchema';
import { newService } from './helpers';

test('the ceiling is 16 MiB, the same in the service, the settings and the config schema', () => {
  assert.equal(MAX_FILE_SIZE_CEILING, 16 * 1024 * 1024);
  assert.equal(SETTINGS_CEILING, MAX_FILE_SIZE_CEILING);
  assert.equal(SETTINGS['mcpAql.maxFileSize'].maximum, MAX_FILE_SIZE_CEILING);
});

test('config maxFileSize: 1e300 or one past the ceiling is config.invalid and sets nothing; the ceiling itself is accepted', () => {
  for (const v of ['1e300', String(MAX_FILE_SIZE_CEILING + 1), '.inf']) {
    const { config, problems } = parseProjectConfig(`maxFileSize: ${v}\n`);
    assert.deepEqual(config, {}, v);
    assert.deepEqual(
      problems.map(p => [p.code, p.message, p.range.start.character]),
      [['config.invalid', "'maxFileSize' must be a whole number of characters, at least 1024 and at most 16777216 (16 MiB).", 13]],
      v,
    );
  }
  assert.deepEqual(parseProjectConfig(`maxFileSize: ${MAX_FILE_SIZE_CEILING}\n`), {
    config: { maxFileSize: MAX_FILE_SIZE_CEILING },
    problems: [],
  });
});

test('settings: a maxFileSize over the ceiling is the ceiling', () => {
  assert.equal(normalizeSettings({ maxFileSize: 1e300 }).maxFileSize, MAX_FILE_SIZE_CEILING);
  assert.equal(normalizeSettings({ maxFileSize: 8_000_000 }).maxFileSize, 8_000_000);
});

test('service: whatever maxFileSize it is given, a file over the ceiling gets file.too-large and is not parsed', () => {
  const text = 'error_codes:\n  X: "' + 'a'.repeat(MAX_FILE_SIZE_CEILING) + '"\n';
  const doc = TextDocument.create('file:///w/huge.adapter.yaml', 'yaml', 1, text);
  const s = newService();
  const ds = s.validate(doc, { maxFileSize: 1e300 });
  assert.deepEqual(
    ds.map(d => [d.code, d.data]),
    [['file.too-large', { size: text.length, max: MAX_FILE_SIZE_CEILING }]],
  );
  assert.deepEqual(s.documentSymbols(doc, { maxFileSize: 1e300 }), []);
});
