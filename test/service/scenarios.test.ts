/** `probe --scenarios`: the file read with positioned mistakes, and each answer judged against what its scenario expects. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { parseScenarios, type Scenario } from '../../server/src/service';
import { newService, yamlDoc } from './helpers';
import { TextDocument } from 'vscode-languageserver-textdocument';

const CATS = ['VALIDATION', 'NOT_FOUND', 'PERMISSION', 'INTERNAL'];

test('a scenarios file: a list or `scenarios:`, every field read', () => {
  const text = yamlDoc(
    'scenarios:',
    '  - name: missing file',
    '    tool: read_text_file',
    '    arguments: { path: /srv/none.txt, head: 2 }',
    '    expect: failure',
    '    code: NOT_FOUND_FILE',
    '    category: NOT_FOUND',
    '    channel: tool-result',
    '  - tool: list_allowed_directories',
    '    expect: success',
  );
  const r = parseScenarios(text, CATS);
  assert.deepEqual(r.problems, []);
  assert.deepEqual(JSON.parse(JSON.stringify(r.scenarios)), [
    {
      name: 'missing file',
      tool: 'read_text_file',
      arguments: { path: '/srv/none.txt', head: 2 },
      expect: 'failure',
      code: 'NOT_FOUND_FILE',
      category: 'NOT_FOUND',
      channel: 'tool-result',
    },
    { name: 'list_allowed_directories #2', tool: 'list_allowed_directories', arguments: {}, expect: 'success' },
  ]);
  assert.equal(parseScenarios('[{"tool": "t", "expect": "success"}]', CATS).scenarios.length, 1, 'JSON is read too');
});

test('mistakes in a scenarios file: each with its line and column, and nothing is run', () => {
  const text = yamlDoc(
    '- tool: a',
    '  expect: maybe',
    '- expect: failure',
    '  arguments: [1]',
    '- tool: b',
    '  expect: failure',
    '  category: NOPE',
    '  channel: smoke',
    '  colour: red',
    '- tool: c',
    '  expect: success',
    '  code: X',
    '- 42',
  );
  const r = parseScenarios(text, CATS);
  assert.deepEqual(r.scenarios, []);
  assert.deepEqual(
    r.problems.map(p => `${p.line}:${p.column} ${p.message}`),
    [
      "2:11 scenario 1: 'expect' is failure or success, not 'maybe'",
      "3:3 scenario 2: 'tool' is required",
      "4:14 scenario 2: 'arguments' must be a mapping",
      "9:3 scenario 3: unknown key 'colour' (name, tool, arguments, expect, code, category, channel)",
      "7:13 scenario 3: unknown category 'NOPE' (VALIDATION, NOT_FOUND, PERMISSION, INTERNAL)",
      "8:12 scenario 3: 'channel' is tool-result or json-rpc, not 'smoke'",
      '10:3 scenario 4: code, category and channel describe a failure; this one expects a success',
      '13:3 scenario 5: expected a mapping with tool, arguments and expect',
    ],
  );
  assert.deepEqual(parseScenarios('a: [', CATS).problems.length > 0, true, 'a YAML error is positioned too');
  assert.match(parseScenarios('{}', CATS).problems[0]!.message, /expected a list of scenarios/);
});

const service = newService();
const contract = service.contract([
  TextDocument.create(
    'file:///a.adapter.yaml',
    'yaml',
    1,
    yamlDoc(
      'name: a',
      'type: adapter',
      'error_codes:',
      '  NOT_FOUND_FILE:',
      '    category: NOT_FOUND',
      '    message_template: "File {path} not found"',
      '    details:',
      '      path: { type: string, required: true }',
    ),
  ),
]);
const result = (r: object) => JSON.stringify({ jsonrpc: '2.0', id: 1, result: r });
const text = (s: string, isError?: boolean) =>
  result({ content: [{ type: 'text', text: s }], ...(isError === undefined ? {} : { isError }) });
const envelope = (code: string) =>
  text(JSON.stringify({ success: false, error: { code, message: 'File /x not found', details: { path: '/x' } } }), true);
const judge = (sc: Omit<Scenario, 'name' | 'tool' | 'arguments'>, response: string) =>
  service
    .judgeAnswer({ tool: 't', claimsMcpAql: true, response, scenario: { name: 's', tool: 't', arguments: {}, ...sc } }, contract)
    .map(f => `${f.code}@${response.slice(f.start, f.end)}`);

test('a scenario that expects a failure: a success, another code or another channel is a mismatch', () => {
  assert.deepEqual(judge({ expect: 'failure', code: 'NOT_FOUND_FILE' }, envelope('NOT_FOUND_FILE')), []);
  const other = judge({ expect: 'failure', code: 'NOT_FOUND_FILE' }, envelope('INTERNAL_ERROR'));
  assert.deepEqual(
    other.filter(f => f.startsWith('runtime.')),
    ['runtime.scenario-mismatch@true'],
    'the verify findings of the other code come too',
  );
  const [f] = service.judgeAnswer(
    { tool: 't', claimsMcpAql: true, response: text('ok', false), scenario: { name: 'read', tool: 't', arguments: {}, expect: 'failure' } },
    contract,
  );
  assert.equal(f?.message, "Scenario 'read': expected a failure, got a success.");
  assert.deepEqual(judge({ expect: 'failure' }, text('all fine', false)), ['runtime.scenario-mismatch@false']);
  assert.deepEqual(judge({ expect: 'failure', channel: 'json-rpc' }, envelope('NOT_FOUND_FILE')), ['runtime.scenario-mismatch@true']);
  assert.deepEqual(judge({ expect: 'failure', category: 'VALIDATION' }, envelope('NOT_FOUND_FILE')), [
    'runtime.wrong-category@\\"NOT_FOUND_FILE\\"', // inside the text content's JSON string
  ]);
});

test('a scenario that expects a success: a failure on either channel is a mismatch', () => {
  assert.deepEqual(judge({ expect: 'success' }, text('here you are', false)), []);
  assert.deepEqual(judge({ expect: 'success' }, envelope('NOT_FOUND_FILE')), ['runtime.scenario-mismatch@true']);
  const rpc = JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'boom' } });
  assert.deepEqual(judge({ expect: 'success' }, rpc), ['runtime.scenario-mismatch@{']);
});
