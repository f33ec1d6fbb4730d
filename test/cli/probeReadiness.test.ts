/**
 * `probe --config <file> --all --format markdown|html`: the error-readiness table (docs/cli.md, "The
 * error-readiness table"), a row per server — the example server clean (A), with its `is-error` slip (C),
 * and a command that cannot start (F, with why). Real child processes; the CLI in-process.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { failedRow, gradeOf, readinessMarkdown, readinessRow } from '../../server/src/cli/runtime/probe/readiness';
import { ROOT, run, tempTree } from './helpers';

const SERVER = join(ROOT, 'examples/server/server.mjs');
const EVIL = '<script>alert(1)</script>';
const CONFIG = JSON.stringify({
  servers: {
    notes: { command: process.execPath, args: [SERVER] },
    [EVIL]: { command: process.execPath, args: [SERVER, '--slip', 'is-error'] },
    gone: { command: join(ROOT, 'test/fixtures/runtime/no-such-server') },
  },
});
const ARGS = ['probe', '--contract', join(ROOT, 'examples/server'), '--config', 'mcp.json', '--all', '--format'];

async function probeAs(format: string) {
  const dir = tempTree({ 'mcp.json': CONFIG });
  try {
    return await run([...ARGS, format], dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test(
  'markdown: a row per server with its revision, tools called, calls sent, findings per rule and grade',
  { timeout: 60_000 },
  async () => {
    const r = await probeAs('markdown');
    // A server that could not be started: exit 2, as in every format; its row is still written.
    assert.equal(r.code, 2, r.err);
    const rows = r.out.split('\n').filter(l => l.startsWith('| '));
    assert.deepEqual(rows, [
      '| Server | Protocol | Tools called | Calls sent | Findings per rule | Errors | Warnings | Grade | Notes |',
      '| notes | `2025-11-25` (handshake era) | 1 of 2 | 7 of 7 | none | 0 | 0 | A |  |',
      '| \\<script\\>alert\\(1\\)\\</script\\> | `2025-11-25` (handshake era) | 1 of 2 | 7 of 7 | `runtime.unflagged-failure` 6 | 6 | 0 | C |  |',
      rows[3]!,
    ]);
    // Why: the session's error (a command not found: its ENOENT), and the server's last stderr line when it wrote one.
    assert.match(
      rows[3]!,
      /^\| gone \| — \| — \| — \| — \| — \| — \| F \| cannot start 'gone' as an MCP server: spawn .*no-such-server ENOENT \|$/,
    );
    assert.match(r.out, /^## MCP error readiness\n/);
    assert.match(
      r.out,
      /\n3 servers: 1 A, 1 C, 1 F\. Grades — A: no finding at error or warning level; B: warnings, no error; C: at least one error; F: could not be started or reached\.\n$/,
    );
    assert.match(r.err, /cannot start 'gone' as an MCP server/);
  },
);

test('html: one self-contained page, every server string escaped', { timeout: 60_000 }, async () => {
  const r = await probeAs('html');
  assert.equal(r.code, 2, r.err);
  assert.match(r.out, /^<!doctype html>\n/);
  assert.ok(r.out.includes(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`));
  // The only tags are ours: no script, no element from the server's name.
  assert.ok(!/<script/i.test(r.out), 'no script element');
  assert.ok(r.out.includes('<th scope="row">&lt;script&gt;alert(1)&lt;/script&gt;</th>'));
  assert.ok(
    r.out.includes(
      '<tr><th scope="row">notes</th><td><code>2025-11-25</code> (handshake era)</td><td>1 of 2</td><td>7 of 7</td><td>none</td><td>0</td><td>0</td><td class="grade A">A</td><td></td></tr>',
    ),
  );
  assert.ok(r.out.includes('<td><code>runtime.unflagged-failure</code> 6</td><td>6</td><td>0</td><td class="grade C">C</td>'));
  assert.match(
    r.out,
    /<th scope="row">gone<\/th>(<td>—<\/td>){6}<td class="grade F">F<\/td><td>cannot start &#39;gone&#39; as an MCP server: /,
  );
  assert.ok(!/\b(src|href)=/.test(r.out), 'no external resource');
});

test(
  'one server: one row, its row in the JSON report too; markdown and html are probe formats only, not with --list',
  { timeout: 60_000 },
  async () => {
    const one = await run([
      'probe',
      '--contract',
      'examples/server',
      '--format',
      'markdown',
      '--',
      process.execPath,
      'examples/server/server.mjs',
    ]);
    assert.equal(one.code, 0, one.err);
    const rows = one.out.split('\n').filter(l => l.startsWith('| '));
    assert.equal(rows.length, 2);
    assert.match(rows[1]!, /^\| .*server\.mjs \| `2025-11-25` \(handshake era\) \| 1 of 2 \| 7 of 7 \| none \| 0 \| 0 \| A \|  \|$/);
    assert.match(one.out, /\n1 server: 1 A\. /);
    // JSON keeps its array of files; each file's probe data carries its row.
    const json = await run([
      'probe',
      '--contract',
      'examples/server',
      '--format',
      'json',
      '--',
      process.execPath,
      'examples/server/server.mjs',
      '--slip',
      'is-error',
    ]);
    assert.equal(json.code, 1, json.err);
    const [file] = JSON.parse(json.out) as { probe: { readiness: Record<string, unknown> } }[];
    assert.deepEqual(file!.probe.readiness, {
      server: `${process.execPath} examples/server/server.mjs --slip is-error`,
      revision: '2025-11-25',
      era: 'handshake',
      toolsListed: 2,
      toolsCalled: 1,
      callsPlanned: 7,
      callsSent: 7,
      rules: [['runtime.unflagged-failure', 6]],
      errors: 6,
      warnings: 0,
      grade: 'C',
    });
    for (const [argv, message] of [
      [['watch', '--format', 'html', '--', 'x'], "unknown format 'html'"],
      [['check', '--format', 'markdown', 'examples'], "unknown format 'markdown'"],
      [['probe', '--list', '--format', 'markdown', '--', 'x'], 'probe: --list prints the plan as text or json, not the readiness table'],
    ] as const) {
      const r = await run([...argv]);
      assert.equal(r.code, 2, argv.join(' '));
      assert.ok(r.err.startsWith(`mcp-aql-errors: ${message}`), r.err);
    }
  },
);

test('the grade: B for warnings only, information and the session hint not counted; a cell cannot be split', () => {
  const d = (code: string, severity: 1 | 2 | 3 | 4) => ({
    code,
    severity,
    message: '',
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
  });
  const coverage = [
    { tool: 'a', listed: true, planned: 2, sent: 2, answered: 2, kinds: [], skipped: [] },
    { tool: 'b', listed: true, planned: 1, sent: 0, answered: 0, kinds: [], skipped: [] },
    { tool: 'nope', listed: false, planned: 1, sent: 1, answered: 1, kinds: [], skipped: [] },
  ];
  const row = readinessRow({
    server: 'a|b `x`',
    revision: '2026-07-28',
    era: 'stateless',
    diagnostics: [
      d('runtime.session', 4),
      d('verify.message-mismatch', 2),
      d('runtime.accepted-call', 2),
      d('verify.message-mismatch', 2),
      d('x.info', 3),
    ],
    coverage,
    exited: true,
    sandbox: true,
  });
  assert.deepEqual(
    [row.grade, row.errors, row.warnings, row.toolsCalled, row.toolsListed, row.callsSent, row.callsPlanned, row.note],
    ['B', 0, 3, 1, 2, 3, 4, 'the server exited during the run; in the sandbox'],
  );
  assert.deepEqual(row.rules, [
    ['runtime.accepted-call', 1],
    ['verify.message-mismatch', 2],
    ['x.info', 1],
  ]);
  assert.deepEqual([gradeOf(0, 0), gradeOf(0, 1), gradeOf(1, 0)], ['A', 'B', 'C']);
  const md = readinessMarkdown([row, failedRow('gone', 'cannot start: |\n::error::x')]);
  // Every row keeps its nine cells: a `|` or a line break in a server string is escaped.
  for (const line of md.split('\n').filter(l => l.startsWith('| '))) assert.equal(line.split(/(?<!\\)\|/).length - 2, 9, line);
  assert.ok(md.includes('| a\\|b \\`x\\` | `2026-07-28` (stateless era) | 1 of 2 | 3 of 4 |'), md);
  assert.ok(!/^\s*::/m.test(md), 'no workflow command');
});
