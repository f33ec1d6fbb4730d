/**
 * scripts/verify-vsix.mjs, which the release workflow runs on the packaged .vsix before anything is
 * tagged or published: a sound package passes, and each way a package can be wrong is one clear line
 * and exit 1. The archives are written here (stored entries with their CRC), from a package.json of the
 * test's own; the real packaged .vsix is verified in test/cli/release.test.ts.
 */
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { ROOT } from './helpers';

const dir = mkdtempSync(join(tmpdir(), 'mcp-aql-verify-vsix-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A zip archive of stored (uncompressed) entries. */
function zip(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(entries)) {
    const data = Buffer.from(text);
    const n = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(n.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(n.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, n, data);
    centrals.push(central, n);
    offset += 30 + n.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const pkg = { name: 'ext', publisher: 'pub', version: '1.2.3', main: './dist/client.js', browser: './dist/browser-client.js' };
const pkgPath = join(dir, 'package.json');
writeFileSync(pkgPath, JSON.stringify(pkg));
const manifest = (id: string) => `<?xml version="1.0"?>\n<PackageManifest><Metadata>${id}</Metadata></PackageManifest>\n`;
const SOUND: Record<string, string> = {
  'extension.vsixmanifest': manifest('<Identity Language="en-US" Id="ext" Version="1.2.3" Publisher="pub" />'),
  '[Content_Types].xml': '<Types/>',
  'extension/package.json': JSON.stringify(pkg),
  'extension/dist/client.js': '',
  'extension/dist/client-main.js': '',
  'extension/dist/browser-client.js': '',
  'extension/dist/server.js': '',
  'extension/dist/server-main.js': '',
  'extension/dist/browser-server.js': '',
  'extension/dist/cli.js': '',
  'extension/readme.md': '# ext\n',
};

let n = 0;
function verify(bytes: Buffer) {
  const file = join(dir, `p${n++}.vsix`);
  writeFileSync(file, bytes);
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts/verify-vsix.mjs'), file, '--package', pkgPath], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr.replaceAll(`${file}: `, '') };
}

test('a sound .vsix passes: one line with its identity and size', () => {
  const r = verify(zip(SOUND));
  assert.deepEqual([r.code, r.err], [0, '']);
  assert.match(r.out, /: pub\.ext@1\.2\.3, 11 files, archive whole\n$/);
});

test('each way a .vsix can be wrong is one line and exit 1', () => {
  const cases: [string, Record<string, string>, string][] = [
    [
      'manifest at another version',
      { ...SOUND, 'extension.vsixmanifest': manifest('<Identity Id="ext" Version="1.2.2" Publisher="pub" />') },
      'verify-vsix: extension.vsixmanifest Identity Version is "1.2.2", package.json says "1.2.3"\n',
    ],
    [
      'manifest under another publisher',
      { ...SOUND, 'extension.vsixmanifest': manifest('<Identity Id="ext" Version="1.2.3" Publisher="someone" />') },
      'verify-vsix: extension.vsixmanifest Identity Publisher is "someone", package.json says "pub"\n',
    ],
    [
      'manifest without an identity',
      { ...SOUND, 'extension.vsixmanifest': manifest('') },
      'verify-vsix: extension.vsixmanifest has no <Identity>\n',
    ],
    [
      'inner package.json of another name',
      { ...SOUND, 'extension/package.json': JSON.stringify({ ...pkg, name: 'other' }) },
      'verify-vsix: extension/package.json name is "other", package.json says "ext"\n',
    ],
    [
      'inner package.json not JSON',
      { ...SOUND, 'extension/package.json': '{' },
      `verify-vsix: extension/package.json is not JSON: ${(() => {
        try {
          JSON.parse('{');
        } catch (e) {
          return (e as Error).message;
        }
      })()}\n`,
    ],
    [
      'the language server missing',
      Object.fromEntries(Object.entries(SOUND).filter(([k]) => k !== 'extension/dist/server.js')),
      'verify-vsix: missing extension/dist/server.js\n',
    ],
    [
      "package.json's browser entry missing",
      Object.fromEntries(Object.entries(SOUND).filter(([k]) => k !== 'extension/dist/browser-client.js')),
      'verify-vsix: missing extension/dist/browser-client.js (package.json browser)\n',
    ],
    [
      'a source map shipped',
      { ...SOUND, 'extension/dist/server.js.map': '{}' },
      'verify-vsix: a source or source map shipped: extension/dist/server.js.map\n',
    ],
    [
      'a source shipped',
      { ...SOUND, 'extension/server/src/a.ts': '' },
      'verify-vsix: a source or source map shipped: extension/server/src/a.ts\n',
    ],
    [
      'node_modules shipped',
      { ...SOUND, 'extension/node_modules/x/index.js': '' },
      'verify-vsix: node_modules shipped: extension/node_modules/x/index.js\n',
    ],
    [
      'a name that climbs out',
      { ...SOUND, 'extension/../../evil.js': '' },
      'verify-vsix: an entry outside the folder it unpacks in: extension/../../evil.js\n',
    ],
  ];
  for (const [name, entries, err] of cases) assert.deepEqual(verify(zip(entries)), { code: 1, out: '', err }, name);
});

test('a damaged archive, a file that is no archive, and bad usage', () => {
  const bytes = zip(SOUND);
  // Flip a byte of the stored readme: its CRC no longer matches.
  const at = bytes.indexOf('# ext');
  bytes[at] = 0x2a;
  const damaged = verify(bytes);
  assert.equal(damaged.code, 1);
  assert.match(damaged.err, /^verify-vsix: not a whole zip archive \(unzip -t, exit \d+: .+\)\n$/);
  const text = verify(Buffer.from('not a zip\n'));
  assert.equal(text.code, 1);
  assert.match(text.err, /^verify-vsix: not a whole zip archive \(unzip -t, exit 9: End-of-central-directory signature not found/);
  for (const args of [[], ['a.vsix', 'b.vsix'], ['--package', pkgPath], ['-x']]) {
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts/verify-vsix.mjs'), ...args], { encoding: 'utf8' });
    assert.deepEqual([r.status, r.stderr], [2, 'usage: node scripts/verify-vsix.mjs file.vsix [--package package.json]\n'], args.join(' '));
  }
});
