/**
 * The run behind "MCP-AQL: Probe a Server…", without the editor: the built CLI
 * against the example server with a slip, its findings placed on the example adapter's declarations.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runProbe } from '../../client/src/probe/runProbe';
import { alive, eventually } from '../processes';

const ROOT = join(__dirname, '..', '..');
const ADAPTER = join(ROOT, 'examples/server/notes.adapter.yaml');
const adapterText = readFileSync(ADAPTER, 'utf8');
const adapterLines = adapterText.split('\n');

test("the example server's findings land on the declarations they concern: the code when the adapter declares it, else the operation", async () => {
  for (const [slip, want] of [
    // An undeclared code is in no error_codes entry: the operation the call named carries it.
    [
      'undeclared-code',
      [
        'verify.unknown-code @ get_note',
        'verify.unknown-code @ get_note',
        'verify.unknown-code @ get_note',
        'verify.unknown-code @ get_note', // the note no one created: the server's own not-found path
        'verify.unknown-code @ list_notes',
      ],
    ],
    // A drifted message of a code the adapter declares lands on that code; of a registry code, on the operation.
    [
      'drift',
      [
        'verify.message-localized @ get_note',
        'verify.message-mismatch @ get_note',
        'verify.message-mismatch @ VALIDATION_NOT_ALLOWED',
        'verify.message-localized @ NOT_FOUND_NOTE', // the note no one created: the code the adapter declares
        'verify.message-mismatch @ list_notes',
      ],
    ],
  ] as const) {
    const r = await runProbe({
      cli: join(ROOT, 'dist/cli.js'),
      adapterPath: ADAPTER,
      adapterText,
      argv: [process.execPath, join(ROOT, 'examples/server/server.mjs'), '--slip', slip],
      cwd: ROOT,
    });
    assert.ok(r.ok, r.ok ? '' : r.error);
    try {
      const onDeclarations = r.placed
        .filter(p => p.line > 0)
        .map(p => `${p.code} @ ${adapterLines[p.line]!.slice(p.character, p.endCharacter)}`);
      assert.deepEqual(onDeclarations, want);
      assert.equal(r.findings.length, 6, 'every bad call has a finding, on the transcript');
      assert.match(r.placed[0]!.message, /^probe, mcp_aql_read mcp_aql_probe_no_such_operation \(transcript line 2\): /);
    } finally {
      rmSync(dirname(r.transcript), { recursive: true, force: true });
    }
  }
});

test('a command that does not start: a one-line reason, no transcript left to read', async () => {
  const probeDirs = () => readdirSync(tmpdir()).filter(n => n.startsWith('mcp-aql-probe-'));
  const before = probeDirs();
  const r = await runProbe({
    cli: join(ROOT, 'dist/cli.js'),
    adapterPath: ADAPTER,
    adapterText,
    argv: [join(ROOT, 'no-such-server')],
    cwd: ROOT,
  });
  assert.equal(r.ok, false);
  assert.match(r.ok ? '' : r.error, /^the probe did not run: cannot start '.*no-such-server' as an MCP server: .*ENOENT/);
  assert.deepEqual(probeDirs(), before, 'its temporary folder is removed');
});

test('Cancel while the server will not answer: the outcome says cancelled, the server is stopped, nothing is left', async () => {
  const probeDirs = () => readdirSync(tmpdir()).filter(n => n.startsWith('mcp-aql-probe-'));
  const before = probeDirs();
  const dir = mkdtempSync(join(tmpdir(), 'stubborn-'));
  const pidFile = join(dir, 'pid');
  let pid = 0;
  try {
    const ac = new AbortController();
    const outcome = runProbe({
      cli: join(ROOT, 'dist/cli.js'),
      adapterPath: ADAPTER,
      adapterText,
      argv: [process.execPath, join(ROOT, 'test/fixtures/runtime/stubbornServer.js')],
      cwd: ROOT,
      signal: ac.signal,
      env: { STUBBORN_PID: pidFile },
    });
    assert.ok(await eventually(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '', 30_000), 'the server started');
    pid = Number(readFileSync(pidFile, 'utf8'));
    ac.abort();
    const r = await outcome;
    assert.deepEqual(r.ok ? 'ok' : { error: r.error, cancelled: r.cancelled }, { error: 'the probe was cancelled', cancelled: true });
    assert.ok(await eventually(() => !alive(pid), 10_000), `the server (pid ${pid}) is still running`);
    assert.deepEqual(probeDirs(), before, 'its temporary folder is removed');
  } finally {
    if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
