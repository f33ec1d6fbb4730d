/**
 * `verify` checks a JSON Lines log of any size record by record (a log over
 * maxFileSize was one file.too-large warning and exit 0): the built CLI in a child process.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createAdapterService } from '../../server/src/service';
import { deps } from '../../server/src/cli/deps';
import { verifyJsonLines } from '../../server/src/cli/verify/jsonLines';
import { cliBundle } from './bundle';
import { run, tempTree } from './helpers';

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

/**
 * A lone CR (not the CR of a CRLF line end) inside a record: JSON Lines records end at LF, but an editor
 * (VS Code, TextDocument, the service's positions, the frames of a `.json` file) breaks the line there too.
 * Every line:column reported is the editor's, in the batch of the CR and in every batch after it.
 */
const WS = '{"success": false,\r"error": {"code": "NOT_FOUND_ORDR", "message": "x", "details": {}}}'; // CR between tokens
const STR = `{"success": false, "error": {"code": "NOT_FOUND_ORDER", "message": "a\rb", "details": {"order_id": "o"}}}`; // CR in a string
const FILLER = good(0).replaceAll('o0', 'y'.repeat(150_000)); // clean; four of them fill a 1 MiB batch
const CR_LOG = [BAD, WS, STR, BAD, FILLER, FILLER, FILLER, FILLER, BAD, WS, BAD].join('\n') + '\n';
const CR_EXPECTED = [
  ['verify.unknown-code', 1, 38],
  ['verify.unknown-code', 3, 19], // the record of editor lines 2-3
  ['verify.json-syntax', 4, 70], // on the raw CR, at the end of editor line 4 (the record of lines 4-5)
  ['verify.unknown-code', 6, 38],
  ['verify.unknown-code', 11, 38], // the next batch starts at editor line 10 (the fourth filler)
  ['verify.unknown-code', 13, 19],
  ['verify.unknown-code', 14, 38],
];

test('lone CRs in records: lines and columns as the editor shows them, before and after, in the batch and the next one (json)', async t => {
  const dir = tempTree({ 'shop.adapter.yaml': ADAPTER, 'cr.responses.jsonl': CR_LOG });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const r = await run(['verify', '--format', 'json', 'shop.adapter.yaml', 'cr.responses.jsonl'], dir);
  assert.equal(r.code, 1, r.err);
  const ds = (JSON.parse(r.out) as { diagnostics: { code: string; line: number; column: number }[] }[])[0]!.diagnostics;
  assert.deepEqual(
    ds.map(d => [d.code, d.line, d.column]),
    CR_EXPECTED,
  );
  // The same positions as the service gives the whole text in one document (the editor's).
  const service = createAdapterService(deps);
  const contract = service.contract([TextDocument.create('file:///a/shop.adapter.yaml', 'yaml', 1, ADAPTER)]);
  const whole = service.verifyResponses(TextDocument.create('file:///a/cr.responses.jsonl', 'json', 1, CR_LOG), contract, {
    maxProblems: Infinity,
  });
  assert.deepEqual(
    whole.map(d => [d.code, d.range.start.line + 1, d.range.start.character + 1]),
    CR_EXPECTED,
  );
});

test('lone CRs in records: the text report names the editor lines and frames them as the editor shows them', async t => {
  const dir = tempTree({ 'shop.adapter.yaml': ADAPTER, 'cr.responses.jsonl': CR_LOG });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const r = await run(['verify', 'shop.adapter.yaml', 'cr.responses.jsonl'], dir);
  assert.equal(r.code, 1, r.err);
  const heads = r.out.split('\n').filter(l => l.startsWith('cr.responses.jsonl:'));
  assert.deepEqual(
    heads.map(l => l.split(/\s/)[0]),
    CR_EXPECTED.map(([, line, col]) => `cr.responses.jsonl:${line}:${col}`),
  );
  const frame = (head: string) => {
    const out = r.out.split('\n');
    const at = out.findIndex(l => l.startsWith(head));
    const end = out.indexOf('', at);
    return out.slice(at + 1, end).map(l => l.slice(0, 40));
  };
  const cut = (ls: string[]) => ls.map(l => l.slice(0, 40));
  const line4 = STR.slice(0, STR.indexOf('\r'));
  assert.deepEqual(
    frame('cr.responses.jsonl:3:19'),
    cut([
      `  1 | ${BAD}`,
      '  2 | {"success": false,',
      `> 3 | ${WS.slice(19)}`,
      '    | ' + ' '.repeat(18) + '^'.repeat(16),
      `  4 | ${line4}`,
    ]),
  );
  assert.deepEqual(
    frame('cr.responses.jsonl:4:70'),
    cut([
      `  2 | {"success": false,`,
      `  3 | ${WS.slice(19)}`,
      `> 4 | ${line4}`,
      '    | ' + ' '.repeat(69) + '^',
      '  5 | b", "details": {"order_id": "o"}}}',
    ]),
  );
  assert.deepEqual(
    frame('cr.responses.jsonl:13:19'),
    cut([
      `  11 | ${BAD}`,
      '  12 | {"success": false,',
      `> 13 | ${WS.slice(19)}`,
      '     | ' + ' '.repeat(18) + '^'.repeat(16),
      `  14 | ${BAD}`,
    ]),
  );
});

test('a record over the limit with lone CRs in it: reported on its first editor line, the lines after it still the editor lines', t => {
  const long = '{"x": "' + 'y'.repeat(500) + '",\r\r"z": 1}';
  const dir = tempTree({ 'cr.responses.jsonl': [BAD, long, BAD, WS].join('\r\n') + '\r\n' });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const service = createAdapterService(deps);
  const contract = service.contract([TextDocument.create('file:///a/shop.adapter.yaml', 'yaml', 1, ADAPTER)]);
  const r = verifyJsonLines(
    join(dir, 'cr.responses.jsonl'),
    'file:///a/cr.responses.jsonl',
    service,
    contract,
    { maxProblems: Infinity },
    200,
  );
  assert.ok(!('error' in r));
  assert.deepEqual(
    r.diagnostics.map(d => [d.code, d.range.start.line + 1, d.range.start.character + 1]),
    [
      ['verify.unknown-code', 1, 38],
      ['file.too-large', 2, 1],
      ['verify.unknown-code', 5, 38], // the long record is editor lines 2-4
      ['verify.unknown-code', 7, 19],
    ],
  );
  assert.match(String(r.diagnostics[1]!.message), /^This record \(line 2\) has 519 characters/);
  assert.equal(r.lines.count, 7);
  assert.deepEqual(
    [5, 6].map(l => r.lines.at(l)),
    // The CR of the CRLF ending is not part of the line a frame shows.
    ['{"success": false,', WS.slice(WS.indexOf('\r') + 1)],
  );
});

test('a problem on the last line of a batch: its frame shows the next line, the first of the next batch', async t => {
  const dir = tempTree({ 'shop.adapter.yaml': ADAPTER, 'edge.responses.jsonl': [FILLER, FILLER, FILLER, BAD, FILLER].join('\n') + '\n' });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const r = await run(['verify', 'shop.adapter.yaml', 'edge.responses.jsonl'], dir);
  assert.equal(r.code, 1, r.err);
  const out = r.out.split('\n');
  const at = out.findIndex(l => l.startsWith('edge.responses.jsonl:4:38'));
  assert.ok(at > 0, r.out.slice(0, 500));
  assert.deepEqual(
    out.slice(at + 1, at + 6).map(l => l.slice(0, 30)),
    [`  2 | ${FILLER}`, `  3 | ${FILLER}`, `> 4 | ${BAD}`, '    | ' + ' '.repeat(37) + '^', `  5 | ${FILLER}`].map(l => l.slice(0, 30)),
  );
});

test('a CRLF log: frames show its lines without the CR of their endings, as the editor does', async t => {
  const dir = tempTree({ 'shop.adapter.yaml': ADAPTER, 'crlf.responses.jsonl': [good(1), BAD, good(3)].join('\r\n') + '\r\n' });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const r = await run(['verify', 'shop.adapter.yaml', 'crlf.responses.jsonl'], dir);
  assert.equal(r.code, 1, r.err);
  const out = r.out.split('\n');
  const at = out.findIndex(l => l.startsWith('crlf.responses.jsonl:2:38'));
  assert.ok(at > 0, r.out.slice(0, 500));
  assert.deepEqual([out[at + 1], out[at + 2], out[at + 4]], [`  1 | ${good(1)}`, `> 2 | ${BAD}`, `  3 | ${good(3)}`]);
  assert.doesNotMatch(r.out, /\r/);
});
