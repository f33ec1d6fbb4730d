/**
 * `probe --config <file> --all --record <file>`: one transcript per server, the server's name before
 * `.responses.jsonl` (docs/cli.md, "probe"), each one `verify` reads as is and the report points into;
 * two names that would make the same file are refused before anything starts.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { recordFileOf } from '../../server/src/cli/runtime/probe/command';
import { ROOT, run, tempTree } from './helpers';

const SERVER = join(ROOT, 'examples/server/server.mjs');
const CONTRACT = ['--contract', join(ROOT, 'examples/server')];

test('the file of each server: its name before .responses.jsonl, else before the last extension', () => {
  assert.equal(recordFileOf('rec.responses.jsonl', false, 'notes'), 'rec.responses.jsonl');
  assert.equal(recordFileOf('rec.responses.jsonl', true, 'notes'), 'rec.notes.responses.jsonl');
  assert.equal(recordFileOf('out/rec.jsonl', true, 'notes'), 'out/rec.notes.jsonl');
  assert.equal(recordFileOf('out.d/rec', true, 'my server/1'), 'out.d/rec.my_server_1');
  assert.equal(recordFileOf('.hidden', true, 'a'), '.hidden.a');
});

test('--all --record: a transcript per server, verify reads each as is, the text report cites each', { timeout: 60_000 }, async () => {
  const config = JSON.stringify({
    servers: {
      notes: { command: process.execPath, args: [SERVER] },
      slipped: { command: process.execPath, args: [SERVER, '--slip', 'is-error'] },
    },
  });
  const dir = tempTree({ 'mcp.json': config });
  try {
    const r = await run(['probe', ...CONTRACT, '--config', 'mcp.json', '--all', '--record', 'runs/probe.responses.jsonl'], dir);
    assert.equal(r.code, 1, r.err);
    assert.deepEqual(readdirSync(join(dir, 'runs')).sort(), ['probe.notes.responses.jsonl', 'probe.slipped.responses.jsonl']);
    for (const name of ['notes', 'slipped']) {
      const lines = readFileSync(join(dir, 'runs', `probe.${name}.responses.jsonl`), 'utf8')
        .trim()
        .split('\n');
      assert.equal(lines.length, 14, `${name}: 7 calls and their answers`);
      for (const l of lines) assert.equal((JSON.parse(l) as { jsonrpc: string }).jsonrpc, '2.0');
    }
    assert.match(r.out, /^# notes\n/);
    // verify reads each transcript as is (the example server's answers carry nothing verify objects to).
    const v = await run(['verify', join(ROOT, 'examples/server'), 'runs/probe.slipped.responses.jsonl', '--format', 'json'], dir);
    assert.equal(v.code, 0, v.err);
    assert.deepEqual(
      (JSON.parse(v.out) as { file: string }[]).map(f => f.file),
      ['runs/probe.slipped.responses.jsonl'],
    );
    // The first position cited for the slipped server is an answer line of its own file.
    const at = /\n {4}in runs\/probe\.slipped\.responses\.jsonl at (\d+):\d+/.exec(r.out)!;
    const line = readFileSync(join(dir, 'runs/probe.slipped.responses.jsonl'), 'utf8').split('\n')[Number(at[1]) - 1]!;
    assert.ok('result' in (JSON.parse(line) as object), line);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--all --record: two servers whose names make one file are refused, nothing started or written', async () => {
  const marker = (n: string) => ['-e', `require('fs').writeFileSync(${JSON.stringify(n)}, 'x')`];
  const dir = tempTree({});
  try {
    const config = JSON.stringify({
      servers: {
        'a b': { command: process.execPath, args: marker(join(dir, 'started1')) },
        a_b: { command: process.execPath, args: marker(join(dir, 'started2')) },
      },
    });
    const cfg = tempTree({ 'mcp.json': config });
    try {
      const r = await run(['probe', '--config', join(cfg, 'mcp.json'), '--all', '--record', 'rec.responses.jsonl'], dir);
      assert.equal(r.code, 2);
      assert.equal(
        r.err,
        "mcp-aql-errors: probe --record: the servers 'a b' and 'a_b' would both be recorded in rec.a_b.responses.jsonl\n",
      );
      assert.deepEqual(readdirSync(dir), []);
    } finally {
      rmSync(cfg, { recursive: true, force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--record with one server keeps the name it was given', async () => {
  const dir = tempTree({ 'mcp.json': JSON.stringify({ servers: { notes: { command: process.execPath, args: [SERVER] } } }) });
  try {
    const r = await run(['probe', ...CONTRACT, '--config', 'mcp.json', '--all', '--record', 'one.jsonl'], dir);
    assert.equal(r.code, 0, r.err);
    assert.ok(existsSync(join(dir, 'one.jsonl')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
