/** "MCP-AQL: Probe a Server…": the command line split, the findings placed on the adapter. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { answerCode, placeOnAdapter, splitCommand, type ReportFinding } from '../../client/src/probe/probeFindings';

test('splitCommand: words, quotes, escapes; an unclosed quote or nothing is an error', () => {
  assert.deepEqual(splitCommand('node server.js --root /tmp/x'), ['node', 'server.js', '--root', '/tmp/x']);
  assert.deepEqual(splitCommand(`  node "my server.js" 'a "b"' c\\ d "e\\"f" ''  `), ['node', 'my server.js', 'a "b"', 'c d', 'e"f', '']);
  assert.deepEqual(splitCommand('node "x'), { error: 'unclosed " quote' });
  assert.deepEqual(splitCommand('   '), { error: 'no command' });
});

const ADAPTER = [
  'name: notes',
  'operations:',
  '  read:',
  '    - name: get_note',
  '      params:',
  '        note_id: { type: string, required: true }',
  'error_codes:',
  '  NOT_FOUND_NOTE:',
  '    category: NOT_FOUND',
].join('\n');

const req = (id: number, args: object) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'mcp_aql_read', arguments: args } });
const envelope = (code: string) => JSON.stringify({ success: false, error: { code, message: 'm', details: {} } });
const answer = (id: number, text: string, isError = true) =>
  JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }], isError } });

test('answerCode: envelope in text, structuredContent, question-style JSON-RPC error; none for plain text', () => {
  assert.equal(answerCode(JSON.parse(answer(1, envelope('NOT_FOUND_NOTE')))), 'NOT_FOUND_NOTE');
  assert.equal(answerCode({ result: { content: [], structuredContent: { success: false, error: { code: 'X_Y' } } } }), 'X_Y');
  assert.equal(answerCode({ error: { code: -32002, message: 'Question: …', data: { mcp_aql_code: 'Q_CODE' } } }), 'Q_CODE');
  assert.equal(answerCode(JSON.parse(answer(1, 'Error: nope', false))), undefined);
  assert.equal(answerCode('garbage'), undefined);
});

test('findings land on the code declaration, else the operation, else the first line', () => {
  const transcript = [
    req(1, { operation: 'get_note', params: { note_id: 'x' } }),
    answer(1, envelope('NOT_FOUND_NOTE')),
    req(2, { operation: 'get_note', params: {} }),
    answer(2, 'Error: Missing', false),
    req(3, { operation: 'nope', params: {} }),
    answer(3, envelope('UNDECLARED_CODE')),
    req(4, { operation: 'get_note', params: {} }),
    '',
  ].join('\n');
  const f = (line: number, code: string): ReportFinding => ({
    line,
    column: 1,
    endLine: line,
    endColumn: 2,
    severity: 'error',
    code,
    message: 'msg',
  });
  const placed = placeOnAdapter(
    transcript,
    [f(2, 'runtime.wrong-category'), f(4, 'runtime.unflagged-failure'), f(6, 'verify.unknown-code'), f(7, 'runtime.no-answer')],
    ADAPTER,
  );
  const lines = ADAPTER.split('\n');
  assert.deepEqual(
    placed.map(p => [p.code, p.line, lines[p.line]!.slice(p.character, p.endCharacter), p.message]),
    [
      ['runtime.wrong-category', 7, 'NOT_FOUND_NOTE', 'probe, mcp_aql_read get_note (transcript line 2): msg'],
      ['runtime.unflagged-failure', 3, 'get_note', 'probe, mcp_aql_read get_note (transcript line 4): msg'],
      ['verify.unknown-code', 0, 'name: notes', 'probe, mcp_aql_read nope (transcript line 6): msg'],
      ['runtime.no-answer', 3, 'get_note', 'probe, mcp_aql_read get_note (transcript line 7): msg'],
    ],
  );
});

test('hostile transcripts and codes with regex characters place on the first line without throwing', () => {
  const transcript = [req(1, { operation: 'a.*' }), answer(1, envelope('(.*)')), '{not json', ''].join('\n');
  const f = (line: number): ReportFinding => ({
    line,
    column: 1,
    endLine: line,
    endColumn: 1,
    severity: 'warning',
    code: 'x',
    message: 'm',
  });
  assert.deepEqual(
    placeOnAdapter(transcript, [f(2), f(3), f(99)], ADAPTER).map(p => p.line),
    [0, 0, 0],
  );
});
