import test from 'node:test';
import assert from 'node:assert/strict';
import { run } from './helpers';

test('preview --format json: one object keyed by dialect, each with envelope and verdict', async () => {
  const r = await run(['preview', 'examples/github-adapter.md', '--code', 'NOT_FOUND_REPOSITORY', '--format', 'json']);
  assert.equal(r.code, 0, r.err);
  const out = JSON.parse(r.out);
  assert.deepEqual(Object.keys(out), ['mcp-aql', 'mcp-tool-result', 'json-rpc', 'atlas-gate']);
  assert.equal(out['mcp-aql'].valid, true);
  assert.equal(out['mcp-aql'].envelope.error.message, "Repository 'octocat/hello-world' not found");
});

test('preview with --status and --body runs the simulator and says which rule fired', async () => {
  const r = await run([
    'preview',
    'examples/github-adapter.md',
    '--status',
    '403',
    '--body',
    '{"message":"You have triggered an abuse detection mechanism"}',
  ]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^Upstream 403 → RATE_LIMIT_ABUSE_DETECTED \(rule: error_codes\.RATE_LIMIT_ABUSE_DETECTED\)/);
  assert.match(r.out, /✗ error_mapping\[403\]\[0\] → RATE_LIMIT_EXCEEDED/);
  assert.match(r.out, /== MCP-AQL envelope \[valid\] ==/);
  const one = await run(['preview', 'examples/github-adapter.md', '--status', '404', '--dialect', 'json-rpc', '--format', 'json']);
  assert.deepEqual(Object.keys(JSON.parse(one.out)), ['json-rpc']);
});

test('preview usage errors exit 2', async () => {
  assert.equal((await run(['preview'])).code, 2);
  assert.equal((await run(['preview', 'examples/github-adapter.md', '--dialect', 'xml'])).code, 2);
  assert.equal((await run(['preview', 'examples/github-adapter.md', '--status', '403', '--body', '{bad'])).code, 2);
  assert.equal((await run(['preview', 'examples/github-adapter.md', '--body', '{}'])).code, 2);
  assert.equal((await run(['preview', 'README.md'])).code, 2);
});
