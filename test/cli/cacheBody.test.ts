/**
 * The `check --cache` body (cli/cacheBody.ts): one JSON object with each file's entry on its own line. A body
 * in that layout is read line by line and an unchanged entry written back as the text it was read from; both
 * must read exactly what one JSON parse of the body reads, whatever a damaged body holds.
 */
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeEntries, parseEntries } from '../../server/src/cli/cacheBody';
import { toolKey } from '../../server/src/cli/cacheKeys';
import { run, tempTree } from './helpers';

const dirs: string[] = [];
const savedHome = process.env.XDG_CACHE_HOME;
after(() => {
  if (savedHome === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = savedHome;
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A real cache body: three files, one with a problem, one not an adapter. */
async function realBody(): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), 'mcp-aql-cache-home-'));
  dirs.push(home);
  process.env.XDG_CACHE_HOME = home;
  const dir = tempTree({
    'a.adapter.yaml': 'error_mapping:\n  404:\n    code: NOT_FOUND_REPOSITRY\n',
    'b.adapter.yaml': 'error_codes:\n  VALIDATION_X:\n    category: VALIDATION\n    details: { id: string }\n',
    'c.adapter.yaml': 'not: an adapter\n',
  });
  dirs.push(dir);
  assert.equal((await run(['check', '--cache-location', 'c.json'], dir)).code, 1);
  const text = readFileSync(join(dir, 'c.json'), 'utf8');
  return text.slice(text.indexOf('\n') + 1);
}

/** What a body reads as (entries, details, fingerprints), without the texts kept for writing back. */
const read = (body: string | Buffer) => {
  const { texts: _, ...rest } = parseEntries(body, toolKey());
  return rest;
};
/** What one JSON parse of the body reads (a trailing space: not the line layout). */
const whole = (body: string | Buffer) => read(typeof body === 'string' ? body + ' ' : Buffer.concat([body, Buffer.from(' ')]));

test('a body is written one entry a line, read back line by line as one JSON parse reads it, and written back byte for byte', async () => {
  const body = await realBody();
  assert.equal(body.split('\n').length, 5, 'the header, three entries, the end');
  assert.deepEqual(JSON.parse(body), JSON.parse(body.replaceAll('\n', '')), 'JSON all the same');
  const p = parseEntries(body, toolKey());
  assert.equal(p.entries.size, 3);
  assert.deepEqual(read(body), whole(body));
  assert.equal(p.texts.size, 3);
  assert.equal(encodeEntries(p.entries, p.table, toolKey(), p.names, p.last, p.texts).toString(), body);
  // One entry replaced (a new object): its line alone is encoded again.
  const [uri, e] = [...p.entries][1]!;
  p.entries.set(uri, { ...e, stat: [1, 2, 3, 4] });
  const again = encodeEntries(p.entries, p.table, toolKey(), p.names, p.last, p.texts).toString().split('\n');
  const lines = body.split('\n');
  assert.deepEqual(
    again.map((l, i) => l === lines[i]),
    [true, true, false, true, true],
  );
  assert.deepEqual((JSON.parse(`{${again[2]!.slice(0, -1)}}`) as Record<string, unknown[]>)[uri]![2], [1, 2, 3, 4]);
});

test('a damaged body in the line layout reads exactly what one JSON parse reads (a character deleted or inserted anywhere)', async () => {
  const body = await realBody();
  let lined = 0;
  for (let i = 0; i < body.length; i++) {
    const cut = body.slice(0, i) + body.slice(i + 1);
    assert.deepEqual(read(cut), whole(cut), `deleted at ${i}`);
    for (const c of i % 5 === 0 ? [',', '\n', '"', '\\', ':', '[', ']', '{', '}', 'x', '\u0001'] : []) {
      const put = body.slice(0, i) + c + body.slice(i);
      const got = read(put);
      assert.deepEqual(got, whole(put), `${JSON.stringify(c)} inserted at ${i}`);
      if (got.entries.size) lined++;
    }
  }
  assert.ok(lined > 100, 'most insertions (in a message, say) still leave a readable body');
  // Bytes that are not UTF-8 (a stray continuation, a lead byte cut short, a newline inside a character).
  const bytes = Buffer.from(body, 'utf8');
  for (let i = 0; i < bytes.length; i += 3)
    for (const b of [[0xff], [0xc3], [0xe2, 0x80], [0xc3, 0x0a], [0xe2, 0x0a, 0xa8]]) {
      const put = Buffer.concat([bytes.subarray(0, i), Buffer.from(b), bytes.subarray(i)]);
      assert.deepEqual(read(put), whole(put), `${b.join(',')} inserted at byte ${i}`);
    }
});
