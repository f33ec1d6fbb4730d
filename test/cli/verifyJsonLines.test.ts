/**
 * `verify` checks a JSON Lines log of any size record by record (a log over
 * maxFileSize was one file.too-large warning and exit 0): the built CLI in a child process.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { cliBundle } from './bundle';
import { tempTree } from './helpers';

const ADAPTER = [
  'error_codes:',
  '  NOT_FOUND_ORDER:',
  '    category: NOT_FOUND',
  `    message_template: "Order '{order_id}' not found"`,
  '    details:',
  '      order_id: { type: string, required: true }',
  '',
].join('\n');
const good = (i: number) =>
  JSON.stringify({
    success: false,
    error: { code: 'NOT_FOUND_ORDER', message: `Order 'o${i}' not found`, details: { order_id: `o${i}` } },
  });
const BAD = '{"success": false, "error": {"code": "NOT_FOUND_ORDR", "message": "x", "details": {}}}';

test('a 6 MB log: every record is checked, problems on their own lines across batches; a record over maxFileSize is reported and skipped', t => {
  const n = 60_000;
  const bad = new Set([0, 9_999, 30_000, n - 1]);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(bad.has(i) ? BAD : i === 20_000 ? '{"x": "' + 'y'.repeat(4.6 * 1024 * 1024) + '"}' : good(i));
  const dir = tempTree({ 'shop.adapter.yaml': ADAPTER, 'big.responses.jsonl': lines.join('\n') + '\n' });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const r = cliBundle(['verify', '--format', 'json', 'shop.adapter.yaml', 'big.responses.jsonl'], dir, 60_000);
  assert.equal(r.timedOut, false);
  assert.equal(r.code, 1, r.err);
  const ds = (JSON.parse(r.out) as { diagnostics: { code: string; line: number; column: number; message: string }[] }[])[0]!.diagnostics;
  assert.deepEqual(
    ds.map(d => [d.code, d.line, d.column]),
    [
      ['verify.unknown-code', 1, 38],
      ['verify.unknown-code', 10_000, 38],
      ['file.too-large', 20_001, 1],
      ['verify.unknown-code', 30_001, 38],
      ['verify.unknown-code', n, 38],
    ],
  );
  assert.match(
    ds[2]!.message,
    /^This record \(line 20001\) has 4823458 characters, more than mcpAql.maxFileSize \(4718592\); it is not checked\.$/,
  );
  // Text output: the frames show the right lines, kept from the batches around them.
  const text = cliBundle(['verify', 'shop.adapter.yaml', 'big.responses.jsonl'], dir, 60_000);
  const out = text.out.split('\n');
  const at = out.findIndex(l => l.startsWith('big.responses.jsonl:10000:38'));
  assert.ok(at > 0, text.out.slice(0, 500));
  assert.deepEqual(
    out.slice(at + 1, at + 4).map(l => l.slice(0, 60)),
    [`   9998 | ${good(9_997)}`, `   9999 | ${good(9_998)}`, `> 10000 | ${BAD}`].map(l => l.slice(0, 60)),
  );
  assert.equal(out[at + 4], '        | ' + ' '.repeat(37) + '^'.repeat('"NOT_FOUND_ORDR"'.length));
});
