/**
 * The `check --cache` body (cli/cacheBody.ts): one JSON object with each file's entry on its own line, read with
 * one JSON parse; an unchanged entry is written back as the bytes it was read from. Writing a body back must
 * never change what it reads as, whatever a damaged body holds.
 */
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeEntries, linesOf, parseEntries } from '../../server/src/cli/cache/body';
import { toolKey } from '../../server/src/cli/cache/keys';
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

/** What a body reads as (entries, details, fingerprints), without what it was read from. */
const read = (body: string | Buffer) => {
  const { source: _, ...rest } = parseEntries(body, toolKey());
  return rest;
};
/** A parsed body written again (its unchanged entries copied where its lines allow). */
const rewrite = (body: string | Buffer) => {
  const p = parseEntries(body, toolKey());
  return encodeEntries(p.entries, p.table, toolKey(), p.names, p.last, p.source);
};

test('a body is written one entry a line and written back byte for byte; an entry changed is its line alone', async () => {
  const body = await realBody();
  assert.equal(body.split('\n').length, 5, 'the header, three entries, the end');
  assert.deepEqual(JSON.parse(body), JSON.parse(body.replaceAll('\n', '')), 'JSON all the same');
  const p = parseEntries(body, toolKey());
  assert.equal(p.entries.size, 3);
  assert.equal(linesOf(p.source!)?.size, 3);
  assert.equal(rewrite(body).toString(), body);
  // The same body without its line breaks reads the same, and is written in lines.
  assert.deepEqual(read(body.replaceAll('\n', '')), read(body));
  assert.equal(rewrite(body.replaceAll('\n', '')).toString(), body);
  // One entry replaced (a new object): its line alone is encoded again.
  const [uri, e] = [...p.entries][1]!;
  p.entries.set(uri, { ...e, stat: [1, 2, 3, 4] });
  const again = encodeEntries(p.entries, p.table, toolKey(), p.names, p.last, p.source).toString().split('\n');
  const lines = body.split('\n');
  assert.deepEqual(
    again.map((l, i) => l === lines[i]),
    [true, true, false, true, true],
  );
  assert.deepEqual((JSON.parse(`{${again[2]!.slice(0, -1)}}`) as Record<string, unknown[]>)[uri]![2], [1, 2, 3, 4]);
});

test('a damaged body written back reads exactly as it read (a character or a byte deleted or inserted anywhere)', async () => {
  const body = await realBody();
  let copied = 0;
  const same = (damaged: string | Buffer, what: string) => {
    const p = parseEntries(damaged, toolKey());
    if (p.source && linesOf(p.source)) copied++;
    assert.deepEqual(read(rewrite(damaged)), read(damaged), what);
  };
  for (let i = 0; i < body.length; i++) {
    same(body.slice(0, i) + body.slice(i + 1), `deleted at ${i}`);
    for (const c of i % 5 === 0 ? [',', '\n', '"', '\\', ':', '[', ']', '{', '}', 'x', '\u0001', ',"file:///z":[]'] : [])
      same(body.slice(0, i) + c + body.slice(i), `${JSON.stringify(c)} inserted at ${i}`);
  }
  assert.ok(copied > 100, 'most damage (in a message, say) still leaves lines to copy');
  // Two members on one line: their bytes are not one entry's, so no line is copied.
  const two = body.split('\n');
  two[2] = two[2]!.replace(/,$/, ',"file:///z":[],');
  assert.equal(linesOf(parseEntries(two.join('\n'), toolKey()).source!), undefined);
  // Bytes that are not UTF-8 (a stray continuation, a lead byte cut short, a newline inside a character).
  const bytes = Buffer.from(body, 'utf8');
  for (let i = 0; i < bytes.length; i += 3)
    for (const b of [[0xff], [0xc3], [0xe2, 0x80], [0xc3, 0x0a], [0xe2, 0x0a, 0xa8]])
      same(Buffer.concat([bytes.subarray(0, i), Buffer.from(b), bytes.subarray(i)]), `${b.join(',')} inserted at byte ${i}`);
});
