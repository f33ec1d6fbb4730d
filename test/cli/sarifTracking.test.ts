/**
 * SARIF that GitHub code scanning tracks across runs: each command's runs in a category of their own
 * (`runAutomationDetails.id`), and each result a fingerprint that a line added above does not move
 * and that two alike results on different lines do not share.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, run, tempTree } from './helpers';

interface Sarif {
  runs: {
    automationDetails: { id: string };
    properties?: { probe?: { coverage: unknown[] } };
    results: {
      ruleId: string;
      partialFingerprints: Record<string, string>;
      locations?: { physicalLocation: { region: { startLine: number } } }[];
    }[];
  }[];
}
const ADAPTER = (pad: string) =>
  `${pad}name: a\ntype: adapter\nerror_mapping:\n  "404": { code: NOT_FOUND_NOPE }\n  "409": { code: NOT_FOUND_NOPE }\n`;

test('check: the category is check, and a fingerprint survives a line added above; alike results differ', async () => {
  const dir = tempTree({ 'a.adapter.yaml': ADAPTER('') });
  try {
    const one = JSON.parse((await run(['check', '--format', 'sarif', '.'], dir)).out) as Sarif;
    writeFileSync(join(dir, 'a.adapter.yaml'), ADAPTER('# a comment\n\n'));
    const two = JSON.parse((await run(['check', '--format', 'sarif', '.'], dir)).out) as Sarif;
    assert.equal(one.runs[0]!.automationDetails.id, 'mcp-aql-errors/check/');
    const prints = (s: Sarif) =>
      s.runs[0]!.results.filter(r => r.ruleId === 'mapping.unknown-code').map(r => r.partialFingerprints['mcpAqlErrors/v1']);
    assert.equal(prints(one).length, 2);
    assert.notEqual(prints(one)[0], prints(one)[1], 'two alike results, two fingerprints');
    assert.deepEqual(prints(two), prints(one), 'lines added above move no fingerprint');
    assert.notDeepEqual(
      two.runs[0]!.results.map(r => r.locations?.[0]?.physicalLocation.region.startLine),
      one.runs[0]!.results.map(r => r.locations?.[0]?.physicalLocation.region.startLine),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every command has its own category: verify, diff, probe (with its coverage)', async () => {
  const verify = JSON.parse(
    (await run(['verify', '--format', 'sarif', 'examples/shop.adapter.yaml', 'examples/responses/shop.responses.jsonl'])).out,
  ) as Sarif;
  assert.equal(verify.runs[0]!.automationDetails.id, 'mcp-aql-errors/verify/');
  const diff = JSON.parse(
    (await run(['diff', '--format', 'sarif', 'test/fixtures/evolution/v1', 'test/fixtures/evolution/v2'])).out,
  ) as Sarif;
  assert.equal(diff.runs[0]!.automationDetails.id, 'mcp-aql-errors/diff/');
  assert.ok(diff.runs[0]!.results.every(r => /^[0-9a-f]{32}$/.test(r.partialFingerprints['mcpAqlErrors/v1']!)));
  const probe = JSON.parse(
    (
      await run([
        'probe',
        '--format',
        'sarif',
        '--contract',
        'examples/server',
        '--',
        process.execPath,
        join(ROOT, 'examples/server/server.mjs'),
        '--slip',
        'is-error',
      ])
    ).out,
  ) as Sarif;
  assert.equal(probe.runs[0]!.automationDetails.id, 'mcp-aql-errors/probe/');
  assert.ok(probe.runs[0]!.properties!.probe!.coverage.length > 0);
  assert.equal(new Set(probe.runs[0]!.results.map(r => r.partialFingerprints['mcpAqlErrors/v1'])).size, probe.runs[0]!.results.length);
});
