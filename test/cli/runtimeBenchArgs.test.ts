/**
 * bench/runtimeBench.ts writes a transcript of a gigabyte and rewrites bench/runtime-results.json and bench/REPORT.md:
 * a mistyped option or `--help` must not start it, the transcript shrinks to fit the free disk, and the transcript it
 * writes is the recorded traffic again and again, every request with an id of its own.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fittingMb, readOptions, usageProblem, writeTranscript } from '../../bench/runtimeBench';
import { tempDir } from './helpers';

test('the run-time bench starts only on a command line it takes', () => {
  assert.equal(usageProblem([]), undefined);
  assert.equal(usageProblem(['--probe-runs=3', '--runs=2', '--tools=50', '--transcript-mb=256', '--small-mb=64', '--dry']), undefined);
  const help = usageProblem(['--help'])!;
  assert.equal(help.code, 0);
  assert.match(help.text, /^npm run bench:runtime: /);
  assert.match(help.text, /--transcript-mb=/);
  assert.deepEqual(usageProblem(['--transcript=1024']), {
    text: 'bench/runtimeBench.ts: unknown option --transcript=1024 (--help lists them)\n',
    code: 2,
  });
  assert.equal(usageProblem(['--tools=0'])!.code, 2);
  assert.equal(usageProblem(['--runs=two'])!.code, 2);
  assert.equal(usageProblem(['--dry', 'extra'])!.code, 2);
});

test('the run-time bench reads its counts, with the defaults for the others', () => {
  assert.deepEqual(readOptions([]), { probeRuns: 5, runs: 3, tools: 100, transcriptMb: 1024, smallMb: 128, dry: false });
  assert.deepEqual(readOptions(['--tools=10', '--transcript-mb=64', '--small-mb=8', '--dry']), {
    probeRuns: 5,
    runs: 3,
    tools: 10,
    transcriptMb: 64,
    smallMb: 8,
    dry: true,
  });
  assert.throws(() => readOptions(['--transcript-mb=64', '--small-mb=128']), /--small-mb \(128\) must not exceed --transcript-mb \(64\)/);
});

test('the transcript is halved until it takes at most a third of the free disk', () => {
  const GIB = 1024 * 1024 * 1024;
  assert.equal(fittingMb(1024, 76 * GIB), 1024);
  assert.equal(fittingMb(1024, 3 * GIB), 1024);
  assert.equal(fittingMb(1024, 2 * GIB), 512);
  assert.equal(fittingMb(1024, 0), 1);
});

test('the transcript repeats the recorded lines, each pass with fresh ids, up to the size asked', () => {
  const dir = tempDir('mcp-aql-runtime-bench-');
  try {
    const file = join(dir, 't.jsonl');
    const lines = [
      '{"method":"tools/call","params":{"name":"t","arguments":{"note_id":7}},"jsonrpc":"2.0","id":2}',
      '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"x"}],"isError":true}}',
      '{"jsonrpc":"2.0","method":"notifications/progress","params":{}}',
    ];
    const { records, bytes } = writeTranscript(file, lines, 1);
    const text = readFileSync(file, 'utf8');
    assert.equal(bytes, Buffer.byteLength(text));
    assert.ok(bytes >= 1024 * 1024 && bytes < 1024 * 1024 + 1000, String(bytes));
    const out = text.split('\n').filter(Boolean);
    assert.equal(out.length, records);
    assert.equal(records % 3, 0);
    assert.deepEqual(out.slice(0, 3), lines);
    assert.deepEqual(
      out.slice(3, 6).map(l => JSON.parse(l) as { id?: number; params?: unknown }),
      [
        { method: 'tools/call', params: { name: 't', arguments: { note_id: 7 } }, jsonrpc: '2.0', id: 5 },
        { jsonrpc: '2.0', id: 5, result: { content: [{ type: 'text', text: 'x' }], isError: true } },
        { jsonrpc: '2.0', method: 'notifications/progress', params: {} },
      ],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
