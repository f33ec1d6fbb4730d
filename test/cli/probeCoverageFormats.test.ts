/**
 * The probe's coverage in the report formats `check` also writes (docs/cli.md, "probe"): JUnit a
 * testsuite with a testcase per call and a skipped one per call or tool left out, GitHub a notice with
 * the summary and a line per tool, compact a line per tool; checkstyle and Code Climate none (every
 * element they hold is an issue). Server strings cannot forge a workflow command or break the XML.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { ROOT, run, tempTree } from './helpers';

const BAD = join(ROOT, 'test/fixtures/runtime/badServer.mjs');
const QUIET = ['--', process.execPath, BAD, 'quiet'];
const SUMMARY =
  '4 of 4 calls sent, to 1 of 1 listed tool and an unknown tool; 0 tools not called, 0 kinds of call left out (the coverage says why)';

test('junit: a coverage testsuite per server, a passing testcase per call answered; the root counts them', async () => {
  const r = await run(['probe', '--format', 'junit', ...QUIET]);
  assert.equal(r.code, 0, r.err);
  const suite = r.out.slice(r.out.indexOf('  <testsuite name="probe coverage'));
  assert.equal(
    suite,
    '  <testsuite name="probe coverage: probe.responses.jsonl" tests="4" failures="0" errors="0" skipped="0" time="0">\n' +
      '    <properties>\n' +
      `      <property name="summary" value="${SUMMARY}"/>\n` +
      '    </properties>\n' +
      '    <testcase classname="quiet" name="call 1: a missing required parameter &apos;id&apos;" time="0"/>\n' +
      '    <testcase classname="quiet" name="call 2: parameter &apos;id&apos; of the wrong type (not string)" time="0"/>\n' +
      '    <testcase classname="quiet" name="call 3: an id that does not exist in &apos;id&apos;" time="0"/>\n' +
      '    <testcase classname="mcp_aql_probe_no_such_tool" name="call 4: an unknown tool &apos;mcp_aql_probe_no_such_tool&apos;" time="0"/>\n' +
      '  </testsuite>\n' +
      '</testsuites>\n',
  );
  // The findings' suite (5 testcases: the session hint and 4 accepted calls) and the coverage's 4.
  assert.match(r.out, /^<testsuites name="mcp-aql-errors" tests="9" failures="4" /m);
  assert.equal((r.out.match(/<testcase /g) ?? []).length, 9);
});

test('junit: calls with no answer and calls not sent after a crash are skipped testcases, with why', async () => {
  const r = await run(['probe', '--timeout', '300', '--format', 'junit', '--', process.execPath, BAD]);
  assert.equal(r.code, 1, r.err);
  const suite = r.out.slice(r.out.indexOf('  <testsuite name="probe coverage'));
  assert.match(
    suite,
    /^ {2}<testsuite name="probe coverage: probe\.responses\.jsonl" tests="10" failures="0" errors="0" skipped="7" time="0">/,
  );
  const skips = [...suite.matchAll(/<testcase classname="(\w+)" name="([^"]+)" time="0">\n\s+<skipped message="([^"]+)"\/>/g)].map(
    m => `${m[1]} | ${m[2]} | ${m[3]}`,
  );
  assert.deepEqual(skips, [
    'hang | call 4: a missing required parameter &apos;id&apos; | sent, no answer',
    'hang | call 5: parameter &apos;id&apos; of the wrong type (not string) | sent, no answer',
    'hang | call 6: an id that does not exist in &apos;id&apos; | sent, no answer',
    'crash | call 7: a missing required parameter &apos;id&apos; | sent, no answer',
    'crash | a planned call not sent (1 of 2) | not sent: the server exited',
    'crash | a planned call not sent (2 of 2) | not sent: the server exited',
    'mcp_aql_probe_no_such_tool | a planned call not sent (1 of 1) | not sent: the server exited',
  ]);
});

test('junit: a tool left out is a skipped testcase with the reason (the memory server: its write tools)', async () => {
  const dir = tempTree({});
  try {
    const r = await run(
      [
        'probe',
        '--format',
        'junit',
        '--',
        '/usr/bin/env',
        `MEMORY_FILE_PATH=${join(dir, 'm.jsonl')}`,
        process.execPath,
        join(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js'),
      ],
      dir,
    );
    assert.equal(r.code, 0, r.err);
    assert.match(
      r.out,
      / {4}<testcase classname="create_entities" name="not called" time="0">\n {6}<skipped message="not marked read-only \(annotations\.readOnlyHint\), not a read operation; --sandbox or --allow-writes calls it"\/>\n {4}<\/testcase>\n/,
    );
    assert.match(
      r.out,
      / {4}<testcase classname="search_nodes" name="not-found left out" time="0">\n {6}<skipped message="no parameter names a path, URI, URL or id the probe can make up"\/>/,
    );
    assert.match(
      r.out,
      /<testsuite name="probe coverage: probe\.responses\.jsonl" tests="15" failures="0" errors="0" skipped="10" time="0">/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('github: the annotations, then one notice with the summary and a line per tool', async () => {
  const r = await run(['probe', '--format', 'github', ...QUIET]);
  assert.equal(r.code, 0, r.err);
  const lines = r.out.trimEnd().split('\n');
  assert.equal(lines.length, 6, 'five annotations and the notice');
  assert.equal(
    lines[5],
    `::notice title=probe coverage::${SUMMARY}%0Aquiet: 3 planned, 3 sent, 3 answered (missing-required, wrong-type, not-found)%0Amcp_aql_probe_no_such_tool: 1 planned, 1 sent, 1 answered (unknown-tool)`,
  );
});

test('compact: after the problems and their count, a coverage line for the summary and one per tool', async () => {
  const r = await run(['probe', '--format', 'compact', ...QUIET]);
  assert.equal(r.code, 0, r.err);
  assert.ok(
    r.out.endsWith(
      '\n5 problems\n\n' +
        `probe.responses.jsonl: coverage, ${SUMMARY}\n` +
        'probe.responses.jsonl: coverage, quiet: 3 planned, 3 sent, 3 answered (missing-required, wrong-type, not-found)\n' +
        'probe.responses.jsonl: coverage, mcp_aql_probe_no_such_tool: 1 planned, 1 sent, 1 answered (unknown-tool)\n',
    ),
    r.out,
  );
});

test('checkstyle and codeclimate carry no coverage: everything they hold is an issue an importer counts', async () => {
  for (const format of ['checkstyle', 'codeclimate']) {
    const r = await run(['probe', '--format', format, ...QUIET]);
    assert.equal(r.code, 0, r.err);
    assert.ok(!/coverage|planned/.test(r.out), format);
  }
});

/** A server whose tool names try to forge workflow commands, close the XML and move the cursor. */
const HOSTILE = `
const names = ['::error::forged', 'a\\n::warning::x', '</testsuite><x a="', 'esc\\u001b[2J'];
let buf = '';
const out = m => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
process.stdin.on('data', c => {
  buf += c;
  for (let nl; (nl = buf.indexOf('\\n')) >= 0; ) {
    const m = JSON.parse(buf.slice(0, nl));
    buf = buf.slice(nl + 1);
    if (m.method === 'initialize')
      out({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'h', version: '1' } } });
    else if (m.method === 'tools/list')
      out({ id: m.id, result: { tools: names.map(name => ({ name, inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }, annotations: { readOnlyHint: true } })) } });
    else if ('id' in m) out({ id: m.id, result: { content: [{ type: 'text', text: 'no' }], isError: true } });
  }
});
`;

test('server strings in the coverage: no forged workflow command, no broken XML, no escape sequence', async () => {
  const dir = tempTree({ 'hostile.js': HOSTILE });
  try {
    const server = ['--', process.execPath, join(dir, 'hostile.js')];
    const junit = await run(['probe', '--format', 'junit', ...server], dir);
    assert.equal(junit.code, 0, junit.err);
    assert.ok(!junit.out.includes('</testsuite><x'), 'the name stays an attribute value');
    assert.ok(!junit.out.includes('\u001b'));
    assert.equal((junit.out.match(/<testsuite /g) ?? []).length, 2);
    for (const format of ['github', 'compact']) {
      const r = await run(['probe', '--format', format, ...server], dir);
      assert.equal(r.code, 0, r.err);
      assert.ok(!r.out.includes('\u001b'), format);
      if (format === 'github') assert.ok(r.out.includes('%0Aa\\n::warning::x: 2 planned'), "the name's line break shown, not kept");
      for (const line of r.out.split('\n'))
        if (/^\s*::/.test(line))
          assert.match(line, /^::(notice|warning|error) (file|title)=/, `${format}: only our own annotations start with ::`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
