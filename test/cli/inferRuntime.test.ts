/**
 * `probe --infer P` and `watch --infer P` (docs/cli.md, "Inferring a contract"): after the session, the
 * contract inferred from the failures seen is written to P (merged into P when it is there, every byte
 * of it kept); a file that cannot be merged into is refused and left as it was. The loop a server
 * author runs — probe, infer, edit, `probe --contract` in CI — on a real server, offline.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, run, tempDir } from './helpers';
import { msg, watch } from './watchRun';

const FS = join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const NOTES = join(ROOT, 'examples/server/server.mjs');

interface JsonReport {
  diagnostics: { code: string; severity: string; message: string }[];
}

test('probe --infer writes the contract of the failures seen; probe --contract holds the server to it, --infer again keeps every byte', async () => {
  const dir = tempDir();
  mkdirSync(join(dir, 'root'));
  writeFileSync(join(dir, 'root', 'present.txt'), 'here\n');
  const server = ['--', process.execPath, FS, join(dir, 'root')];
  const first = await run(['probe', '--infer', 'fs.adapter.yaml', ...server], dir);
  assert.equal(first.code, 0, first.err);
  assert.match(
    first.err,
    /\nmcp-aql-errors probe: --infer: \d+ failures, 3 kinds of failure; wrote fs\.adapter\.yaml; added NOT_FOUND_FILE, NOT_FOUND_TOOL, VALIDATION_ARGUMENTS_TOOL\n$/,
  );
  const c = await run(['check', '--format', 'json', 'fs.adapter.yaml'], dir);
  assert.equal(c.code, 0, c.out + c.err);
  assert.deepEqual(
    (JSON.parse(c.out) as JsonReport[]).flatMap(f => f.diagnostics),
    [],
  );
  // The author's edit: a comment of their own (kept by every later --infer).
  const edited = '# reviewed by hand\n' + readFileSync(join(dir, 'fs.adapter.yaml'), 'utf8');
  writeFileSync(join(dir, 'fs.adapter.yaml'), edited);
  const ci = await run(['probe', '--contract', 'fs.adapter.yaml', '--format', 'json', '--infer', 'fs.adapter.yaml', ...server], dir);
  assert.equal(ci.code, 0, ci.err);
  const ds = (JSON.parse(ci.out) as JsonReport[]).flatMap(f => f.diagnostics).filter(d => d.code !== 'runtime.session');
  assert.ok(ds.length > 0);
  // Every failure is one the contract documents: information naming its code, no warning, no error.
  for (const d of ds) {
    assert.equal(d.code, 'runtime.text-only-error', d.message);
    assert.equal(d.severity, 'info', d.message);
    assert.match(d.message, /: the contract's (NOT_FOUND_FILE|NOT_FOUND_TOOL|VALIDATION_ARGUMENTS_TOOL) \(its template\)/);
  }
  assert.match(
    ci.err,
    /--infer: \d+ failures, 3 kinds of failure; merged into fs\.adapter\.yaml; kept as written NOT_FOUND_FILE, NOT_FOUND_TOOL, VALIDATION_ARGUMENTS_TOOL\n$/,
  );
  assert.equal(readFileSync(join(dir, 'fs.adapter.yaml'), 'utf8'), edited);
});

test('probe --infer: not with --all, not with --list; a JSON adapter there is refused (exit 2) and left as it was', async () => {
  const dir = tempDir();
  const all = await run(['probe', '--all', '--config', 'mcp.json', '--infer', 'x.adapter.yaml'], dir);
  assert.equal(all.code, 2);
  assert.match(all.err, /probe: --infer writes the contract of one server, not of --all/);
  const list = await run(['probe', '--list', '--infer', 'x.adapter.yaml', '--', process.execPath, NOTES], dir);
  assert.equal(list.code, 2);
  assert.match(list.err, /probe: --list sends nothing: there is no failure to --infer from/);
  const json = '{ "name": "notes", "error_codes": {} }\n';
  writeFileSync(join(dir, 'notes.adapter.json'), json);
  const r = await run(['probe', '--infer', 'notes.adapter.json', '--', process.execPath, NOTES], dir);
  assert.equal(r.code, 2, r.err);
  assert.match(
    r.err,
    /cannot write --infer 'notes\.adapter\.json': the adapter to merge into is JSON; --merge writes commented YAML entries/,
  );
  assert.equal(readFileSync(join(dir, 'notes.adapter.json'), 'utf8'), json);
});

/** A host's session with the example server: the handshake, then calls that fail. */
function session(ids: string[]): Buffer[] {
  const out = [
    msg({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    }),
    msg({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  ];
  ids.forEach((id, i) =>
    out.push(
      msg({
        jsonrpc: '2.0',
        id: i + 1,
        method: 'tools/call',
        params: { name: 'mcp_aql_read', arguments: { operation: 'get_note', params: { note_id: id } } },
      }),
    ),
  );
  out.push(msg({ jsonrpc: '2.0', id: 99, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } }));
  return out.map(s => Buffer.from(s));
}

test('watch --infer: the traffic passing through gives the contract when the session ends; the server exit code stays ours', async () => {
  const dir = tempDir();
  const r = await watch(['--infer', 'notes.adapter.yaml', '--', process.execPath, NOTES], session(['x1', 'draft-2']), { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /mcp-aql-errors watch: --infer: 3 failures, 2 kinds of failure; wrote notes\.adapter\.yaml; added NOT_FOUND_NOTE, NOT_FOUND_TOOL\n/,
  );
  const written = readFileSync(join(dir, 'notes.adapter.yaml'), 'utf8');
  assert.match(written, /^name: notes$/m);
  assert.match(written, /NOT_FOUND_NOTE:\n {4}category: NOT_FOUND\n/);
  const c = await run(['check', '--format', 'json', 'notes.adapter.yaml'], dir);
  assert.deepEqual(
    (JSON.parse(c.out) as JsonReport[]).flatMap(f => f.diagnostics),
    [],
  );
  // A second session with other ids: verified against the first one's contract, nothing to add.
  const again = await watch(
    ['--contract', 'notes.adapter.yaml', '--infer', 'notes.adapter.yaml', '--', process.execPath, NOTES],
    session(['q7']),
    {
      cwd: dir,
    },
  );
  assert.equal(again.code, 0, again.stderr);
  assert.match(
    again.stderr,
    /--infer: 2 failures, 2 kinds of failure; merged into notes\.adapter\.yaml; kept as written NOT_FOUND_NOTE, NOT_FOUND_TOOL\n/,
  );
  assert.match(again.stderr, /mcp-aql-errors watch: 2 tool calls checked, 0 findings/);
  assert.equal(readFileSync(join(dir, 'notes.adapter.yaml'), 'utf8'), written);
});

test('watch --infer: nothing failed, nothing written; a file it cannot merge into is said and left as it was', async () => {
  const dir = tempDir();
  const quiet = await watch(['--infer', 'none.adapter.yaml', '--', process.execPath, NOTES], session([]).slice(0, 2), { cwd: dir });
  assert.equal(quiet.code, 0, quiet.stderr);
  assert.match(quiet.stderr, /mcp-aql-errors watch: --infer: no failure seen, none\.adapter\.yaml not written\n/);
  writeFileSync(join(dir, 'list.adapter.yaml'), '- a\n');
  const bad = await watch(['--infer', 'list.adapter.yaml', '--', process.execPath, NOTES], session(['x1']), { cwd: dir });
  assert.equal(bad.code, 0, bad.stderr);
  assert.match(
    bad.stderr,
    /mcp-aql-errors watch: cannot write --infer 'list\.adapter\.yaml': the adapter to merge into is not a YAML mapping\n/,
  );
  assert.equal(readFileSync(join(dir, 'list.adapter.yaml'), 'utf8'), '- a\n');
});

test("docs/cli.md's loop (probe --infer → edit → check → probe --contract in CI), command by command, on the filesystem server", async () => {
  const doc = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8');
  const at = doc.indexOf('The loop a server author runs');
  assert.ok(at > 0, 'docs/cli.md shows the loop');
  const block = /```sh\n([\s\S]*?)```/.exec(doc.slice(at))![1]!;
  const commands = block
    .split('\n')
    .filter(l => l.startsWith('npx mcp-aql-errors '))
    .map(l => l.replace(/#.*$/, '').trim().split(/\s+/).slice(2));
  assert.deepEqual(
    commands.map(c => c[0]),
    ['probe', 'check', 'probe'],
  );
  const dir = tempDir();
  mkdirSync(join(dir, 'root'));
  mkdirSync(join(dir, 'adapters'));
  // `node dist/server.js` in the docs is the server under test: here the filesystem server on a folder.
  const server = (c: string[]) => {
    const dashes = c.indexOf('--');
    return dashes < 0 ? c : [...c.slice(0, dashes), '--', process.execPath, FS, join(dir, 'root')];
  };
  const [infer, check, ci] = commands.map(server);
  const first = await run(infer!, dir);
  assert.equal(first.code, 0, first.err);
  assert.match(first.err, /--infer: \d+ failures, 3 kinds of failure; wrote adapters\/server\.adapter\.yaml/);
  const c = await run(check!, dir);
  assert.equal(c.code, 0, c.out + c.err);
  assert.match(c.out, /No problems in 1 adapter file/);
  const r = await run(ci!, dir);
  assert.equal(r.code, 0, r.err);
  const sarif = JSON.parse(readFileSync(join(dir, 'probe.sarif'), 'utf8')) as { runs: { results: { ruleId: string; level: string }[] }[] };
  const results = sarif.runs.flatMap(x => x.results).filter(x => x.ruleId !== 'runtime.session');
  assert.ok(results.length > 0);
  assert.deepEqual([...new Set(results.map(x => `${x.ruleId} ${x.level}`))], ['runtime.text-only-error note']);
});
