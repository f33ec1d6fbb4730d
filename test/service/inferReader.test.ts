/**
 * FailureReader (service/inference/failures.ts): transcripts read a line at a time, the same failure
 * counted rather than kept twice, and at most SAMPLES_PER_GROUP distinct failures kept of one group —
 * what lets `infer` read a transcript of any size in memory that grows with the kinds of failure.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { FailureReader } from '../../server/src/service';
import { failuresOf, MAX_GROUPS, SAMPLES_PER_GROUP } from '../../server/src/service/inference';
import { newService } from './helpers';

const call = (id: number, tool: string, args: object, answer: object) => [
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: args } }),
  JSON.stringify({ jsonrpc: '2.0', id, ...answer }),
];
const text = (t: string) => ({ result: { content: [{ type: 'text', text: t }], isError: true } });

test('the same failure again is counted, not kept again; the adapter says how many were seen', () => {
  const reader = new FailureReader();
  for (let i = 1; i <= 5; i++) for (const l of call(i, 'read', { path: 'a.txt' }, text("File 'a.txt' not found"))) reader.line(l);
  assert.equal(reader.total, 5);
  assert.deepEqual(
    reader.failures().map(f => [f.message, f.count]),
    [["File 'a.txt' not found", 5]],
  );
  const r = newService().inferContract({ reader, name: 'x' });
  assert.equal(r.failures, 5);
  assert.match(r.text, /# Seen 5 times \(read\): tool result, text only, isError true\./);
});

test('of one group at most SAMPLES_PER_GROUP distinct failures are kept; the rest count on its first', () => {
  const reader = new FailureReader();
  const n = SAMPLES_PER_GROUP + 100;
  for (let i = 1; i <= n; i++) for (const l of call(i, 'read', { path: `f${i}.txt` }, text(`File 'f${i}.txt' not found`))) reader.line(l);
  // Another group is not crowded out.
  for (const l of call(n + 1, 'x', {}, { error: { code: -32601, message: 'Method x not found' } })) reader.line(l);
  const fs = reader.failures();
  assert.equal(reader.total, n + 1);
  assert.equal(fs.length, SAMPLES_PER_GROUP + 1);
  assert.equal(fs[0]!.count, 101);
  assert.equal(
    fs.reduce((s, f) => s + (f.count ?? 1), 0),
    n + 1,
  );
  const r = newService().inferContract({ reader, name: 'x' });
  assert.equal(r.failures, n + 1);
  const file = r.kinds.find(k => k.category === 'NOT_FOUND' && k.tools.includes('read'))!;
  assert.equal(file.template.text, "File '{path}' not found");
  assert.equal(file.count, n);
});

test('an answer pairs with its request once; the end of a transcript forgets its requests', () => {
  const reader = new FailureReader();
  const [req, ans] = call(1, 'read', { path: 'a.txt' }, text("File 'a.txt' not found"));
  reader.line(req!);
  reader.line(ans!);
  reader.line(ans!); // an answer repeated: no request left to pair with
  reader.line(req!);
  reader.endTranscript();
  reader.line(ans!);
  assert.deepEqual(
    reader.failures().map(f => [f.tool, f.count]),
    [
      ['read', 1],
      [undefined, 2],
    ],
  );
  assert.deepEqual(
    failuresOf([[req, ans, ans].join('\n')]).map(f => [f.tool, f.count]),
    [
      ['read', 1],
      [undefined, 1],
    ],
  );
});

test('digits and argument values do not make new groups; past MAX_GROUPS shapes, new ones share one overflow group', () => {
  const reader = new FailureReader();
  for (let i = 1; i <= 200; i++) for (const l of call(i, 'get', {}, text(`Order ${i} failed after ${i * 3} ms`))) reader.line(l);
  assert.equal(reader.failures().length, SAMPLES_PER_GROUP);
  const letters = (n: number) => n.toString(26).replace(/[0-9]/g, d => 'qrstuvwxyz'[Number(d)]!);
  const many = new FailureReader();
  const n = MAX_GROUPS + SAMPLES_PER_GROUP + 10;
  for (let i = 1; i <= n; i++) for (const l of call(i, 'get', {}, text(`Boom ${letters(i)}`))) many.line(l);
  assert.equal(many.total, n);
  // MAX_GROUPS groups of one, then the overflow group holds SAMPLES_PER_GROUP and counts the rest.
  assert.equal(many.failures().length, MAX_GROUPS + SAMPLES_PER_GROUP);
  assert.equal(
    many.failures().reduce((s, f) => s + (f.count ?? 1), 0),
    n,
  );
});

test('the same arguments are the same failure whatever the order their leaves come in, an index key too; a `__proto__` argument is kept as a key', () => {
  const reader = new FailureReader();
  const answer = { error: { code: -32602, message: 'Bad page' } };
  const lines = [
    ...call(1, 'list', { b: 'x', 1: 2 }, answer),
    // The same leaves, an index key listed first: the same failure.
    ...call(2, 'list', { 1: 2, b: 'x' }, answer),
    // The same leaves through nesting (the first of a repeated key wins).
    ...call(3, 'list', { q: { b: 'x', 1: 2 }, b: 'y' }, answer),
    // Other values: another failure.
    ...call(4, 'list', { b: 'y', 1: 2 }, answer),
    '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"list","arguments":{"__proto__":{"p":1},"o":{"__proto__":"v"}}}}',
    JSON.stringify({ jsonrpc: '2.0', id: 5, ...answer }),
  ];
  for (const l of lines) reader.line(l);
  const fs = reader.failures();
  assert.deepEqual(
    fs.map(f => [JSON.stringify(f.args), f.count]),
    [
      ['{"1":2,"b":"x"}', 3],
      ['{"1":2,"b":"y"}', 1],
      ['{"p":1,"__proto__":"v"}', 1],
    ],
  );
});

test('a line nesting past 256 containers is skipped, as verify rejects it; 256 are read', () => {
  const reader = new FailureReader();
  // The message and its error are two containers; the data adds n.
  const nested = (id: number, n: number) =>
    `{"id":${id},"error":{"code":-32603,"message":"Deep ${n}","data":${'['.repeat(n)}${']'.repeat(n)}}}`;
  for (const l of [nested(1, 254), nested(2, 255)]) reader.line(l);
  assert.deepEqual(
    reader.failures().map(f => f.message),
    ['Deep 254'],
  );
});
