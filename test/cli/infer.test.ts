/**
 * `infer` (docs/cli.md, "Inferring a contract"): transcripts → an adapter on stdout or in a file, a merge
 * that keeps what was written, usage errors, and no write through a symbolic link. The round trip of
 * the written file through `check` and `verify`, as a user runs it.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, run, tempDir } from './helpers';

const FIX = join(ROOT, 'test/fixtures/transcripts');

test('infer prints the adapter of a transcript; the summary on stderr', async () => {
  const r = await run(['infer', join(FIX, 'memory.a.jsonl'), '--name', 'memory']);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out, readFileSync(join(FIX, 'memory.inferred.adapter.yaml'), 'utf8'));
  assert.equal(
    r.err,
    'mcp-aql-errors infer: 5 failures in 1 transcript, 3 kinds of failure; added NOT_FOUND_ENTITY, NOT_FOUND_TOOL, VALIDATION_ARGUMENTS_TOOL\n',
  );
});

test('-o writes the file; check finds nothing in it; the second session verifies against it with no finding', async () => {
  const dir = tempDir();
  const out = join(dir, 'fs.adapter.yaml');
  const r = await run(['infer', join(FIX, 'filesystem.a.jsonl'), '-o', out]);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out, '');
  const c = await run(['check', '--format', 'json', out]);
  assert.equal(c.code, 0, c.out + c.err);
  assert.deepEqual(
    (JSON.parse(c.out) as { diagnostics: unknown[] }[]).flatMap(f => f.diagnostics),
    [],
  );
  const v = await run(['verify', '--format', 'json', out, join(FIX, 'filesystem.b.jsonl')]);
  assert.equal(v.code, 0, v.out + v.err);
  assert.deepEqual(
    (JSON.parse(v.out) as { diagnostics: unknown[] }[]).flatMap(f => f.diagnostics),
    [],
  );
});

test('--merge keeps the written entries, adds the new ones and writes back to the merged file', async () => {
  const dir = tempDir();
  const mine = join(dir, 'notes.adapter.yaml');
  const hand =
    '# mine\nname: notes\nerror_codes:\n  NOT_FOUND_NOTE: # by hand\n    category: NOT_FOUND\n    message_template: "No note \'{note_id}\'"\n    details: { note_id: string }\n';
  writeFileSync(mine, hand);
  const r = await run(['infer', join(FIX, 'notes.a.jsonl'), '--merge', mine]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /; added NOT_FOUND_TOOL, VALIDATION_NOT_ALLOWED; kept as written NOT_FOUND_NOTE\n$/);
  const after = readFileSync(mine, 'utf8');
  assert.ok(after.startsWith(hand), after);
  assert.match(after.slice(hand.length), /^ {2}# Seen once \(no_such_tool\): JSON-RPC error -32602\.\n/);
});

test('no write through a symbolic link; bad input is a usage error (exit 2)', async () => {
  const dir = tempDir();
  const target = join(dir, 'real.yaml');
  writeFileSync(target, 'name: x\n');
  const link = join(dir, 'link.adapter.yaml');
  symlinkSync(target, link);
  const r = await run(['infer', join(FIX, 'notes.a.jsonl'), '-o', link]);
  assert.equal(r.code, 2);
  assert.match(r.err, /cannot write -o '.*link\.adapter\.yaml': a symbolic link, never written through/);
  assert.equal(readFileSync(target, 'utf8'), 'name: x\n');
  // The one writer's rules (safeWrite.ts): not into a folder that a link inside the working directory leads out of.
  const outside = tempDir();
  symlinkSync(outside, join(dir, 'out'));
  const viaLink = await run(['infer', join(FIX, 'notes.a.jsonl'), '-o', 'out/notes.adapter.yaml'], dir);
  assert.equal(viaLink.code, 2, viaLink.err);
  assert.match(viaLink.err, /its folder is reached through a symbolic link leading outside the working directory/);
  assert.ok(!existsSync(join(outside, 'notes.adapter.yaml')), 'nothing written outside');
  const none = await run(['infer']);
  assert.equal(none.code, 2);
  assert.match(none.err, /infer needs a transcript/);
  const missing = await run(['infer', join(dir, 'nope.jsonl')]);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /cannot read transcript/);
  writeFileSync(join(dir, 'list.yaml'), '- a\n');
  const notMap = await run(['infer', join(FIX, 'notes.a.jsonl'), '--merge', join(dir, 'list.yaml')]);
  assert.equal(notMap.code, 2);
  assert.match(notMap.err, /the adapter to merge into is not a YAML mapping/);
  assert.equal(readFileSync(join(dir, 'list.yaml'), 'utf8'), '- a\n');
  const badName = await run(['infer', join(FIX, 'notes.a.jsonl'), '--name', 'Bad Name']);
  assert.equal(badName.code, 2);
  assert.ok(!existsSync(join(dir, 'Bad Name')));
});

// The round trip a server author runs, on every recorded server (test/fixtures/transcripts/README.md):
// the example server and six npm servers, their failures reaching the servers' own code offline.
const RECORDED = ['notes', 'filesystem', 'memory', 'everything', 'github', 'slack', 'postgres', 'sequential-thinking'];
for (const server of RECORDED)
  test(`${server}: infer from session a, check clean, verify session b with no finding, diff a→b no change`, async () => {
    const dir = tempDir();
    const a = join(dir, 'a.adapter.yaml');
    const b = join(dir, 'b.adapter.yaml');
    for (const [session, out] of [
      ['a', a],
      ['b', b],
    ] as const) {
      const r = await run(['infer', join(FIX, `${server}.${session}.jsonl`), '--name', server, '-o', out]);
      assert.equal(r.code, 0, r.err);
    }
    assert.equal(readFileSync(a, 'utf8'), readFileSync(join(FIX, `${server}.inferred.adapter.yaml`), 'utf8'));
    const findings = (out: string) => (JSON.parse(out) as { diagnostics: unknown[] }[]).flatMap(f => f.diagnostics);
    const c = await run(['check', '--format', 'json', a]);
    assert.equal(c.code, 0, c.out + c.err);
    assert.deepEqual(findings(c.out), []);
    const v = await run(['verify', '--format', 'json', a, join(FIX, `${server}.b.jsonl`)]);
    assert.equal(v.code, 0, v.out + v.err);
    assert.deepEqual(findings(v.out), []);
    const d = await run(['diff', a, b]);
    assert.equal(d.code, 0, d.out + d.err);
    assert.match(d.out, /: no change to the error contract\n$/);
  });

test('diff between contracts inferred from two versions of a server: a new kind of failure is a safe addition', async () => {
  const dir = tempDir();
  const v1 = join(dir, 'v1.adapter.yaml');
  const v2 = join(dir, 'v2.adapter.yaml');
  // Version 2 of the postgres server is the same server that also answers an unknown tool: session a
  // without that call stands in for version 1.
  const lines = readFileSync(join(FIX, 'postgres.a.jsonl'), 'utf8').split('\n');
  writeFileSync(join(dir, 'v1.jsonl'), lines.slice(0, 4).join('\n') + '\n');
  assert.equal((await run(['infer', join(dir, 'v1.jsonl'), '--name', 'postgres', '-o', v1])).code, 0);
  assert.equal((await run(['infer', join(FIX, 'postgres.a.jsonl'), '--name', 'postgres', '-o', v2])).code, 0);
  const d = await run(['diff', '--format', 'json', v1, v2]);
  assert.equal(d.code, 0, d.err);
  const { summary, changes } = JSON.parse(d.out) as { summary: object; changes: { rule: string; severity: string; code: string }[] };
  assert.deepEqual(summary, { breaking: 0, dangerous: 0, safe: 1 });
  assert.deepEqual(
    changes.map(c => [c.rule, c.severity, c.code]),
    [['code.added', 'safe', 'NOT_FOUND_TOOL']],
  );
});

test('--merge into a JSON adapter: exit 2, the reason, and the file as it was', async () => {
  const dir = tempDir();
  const json = join(dir, 'notes.adapter.json');
  const text = '{\n  "name": "notes",\n  "error_codes": {}\n}\n';
  writeFileSync(json, text);
  const r = await run(['infer', join(FIX, 'notes.a.jsonl'), '--merge', json]);
  assert.equal(r.code, 2);
  assert.match(r.err, /--merge '.*notes\.adapter\.json': the adapter to merge into is JSON; --merge writes commented YAML entries/);
  assert.equal(readFileSync(json, 'utf8'), text);
});
