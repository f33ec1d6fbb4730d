/**
 * `watch`'s checker in-process (issue 24 item 1): lines rebuilt from any chunking, a throw in the
 * checker logged once and checking stopped (the traffic is the proxy's, never the checker's), a checker
 * that falls behind gives up, and hostile messages judged without a throw.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { WatchChecker } from '../../server/src/cli/watchChecker';
import { WatchTracker } from '../../server/src/cli/watchTracker';
import { createAdapterService } from '../../server/src/service';
import { deps } from '../../server/src/cli/deps';

const turn = () => new Promise(r => setImmediate(r));
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await turn();
}

test('lines are rebuilt across chunks, in arrival order, CRLF and split characters included', async () => {
  const seen: string[] = [];
  const logs: string[] = [];
  const c = new WatchChecker({ client: l => seen.push(`c ${l}`), server: l => seen.push(`s ${l}`) }, s => logs.push(s));
  const bytes = Buffer.from('{"a":"é"}\r\n{"b":2}\n');
  for (let i = 0; i < bytes.length; i++) c.client(bytes.subarray(i, i + 1));
  c.server(Buffer.from('x\ny'));
  c.server(Buffer.from('z\n'));
  await settle();
  assert.deepEqual(seen, ['c {"a":"é"}', 'c {"b":2}', 's x', 's yz']);
  assert.deepEqual(logs, []);
});

test('a throw in the checker is logged once; checking stops; nothing escapes', async () => {
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
  c.client(Buffer.from('one\nboom\ntwo\n'));
  c.server(Buffer.from('three\n'));
  await settle();
  c.client(Buffer.from('four\n'));
  c.flush();
  assert.deepEqual(seen, ['one']);
  assert.equal(logs.length, 1);
  assert.match(logs[0]!, /^checker failed, checking stopped \(the session goes on\): Error: bug of ours/);
});

test('a checker that falls behind gives up with one line', async () => {
  const logs: string[] = [];
  const c = new WatchChecker({ client: () => {}, server: () => {} }, s => logs.push(s), 10);
  c.client(Buffer.from('0123456789abc\n'));
  c.client(Buffer.from('more\n'));
  await settle();
  assert.deepEqual(logs, ['the checker fell 0 MiB behind the traffic; checking stopped (the session goes on)']);
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

test('copies that waited more than a second are dropped unchecked, with one line; checking goes on at the next whole line', async () => {
  const logs: string[] = [];
  const seen: string[] = [];
  let clock = 0;
  const c = new WatchChecker(
    { client: l => seen.push(l), server: () => {} },
    s => logs.push(s),
    undefined,
    () => clock,
  );
  c.client(Buffer.from('a\n'));
  clock = 500;
  c.client(Buffer.from('b\npart'));
  clock = 1600; // 'a' waited 1.6 s: everything queued is dropped
  c.flush();
  c.client(Buffer.from('ial line\nc\n'));
  c.flush();
  clock = 3000;
  c.client(Buffer.from('d\n'));
  clock = 4100;
  c.flush();
  assert.deepEqual(seen, ['c'], "the rest of the cut line is skipped, then 'c' is checked");
  assert.deepEqual(logs, ['the checker fell 1 s behind the traffic; 8 bytes passed on unchecked'], 'one line per 10 s at most');
  assert.equal(c.unchecked, 10, 'the summary counts them all');
});
