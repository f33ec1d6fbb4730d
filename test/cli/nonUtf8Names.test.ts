/**
 * A file or folder whose name is not valid UTF-8 is checked and reported, never
 * skipped silently. Such a name is held as a string with each stray byte as U+DC80–U+DCFF (so it
 * reads back to the same bytes), shown as `\xff` in human-readable output, `%FF` in URIs.
 */
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileUri, fsPath, nameFromBytes, pathFromUri } from '../../server/src/node/bytePaths';
import { run, tempDir } from './helpers';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const BAD = 'error_mapping:\n  404:\n    code: NOT_FOUND_REPOSITRY\n';
const bytes = (s: string) => Buffer.from(s, 'latin1');

/** A temp folder holding files at byte paths (latin1 strings: one char per byte). */
function byteTree(files: Record<string, string>): string {
  const dir = tempDir('mcp-aql-names-');
  dirs.push(dir);
  for (const [p, text] of Object.entries(files)) {
    const parts = p.split('/');
    for (let i = 1; i < parts.length; i++)
      mkdirSync(Buffer.concat([bytes(dir + '/'), bytes(parts.slice(0, i).join('/'))]), { recursive: true });
    writeFileSync(Buffer.concat([bytes(dir + '/'), bytes(p)]), text);
  }
  return dir;
}

test('byte names: decoded with escapes, encoded back to the same bytes, in paths and URIs', () => {
  assert.equal(nameFromBytes(Buffer.from([0x63, 0x61, 0x66, 0xe9])), 'caf\udce9');
  assert.equal(nameFromBytes(Buffer.from('café ✓ 😀', 'utf8')), 'café ✓ 😀');
  assert.equal(
    nameFromBytes(Buffer.from([0xed, 0xa0, 0x80, 0xc0, 0xaf, 0xf0, 0x9f, 0x98])),
    '\udced\udca0\udc80\udcc0\udcaf\udcf0\udc9f\udc98',
  );
  assert.deepEqual(fsPath('/t/caf\udce9/é'), Buffer.from([...Buffer.from('/t/caf'), 0xe9, ...Buffer.from('/é')]));
  assert.equal(fsPath('/t/café'), '/t/café');
  assert.equal(fileUri('/t/caf\udce9 #/x'), 'file:///t/caf%E9%20%23/x');
  assert.equal(pathFromUri('file:///t/caf%E9%20%23/x'), '/t/caf\udce9 #/x');
  assert.equal(pathFromUri(fileUri('/t/a b/é.yaml')), '/t/a b/é.yaml');
  assert.equal(fileUri('/t/a b/é.yaml'), 'file:///t/a%20b/%C3%A9.yaml');
});

test('a file and a whole folder below a name that is not UTF-8 are checked and reported with escapes', async () => {
  const dir = byteTree({
    'caf\xe9.adapter.yaml': BAD,
    'sub\xff/a.adapter.yaml': BAD,
    'sub\xff/deeper/b.adapter.yaml': 'error_mapping:\n  404:\n    code: NOT_FOUND_ORDER\n',
    'ok.adapter.yaml': 'error_codes:\n  NOT_FOUND_ORDER:\n    category: NOT_FOUND\n',
    'cfg\xfd/.mcp-aql.yaml': 'rules:\n  mapping.unknown-code: "off"\n',
    'cfg\xfd/c.adapter.yaml': BAD,
  });
  const json = JSON.parse((await run(['check', '.', '--format', 'json'], dir)).out) as {
    file: string;
    uri: string;
    diagnostics: { code: string; line: number }[];
  }[];
  assert.deepEqual(
    json.map(f => [f.file, f.diagnostics.map(d => `${d.line}:${d.code}`)]),
    [
      ['caf\udce9.adapter.yaml', ['3:mapping.unknown-code']],
      ['cfg\udcfd/c.adapter.yaml', []],
      ['ok.adapter.yaml', []],
      ['sub\udcff/a.adapter.yaml', ['3:mapping.unknown-code']],
      ['sub\udcff/deeper/b.adapter.yaml', []],
    ],
  );
  assert.ok(json[0]!.uri.endsWith('/caf%E9.adapter.yaml'), json[0]!.uri);
  assert.deepEqual(
    JSON.parse((await run(['check', '.', '--format', 'json', '--jobs', '2'], dir)).out),
    json,
    'worker threads read them too',
  );
  assert.equal(pathFromUri(json[3]!.uri), join(dir, 'sub\udcff/a.adapter.yaml'));
  const text = await run(['check', '.'], dir);
  assert.equal(text.code, 1);
  assert.ok(text.out.includes('\ncaf\\xe9.adapter.yaml:3:11  error'), text.out);
  assert.ok(text.out.includes('\nsub\\xff/a.adapter.yaml:3:11  error'), text.out);
  assert.match(text.out, /2 problems \(2 errors, .*\) in 5 adapter files\.\n$/);
  assert.equal(text.err, '');
  const sarif = JSON.parse((await run(['check', '.', '--format', 'sarif'], dir)).out);
  const uris = sarif.runs[0].artifacts.map((a: { location: { uri: string } }) => a.location.uri);
  assert.ok(uris.includes('caf%E9.adapter.yaml') && uris.includes('sub%FF/deeper/b.adapter.yaml'), uris.join(' '));
  for (const format of ['github', 'junit', 'checkstyle', 'codeclimate']) {
    const r = await run(['check', '.', '--format', format], dir);
    assert.ok(!/[\ud800-\udfff]/.test(r.out) || format === 'codeclimate', format);
    assert.ok(r.out.includes('caf\\xe9.adapter.yaml') || r.out.includes('caf\\udce9.adapter.yaml'), format + r.out);
  }
  const glob = await run(['check', '**/b.adapter.yaml', '--format', 'json'], dir);
  assert.deepEqual(
    JSON.parse(glob.out).map((f: { file: string }) => f.file),
    ['sub\udcff/deeper/b.adapter.yaml'],
  );
});

test('--fix writes a file whose name is not UTF-8 (and nothing beside it)', async () => {
  const dir = byteTree({
    'q\xe9/p\xe9.adapter.yaml':
      'error_codes:\n  NOT_FOUND_ORDER:\n    category: NOT_FOUND\n    message_template: "Order {id} missing"\n    details:\n      id: string\n',
  });
  const r = await run(['check', '--fix'], dir);
  assert.equal(r.code, 0, r.err + r.out);
  assert.match(readFileSync(Buffer.concat([bytes(dir + '/q\xe9/p\xe9.adapter.yaml')]), 'utf8'), /"Order '\{id\}' missing"/);
});
