/**
 * Fuzz: random edits (lines deleted, duplicated, re-indented; indicators, quotes, brackets, tabs,
 * anchors, line breaks inserted; characters deleted) of real and generated adapters. Wherever the fast
 * index scan answers, it equals the full model path exactly (declarations and occurrences, ranges
 * included); wherever it is unsure it falls back. Seeds are fixed, so a failure replays.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileText, pathOf } from '../../bench/genWorkspace';
import { ROOT } from './helpers';
import { compare, mutate, read, rng } from './indexScanHelpers';

const SOURCES: [string, string][] = [
  ...[
    'test/fixtures/corpus/MCPAQL-examples--github-api-adapter.md',
    'test/fixtures/corpus/MCPAQL-examples--airpods-mcp-schema.json',
    'test/fixtures/matrix/shop.adapter.yaml',
    'test/fixtures/matrix/shop.adapter.json',
    'test/fixtures/adversarial/shared-errors.adapter.yaml',
    'test/fixtures/adversarial/twilio.adapter.json',
    'examples/weather.adapter.json',
    'examples/github-adapter.md',
  ].map(
    p =>
      [`file:///fz/${p.replace(/\.json$/, '.adapter.json').replace(/(\.adapter)+/, '.adapter')}`, read(join(ROOT, p))] as [string, string],
  ),
  ...[0, 2, 4, 7, 9].map(i => [`file:///fz/${pathOf(i)}`, fileText(i, 10)] as [string, string]),
];

for (const [uri, original] of SOURCES) {
  test(`fuzzed edits of ${uri.slice('file:///fz/'.length)}: the fast scan equals the model or falls back`, () => {
    const r = rng(uri.length * 7919);
    let fast = 0;
    const runs = 150;
    for (let n = 0; n < runs; n++) {
      let text = original;
      const edits = 1 + Math.floor(r() * 3);
      for (let e = 0; e < edits; e++) text = mutate(text, r);
      const c = compare(uri, text);
      if (!c.fast) continue;
      fast++;
      assert.deepEqual(c.fast, c.full, `run ${n}:\n${text}`);
    }
    // The edits keep many files readable by the scan: the comparison is not vacuous.
    assert.ok(fast >= runs / 5, `${fast} of ${runs} fuzzed texts took the fast scan`);
  });
}
