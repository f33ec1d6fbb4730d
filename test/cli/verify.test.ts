/** `mcp-aql-errors verify`: the example recorded responses, formats, exit codes, usage errors. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { allCodes } from '../../server/src/service';
import { run, tempTree } from './helpers';

interface JsonDiag {
  code: string;
  severity: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  message: string;
}
const diags = (out: string): [string, JsonDiag[]][] =>
  JSON.parse(out).map((f: { file: string; diagnostics: JsonDiag[] }) => [f.file, f.diagnostics]);
const brief = (ds: JsonDiag[]) => ds.map(d => `${d.line}:${d.column}-${d.endLine}:${d.endColumn} ${d.severity} ${d.code}`);

test('the example responses: every deliberate slip, at its line and column', async () => {
  const shop = await run(['verify', 'examples/shop.adapter.yaml', 'examples/responses/shop.responses.jsonl', '--format', 'json']);
  assert.equal(shop.code, 1, shop.err);
  assert.deepEqual(
    diags(shop.out).map(([f, ds]) => [f, brief(ds)]),
    [
      [
        'examples/responses/shop.responses.jsonl',
        [
          '4:246-4:251 error verify.detail-type',
          '8:206-8:208 warning verify.message-mismatch',
          '10:293-10:298 error verify.is-error',
          '12:121-12:141 error verify.unknown-code',
        ],
      ],
    ],
  );
  const gh = await run(['verify', 'examples/github-adapter.md', 'examples/responses/github.envelope.json', '--format', 'json']);
  assert.deepEqual(
    diags(gh.out).map(([, ds]) => brief(ds)),
    [
      [
        '6:46-6:50 warning verify.message-mismatch',
        '21:9-21:22 warning verify.undeclared-detail',
        '41:7-41:16 error verify.missing-detail',
        '47:15-47:41 error verify.warning-as-error',
      ],
    ],
  );
  const weather = await run(['verify', 'examples/weather.adapter.json', 'examples/responses/weather.responses.jsonl', '--format', 'json']);
  assert.deepEqual(
    diags(weather.out).map(([, ds]) => brief(ds)),
    [
      [
        '2:48-2:54 warning verify.json-rpc-crosswalk',
        '2:189-2:208 warning verify.json-rpc-crosswalk',
        '2:397-2:403 error verify.detail-type',
        '3:67-3:126 info verify.message-localized',
      ],
    ],
  );
});

test('text output names response files and frames the record around a far column', async () => {
  const r = await run(['verify', 'examples/shop.adapter.yaml', 'examples/responses/shop.responses.jsonl']);
  assert.match(
    r.out,
    /examples\/responses\/shop\.responses\.jsonl:8:206 {2}warning {2}The message diverges from RATE_LIMIT_CHECKOUT's template \(error_codes\.RATE_LIMIT_CHECKOUT\) at column 46: expected "s", found the end of the message\./,
  );
  assert.ok(r.out.includes('> 8 | …\\"message\\": \\"Checkout limit reached; retry after 30 second\\", '), r.out);
  assert.match(r.out, /4 problems \(3 errors, 1 warning, 0 info, 0 hints\) in 1 response file\.\n$/);
});

test('sarif and github formats carry the verify codes', async () => {
  const sarif = JSON.parse(
    (await run(['verify', 'examples/github-adapter.md', 'examples/responses/github.envelope.json', '--format', 'sarif'])).out,
  );
  const results = sarif.runs[0].results as { ruleId: string; ruleIndex?: number }[];
  assert.deepEqual(
    results.map(x => x.ruleId),
    ['verify.message-mismatch', 'verify.undeclared-detail', 'verify.missing-detail', 'verify.warning-as-error'],
  );
  assert.ok(results.every(x => typeof x.ruleIndex === 'number'));
  const gh = (await run(['verify', 'examples/github-adapter.md', 'examples/responses/github.envelope.json', '--format', 'github'])).out;
  assert.match(
    gh,
    /^::error file=examples\/responses\/github\.envelope\.json,line=47,col=15,endLine=47,endColumn=41,title=verify\.warning-as-error::/m,
  );
});

test('exit codes: 0 clean (warnings allowed unless --max-warnings), 1 errors, 2 usage; --rule changes levels', async () => {
  const dir = tempTree({
    'a.adapter.yaml':
      'error_codes:\n  NOT_FOUND_ORDER:\n    category: NOT_FOUND\n    message_template: "Order \'{order_id}\' not found"\n    details:\n      order_id: string\n',
    'ok.envelope.json':
      '{"success": false, "error": {"code": "NOT_FOUND_ORDER", "message": "Order \'a\' not found", "details": {"order_id": "a"}}}\n',
    'extra.envelope.json':
      '{"success": false, "error": {"code": "NOT_FOUND_ORDER", "message": "Order \'a\' not found", "details": {"order_id": "a", "x": 1}}}\n',
    'logs/run.responses.jsonl':
      '{"success": false, "error": {"code": "NOT_FOUND_ORDER", "message": "Order \'a\' not found", "details": {"order_id": "a"}}}\n',
    'notes.json': '{"not": "a response"}\n',
  });
  const clean = await run(['verify', 'a.adapter.yaml', 'ok.envelope.json'], dir);
  assert.deepEqual([clean.code, clean.out], [0, 'No problems in 1 response file.\n']);
  assert.equal((await run(['verify', 'a.adapter.yaml', 'extra.envelope.json'], dir)).code, 0);
  assert.equal((await run(['verify', 'a.adapter.yaml', 'extra.envelope.json', '--max-warnings', '0'], dir)).code, 1);
  assert.equal((await run(['verify', 'a.adapter.yaml', 'extra.envelope.json', '--rule', 'verify.undeclared-detail=error'], dir)).code, 1);
  assert.equal(
    (await run(['verify', 'a.adapter.yaml', 'extra.envelope.json', '--rule', 'verify.undeclared-detail=off', '--max-warnings', '0'], dir))
      .code,
    0,
  );
  // A folder: adapters by content, response files by name (notes.json is neither, and skipped).
  const folder = await run(['verify', '.', '--format', 'json'], dir);
  assert.deepEqual(
    diags(folder.out).map(([f]) => f),
    ['extra.envelope.json', 'logs/run.responses.jsonl', 'ok.envelope.json'],
  );
  // An explicitly named file that is not an adapter is a response file.
  assert.deepEqual(brief(diags((await run(['verify', 'a.adapter.yaml', 'notes.json', '--format', 'json'], dir)).out)[0]![1]), [
    '1:1-1:2 warning verify.unknown-shape',
  ]);
  assert.match((await run(['verify', 'ok.envelope.json'], dir)).err, /at least one adapter file/);
  assert.match((await run(['verify', 'a.adapter.yaml'], dir)).err, /at least one response file/);
  assert.equal((await run(['verify'], dir)).code, 2);
  assert.equal((await run(['verify', 'a.adapter.yaml', 'missing.json'], dir)).code, 2);
});

test('the example responses (examples/responses and examples/broken) trigger every verify.* code', async () => {
  const runs = [
    ['examples/shop.adapter.yaml', 'examples/responses/shop.responses.jsonl', 'examples/broken/broken.responses.jsonl'],
    ['examples/github-adapter.md', 'examples/responses/github.envelope.json'],
    ['examples/weather.adapter.json', 'examples/responses/weather.responses.jsonl'],
  ];
  const got = new Set<string>();
  for (const args of runs)
    for (const [file, ds] of diags((await run(['verify', ...args, '--format', 'json'])).out))
      for (const d of ds) got.add(`${file}:${d.line}:${d.code}`);
  for (const w of [
    '2:verify.json-syntax',
    '3:verify.unknown-shape',
    '4:verify.envelope-shape',
    '5:verify.error-as-warning',
    '6:verify.unknown-shape',
  ]) {
    assert.ok(got.has(`examples/broken/broken.responses.jsonl:${w}`), `missing ${w}: ${[...got].join(', ')}`);
  }
  const codes = new Set([...got].map(g => g.split(':')[2]));
  for (const c of allCodes) if (c.startsWith('verify.')) assert.ok(codes.has(c), `no example triggers ${c}`);
});

test('a FIFO named as a response file is refused, not read (no hang)', async t => {
  const dir = tempTree({ 'a.adapter.yaml': 'error_codes:\n  NOT_FOUND_X:\n    category: NOT_FOUND\n' });
  if (spawnSync('mkfifo', [join(dir, 'pipe.envelope.json')]).status !== 0) {
    t.skip('mkfifo is not available');
    return;
  }
  const r = await run(['verify', 'a.adapter.yaml', 'pipe.envelope.json'], dir);
  assert.equal(r.code, 2);
  assert.match(r.err, /pipe\.envelope\.json/);
});
