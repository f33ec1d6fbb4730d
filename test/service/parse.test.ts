import test from 'node:test';
import assert from 'node:assert/strict';
import { buildModel } from '../../server/src/service/parse/buildModel';
import { readCorpus, yamlDoc } from './helpers';

test('markdown adapter: front matter offsets map back to the Markdown file', () => {
  const text = readCorpus('MCPAQL-examples--github-api-adapter.md');
  const m = buildModel('file:///x/github-api-adapter.md', text)!;
  assert.equal(m.kind, 'markdown');
  assert.equal(m.sections.length, 1);
  assert.equal(m.syntaxErrors.length, 0);
  const p = m.params.find(p => p.name === 'owner')!;
  assert.equal(text.slice(p.span.start, p.span.end).replace(/[{}]/g, ''), 'owner');
});

test('error_codes and error_mapping are extracted with exact spans', () => {
  const text = yamlDoc(
    'error_codes:',
    '  GITHUB_ABUSE_DETECTED:',
    '    category: RATE_LIMIT',
    `    message_template: "Abuse detection triggered: '{reason}'"`,
    '    maps_from_http: [403]',
    '    details:',
    '      reason: string',
    'error_mapping:',
    '  404:',
    '    code: NOT_FOUND_REPOSITORY',
    '  403:',
    '    - condition: "response.body.message contains \'rate limit\'"',
    '      code: RATE_LIMIT_EXCEEDED',
    '    - code: PERMISSION_DENIED',
  );
  const m = buildModel('file:///x/a.adapter.yaml', text)!;
  const [c] = m.codes;
  assert.equal(c!.name, 'GITHUB_ABUSE_DETECTED');
  assert.equal(text.slice(c!.keySpan.start, c!.keySpan.end), 'GITHUB_ABUSE_DETECTED');
  const ph = c!.template!.placeholders[0]!;
  assert.equal(text.slice(ph.span.start, ph.span.end), '{reason}');
  assert.deepEqual(
    c!.mapsFromHttp.map(s => s.value),
    [403],
  );
  assert.deepEqual(
    c!.details.map(d => [d.name, d.type]),
    [['reason', 'string']],
  );
  assert.deepEqual(
    m.mappings.map(e => [e.status.value, e.index, e.code?.value]),
    [
      [404, null, 'NOT_FOUND_REPOSITORY'],
      [403, 0, 'RATE_LIMIT_EXCEEDED'],
      [403, 1, 'PERMISSION_DENIED'],
    ],
  );
});

test('a file that is no adapter gets no model', () => {
  assert.equal(buildModel('file:///x/config.yaml', 'name: x\n'), undefined);
  assert.ok(buildModel('file:///x/config.yaml', 'error_codes: {}\n'));
});
