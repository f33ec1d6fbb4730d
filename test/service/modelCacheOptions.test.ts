import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createModelCache } from '../../server/src/service/parse/modelCache';
import { yamlDoc } from './helpers';

const uri = 'file:///work/a.adapter.yaml';
const text = yamlDoc('name: a', 'type: adapter', 'error_codes:', '  A_ONE:', '    category: VALIDATION', '    message_template: "{x}"');

test('model cache: the same version under options that do not shape a model keeps its model (an editor sends its settings as it starts)', () => {
  const cache = createModelCache(false);
  const doc = TextDocument.create(uri, 'yaml', 1, text);
  const model = cache.modelOf(doc, { files: [] });
  assert.ok(model);
  // Other settings (rules, severities) ride along in the service's options; only files, maxFileSize and chunkThreshold shape a model.
  assert.equal(cache.modelOf(doc, { files: [], rules: { 'code.unknown-category': 'off' } } as object), model);
  assert.equal(cache.modelOf(doc, undefined), model, 'no options: the defaults, the same as above');
  assert.ok(cache.isCurrent(doc, {}));
});

test('model cache: the same version under options that shape a model is parsed again, and the cache says so', () => {
  const cache = createModelCache(false);
  const doc = TextDocument.create(uri, 'yaml', 1, text);
  const model = cache.modelOf(doc, {});
  const other = cache.modelOf(doc, { files: ['**/*.txt'] });
  assert.ok(other && other !== model);
  assert.ok(!cache.isCurrent(doc, {}));
  assert.ok(cache.isCurrent(doc, { files: ['**/*.txt'] }));
  assert.equal(cache.modelOf(doc, { files: ['**/*.txt'], maxFileSize: 10 }), undefined, 'too large under the new limit: no model');
  const back = cache.modelOf(doc, { files: ['**/*.txt'], chunkThreshold: 1 });
  assert.ok(back && back !== other);
  assert.deepEqual(
    back.codes.map(c => c.name),
    ['A_ONE'],
  );
});
