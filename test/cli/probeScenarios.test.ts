/** `probe --scenarios`: the user's calls sent after the plan's and judged against the outcomes they expect; a bad file sends nothing. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { run, tempTree } from './helpers';

const SERVER = ['--contract', 'examples/server', '--', process.execPath, 'examples/server/server.mjs'];
const SCENARIOS = [
  'scenarios:',
  '  - name: a note that does not exist',
  '    tool: mcp_aql_read',
  '    arguments: { operation: get_note, params: { note_id: n-404 } }',
  '    expect: failure',
  '    category: NOT_FOUND',
  '    channel: tool-result',
  '  - name: list the notes',
  '    tool: mcp_aql_read',
  '    arguments: { operation: list_notes, params: {} }',
  '    expect: success',
  '  - name: a success expected to fail',
  '    tool: mcp_aql_read',
  '    arguments: { operation: list_notes, params: {} }',
  '    expect: failure',
  '',
].join('\n');

test('scenarios: each sent once, the one whose expectation is wrong reported with its call', async () => {
  const dir = tempTree({ 'sc.yaml': SCENARIOS });
  try {
    const r = await run(['probe', '--format', 'json', '--scenarios', join(dir, 'sc.yaml'), ...SERVER]);
    assert.equal(r.code, 1, r.err);
    const [file] = JSON.parse(r.out) as {
      diagnostics: { code: string; message: string; call: number }[];
      probe: { calls: { n: number; kind: string; label: string; replay: string }[] };
    }[];
    const scenarios = file!.probe.calls.filter(c => c.kind === 'scenario');
    assert.deepEqual(
      scenarios.map(c => c.label),
      ["the scenario 'a note that does not exist'", "the scenario 'list the notes'", "the scenario 'a success expected to fail'"],
    );
    assert.deepEqual(
      file!.diagnostics.filter(d => d.code !== 'runtime.session').map(d => [d.code, d.message, file!.probe.calls[d.call - 1]!.label]),
      [
        [
          'runtime.scenario-mismatch',
          "Scenario 'a success expected to fail': expected a failure, got a success.",
          "the scenario 'a success expected to fail'",
        ],
      ],
    );
    assert.match(scenarios[2]!.replay, /^printf '%s\\n' .* \| \S+ examples\/server\/server\.mjs$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a scenarios file with mistakes: exit 2, each mistake at its line and column, nothing sent', async () => {
  const dir = tempTree({ 'bad.yaml': '- tool: mcp_aql_read\n  expect: nope\n- expect: failure\n', 'empty.yaml': '[]\n' });
  try {
    const r = await run(['probe', '--scenarios', 'bad.yaml', '--', process.execPath, '-e', 'throw 1'], dir);
    assert.equal(r.code, 2);
    assert.equal(
      r.err,
      "mcp-aql-errors: --scenarios: 2 mistakes in bad.yaml, nothing sent:\nbad.yaml:2:11: scenario 1: 'expect' is failure or success, not 'nope'\nbad.yaml:3:3: scenario 2: 'tool' is required\n",
    );
    const empty = await run(['probe', '--scenarios', 'empty.yaml', '--', process.execPath, '-e', 'throw 1'], dir);
    assert.equal(empty.code, 2);
    assert.equal(empty.err, 'mcp-aql-errors: --scenarios: empty.yaml holds no scenario\n');
    const missing = await run(['probe', '--scenarios', 'none.yaml', '--', process.execPath, '-e', 'throw 1'], dir);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /^mcp-aql-errors: cannot read 'none\.yaml'/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
