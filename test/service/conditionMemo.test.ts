/**
 * A condition's problems depend on its text alone, so a text found clean is not parsed again
 * (the same condition is written in many entries and files). A text with a problem is checked wherever
 * it is written, each time at its own position.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { conditionChecksTesting } from '../../server/src/service/checks/conditionChecks';
import { docOf, newService, yamlDoc } from './helpers';

const entries = (n: number, condition: (i: number) => string): string[] =>
  Array.from({ length: n }, (_, i) => [
    `  NOT_FOUND_MEMO_E${i}:`,
    '    category: NOT_FOUND',
    '    message_template: "gone"',
    '    maps_from_http: [404]',
    `    condition: ${condition(i)}`,
  ]).flat();

test('a clean condition text is parsed once for all the entries and files that write it', () => {
  const service = newService();
  const text = yamlDoc(
    'name: memo',
    'error_codes:',
    ...entries(40, i => (i % 2 ? `"response.body.memo == 'a'"` : `response.body.memo == 'a'`)),
  );
  const before = conditionChecksTesting.parsed;
  assert.deepEqual(service.validate(docOf(text, 'file:///w/a.adapter.yaml')), []);
  assert.deepEqual(service.validate(docOf(text, 'file:///w/b.adapter.yaml')), []);
  assert.ok(conditionChecksTesting.parsed - before <= 1, `${conditionChecksTesting.parsed - before} parses`);
});

test('a condition text with a problem is reported at each place it is written, every time', () => {
  const service = newService();
  const text = yamlDoc('name: memo', 'error_codes:', ...entries(3, i => (i === 1 ? `'  reponse.body.x == 1'` : `"reponse.body.x == 1"`)));
  const doc = docOf(text, 'file:///w/c.adapter.yaml');
  const lines = text.split('\n');
  const expected = [6, 11, 16].map(line => {
    const character = lines[line]!.indexOf('reponse');
    return { code: 'condition.unknown-root', line, character, end: character + 'reponse'.length };
  });
  const got = () =>
    service
      .validate(doc)
      .map(d => ({ code: d.code, line: d.range.start.line, character: d.range.start.character, end: d.range.end.character }));
  assert.deepEqual(got(), expected);
  service.forget(doc.uri);
  assert.deepEqual(got(), expected);
});
