/**
 * Each YAML document of a multi-document file is an adapter of its own
 * (docs/spec-decisions.md): precedence, the simulator and the preview read the rules of one document.
 * Markdown (one front matter) and JSON (one value) have one document: their behaviour is pinned as is.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { docOf, newService } from './helpers';

const TWO = [
  'name: tickets',
  'error_mapping:',
  '  404:',
  '    code: NOT_FOUND_TICKET',
  'error_codes:',
  '  NOT_FOUND_TICKET:',
  '    category: NOT_FOUND',
  '    message_template: "Ticket \'{id}\' not found"',
  '    details: { id: string }',
  '---',
  'name: users',
  'error_codes:',
  '  NOT_FOUND_USER:',
  '    category: NOT_FOUND',
  '    message_template: "User \'{login}\' not found"',
  '    maps_from_http: [404]',
  '    condition: "response.status == 404"',
  '    details: { login: string }',
  '  NOT_FOUND_TICKET:',
  '    category: NOT_FOUND',
  '    message_template: "No ticket \'{id}\' for this user"',
  '    details: { id: string }',
  '',
].join('\n');
const URI = 'file:///w/two.adapter.yaml';

test('yaml, two documents: document 2 maps_from_http does not claim document 1 statuses (no mapping.precedence)', () => {
  const ds = newService().validate(docOf(TWO, URI));
  assert.deepEqual(
    ds.map(d => d.code),
    [],
  );
  // The same rules in one document do meet: the precedence is said.
  const one = TWO.replace('---\nname: users\nerror_codes:\n', '').replace(
    '  NOT_FOUND_TICKET:\n    category: NOT_FOUND\n    message_template: "No ticket',
    '  NOT_FOUND_TICKET_USER:\n    category: NOT_FOUND\n    message_template: "No ticket',
  );
  assert.deepEqual(
    newService()
      .validate(docOf(one, URI))
      .map(d => [d.code, d.range.start.line]),
    [['mapping.precedence', 2]],
  );
});

test('yaml, two documents: the simulator runs the rules of the cursor document (the first with rules by default)', () => {
  const s = newService();
  const doc = docOf(TWO, URI);
  const inFirst = s.simulate(doc, { status: 404, position: { line: 3, character: 4 } });
  assert.deepEqual([inFirst.rule, inFirst.code], ['error_mapping[404]', 'NOT_FOUND_TICKET']);
  assert.ok(!inFirst.considered.some(c => c.code === 'NOT_FOUND_USER'), 'document 2 codes are not tried');
  assert.deepEqual([s.simulate(doc, { status: 404 }).code], ['NOT_FOUND_TICKET']);
  const inSecond = s.simulate(doc, { status: 404, position: { line: 13, character: 4 } });
  assert.deepEqual([inSecond.rule, inSecond.code], ['error_codes.NOT_FOUND_USER', 'NOT_FOUND_USER']);
});

test('yaml, two documents: the preview of a code declared in both shows the declaration of the cursor document', () => {
  const s = newService();
  const doc = docOf(TWO, URI);
  assert.equal(s.preview(doc, { position: { line: 5, character: 4 } })?.template, "Ticket '{id}' not found");
  assert.equal(s.preview(doc, { position: { line: 18, character: 4 } })?.template, "No ticket '{id}' for this user");
  assert.equal(s.preview(doc, { position: { line: 3, character: 12 } })?.template, "Ticket '{id}' not found");
});

test('markdown and json: one document each, the simulator and precedence as before', () => {
  const body = TWO.split('---\n')[0]!.replace(
    'error_codes:\n',
    'error_codes:\n  NOT_FOUND_USER:\n    category: NOT_FOUND\n    maps_from_http: [404]\n    condition: "response.status == 404"\n',
  );
  const md = docOf(`---\n${body}---\n\n# Tickets\n`, 'file:///w/t-adapter.md');
  const s = newService();
  assert.deepEqual(
    s.validate(md).map(d => d.code),
    ['mapping.precedence'],
  );
  assert.equal(s.simulate(md, { status: 404 }).code, 'NOT_FOUND_USER');
  const json = docOf(
    JSON.stringify({
      name: 't',
      error_mapping: { '404': { code: 'NOT_FOUND_TICKET' } },
      error_codes: {
        NOT_FOUND_TICKET: { category: 'NOT_FOUND' },
        NOT_FOUND_USER: { category: 'NOT_FOUND', maps_from_http: [404], condition: 'response.status == 404' },
      },
    }),
    'file:///w/t.adapter.json',
  );
  assert.equal(s.simulate(json, { status: 404 }).code, 'NOT_FOUND_USER');
});
