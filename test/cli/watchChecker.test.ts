/**
 * `watch`'s checker in-process, as its judging thread runs it: lines rebuilt from any
 * chunking, a throw in the checker logged once and checking stopped (the traffic is the proxy's, never
 * the checker's), the line cut by dropped copies skipped, and hostile messages judged without a throw.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { summaryLine, WatchChecker } from '../../server/src/cli/runtime/watch/checker';
import { WatchTracker } from '../../server/src/cli/runtime/watch/tracker';
import { createAdapterService } from '../../server/src/service';
import { deps } from '../../server/src/cli/deps';

test('lines are rebuilt across chunks, in arrival order, CRLF and split characters included', () => {
  const seen: string[] = [];
  const logs: string[] = [];
  const c = new WatchChecker({ client: l => seen.push(`c ${l}`), server: l => seen.push(`s ${l}`) }, s => logs.push(s));
  const bytes = Buffer.from('{"a":"é"}\r\n{"b":2}\n');
  for (let i = 0; i < bytes.length; i++) c.push(0, bytes.subarray(i, i + 1));
  c.push(1, Buffer.from('x\ny'));
  c.push(1, Buffer.from('z\n'));
  assert.deepEqual(seen, ['c {"a":"é"}', 'c {"b":2}', 's x', 's yz']);
  assert.deepEqual(logs, []);
});

test('a throw in the checker is logged once; checking stops; nothing escapes', () => {
  const seen: string[] = [];
  const logs: string[] = [];
  const c = new WatchChecker(
    {
      client: l => {
        if (l === 'boom') throw new Error('bug of ours');
        seen.push(l);
      },
      server: l => seen.push(l),
    },
    s => logs.push(s),
  );
  c.push(0, Buffer.from('one\nboom\ntwo\n'));
  c.push(1, Buffer.from('three\n'));
  c.push(0, Buffer.from('four\n'));
  assert.deepEqual(seen, ['one']);
  assert.equal(logs.length, 1);
  assert.match(logs[0]!, /^checker failed, checking stopped \(the session goes on\): Error: bug of ours/);
});

test('a chunk marked cut: the line the dropped copies cut is skipped, in its direction only; checking goes on at the next whole line', () => {
  const seen: string[] = [];
  const c = new WatchChecker({ client: l => seen.push(`c ${l}`), server: l => seen.push(`s ${l}`) }, () => {});
  c.push(0, Buffer.from('a\npart'));
  c.push(1, Buffer.from('x\nhalf'));
  c.push(0, Buffer.from('ial line\nb\n'), true); // copies between 'part' and this were dropped
  c.push(1, Buffer.from(' done\n'));
  assert.deepEqual(seen, ['c a', 's x', 'c b', 's half done']);
});

test('the summary line', () => {
  assert.equal(summaryLine(1, 1, 1, 0), '1 tool call checked, 1 finding (1 error)');
  assert.equal(summaryLine(10_000, 0, 0, 12), '10000 tool calls checked, 0 findings (0 errors); 12 bytes passed on unchecked');
});

test('hostile messages: odd ids, null params, a non-list of tools, deep nesting, prototype keys — judged without a throw', () => {
  const service = createAdapterService(deps);
  const found: string[] = [];
  const responses: string[] = [];
  const t = new WatchTracker(
    { service, contract: service.contract([]), operations: [], claimsMcpAql: false },
    {},
    { finding: (tool, id, f) => found.push(`${tool} ${id} ${f.code}`), response: l => responses.push(l) },
  );
  const lines = [
    '{"jsonrpc":"2.0","id":{"x":1},"method":"tools/call","params":null}',
    '{"jsonrpc":"2.0","id":{"x":1},"result":{"content":[{"type":"text","text":"Error: no params"}]}}',
    '{"jsonrpc":"2.0","id":"__proto__","method":"tools/list"}',
    '{"jsonrpc":"2.0","id":"__proto__","result":{"tools":"not a list"}}',
    '{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":{"not":"a string"}}}',
    '{"jsonrpc":"2.0","id":null,"error":{"code":"x"}}',
    '['.repeat(100_000),
    '{"jsonrpc":"2.0","id":7,"result":' + '['.repeat(5000) + ']'.repeat(5000) + '}',
    '[{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"b"}}]',
    '[{"jsonrpc":"2.0","id":8,"result":{"content":[{"type":"text","text":"failed: batch"}]}}, 5, null]',
    '{"constructor":{"prototype":{"polluted":true}},"id":9,"result":{}}',
  ];
  for (const [i, l] of lines.entries())
    assert.doesNotThrow(() => (i % 2 === 0 && !l.includes('"result"') ? t.client(l) : t.server(l)), l.slice(0, 40));
  assert.deepEqual(found, [' {"x":1} runtime.unflagged-failure', 'b 8 runtime.unflagged-failure']);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(responses.length, 6);
});
