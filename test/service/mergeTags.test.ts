/**
 * A merge key need not be written `<<`: the `yaml` package reads any scalar tagged `tag:yaml.org,2002:merge`
 * (`!!merge q`, `!<tag:yaml.org,2002:merge> q`, a %TAG handle) as one. A bad value under such a key was ignored
 * without a word, because the walk for bad merge values ran only on texts holding `<<`.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { buildModel } from '../../server/src/service/parse/buildModel';
import type { AdapterModel } from '../../server/src/service/model/model';
import { check, fixture, yamlDoc } from './helpers';

const entry = (key: string) =>
  yamlDoc('error_codes:', '  VALIDATION_NAME:', `    ${key}: [[5]]`, '    category: VALIDATION', '    message_template: "Name invalid"');

for (const key of ['<<', '!!merge q', '!!merge <<', '!<tag:yaml.org,2002:merge> q', '!!merge ""'])
  test(`a merge key written \`${key}\` with a value that is no mapping: a positioned yaml.syntax error`, () => {
    const f = fixture(entry(key));
    const { ds } = check(f, 'yaml.syntax');
    assert.deepEqual(
      ds.map(d => [d.range, (d.data as { yamlCode: string }).yamlCode]),
      [[f.spans[0], 'BAD_MERGE']],
    );
  });

test('a %TAG handle for the YAML tags: `!y!merge q: 5` is a merge key too', () => {
  const f = fixture('%TAG !y! tag:yaml.org,2002:\n---\n' + entry('!y!merge q'));
  const { ds } = check(f, 'yaml.syntax');
  assert.deepEqual(
    ds.map(d => [d.range, (d.data as { yamlCode: string }).yamlCode]),
    [[f.spans[0], 'BAD_MERGE']],
  );
});

test('a keystroke that types a tagged merge key inside an entry: the same errors as a whole parse', () => {
  const URI = 'file:///w/t.adapter.yaml';
  const lines = ['error_codes:'];
  for (let i = 0; i < 6; i++) lines.push(`  VALIDATION_E${i}:`, '    category: VALIDATION', `    message_template: "Entry ${i}"`);
  const text = lines.join('\n') + '\n';
  const m0 = buildModel(URI, text, [], { chunkThreshold: 0 })!;
  assert.deepEqual(m0.syntaxErrors, []);
  // Type `!!merge q: 5` over the category line of entry 3 (one line changes: the keystroke path).
  const at = text.indexOf('category', text.indexOf('VALIDATION_E3'));
  const from = text.slice(at, text.indexOf('\n', at));
  const next = text.slice(0, at) + '!!merge q: 5' + text.slice(at + from.length);
  const change = { start: at, oldEnd: at + from.length, newEnd: at + '!!merge q: 5'.length };
  const m1: AdapterModel = buildModel(URI, next, [], { chunkThreshold: 0, previous: m0, change })!;
  const whole = buildModel(URI, next, [], { chunkThreshold: 0 })!;
  assert.deepEqual(
    m1.syntaxErrors.map(e => [e.start, e.end, e.yamlCode]),
    whole.syntaxErrors.map(e => [e.start, e.end, e.yamlCode]),
  );
  assert.deepEqual(
    whole.syntaxErrors.map(e => [next.slice(e.start, e.end), e.yamlCode]),
    [['5', 'BAD_MERGE']],
  );
});
