/**
 * dist/client.js (client/src/loadClient.ts) loads the client's bundle, dist/client-main.js, with the V8 code cache
 * a production build makes (scripts/code-cache.mjs, makeClientCodeCache): used when it was made from these bytes
 * under this V8; refused by V8 (its header spoiled, its payload cut), absent, empty, or made from other bytes, the
 * bundle compiles as usual — and in every case the extension host gets the bundle's own `activate` and
 * `deactivate`. The loader reads only the two files beside it, whatever the working folder holds. Each case runs
 * the built files, copied into a folder of their own, in a fresh Node with the build's stand-in for `vscode`.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
// @ts-expect-error: a JavaScript module without types
import { makeClientCodeCache, VSCODE_STAND_IN } from '../../scripts/code-cache.mjs';
import { tempDir } from '../tempDirs';

const ROOT = join(__dirname, '..', '..');
const DIGEST = 20; // the SHA-1 of the bundle that heads the cache file

interface Loaded {
  state?: string;
  activate: string;
  deactivate: string;
  keys: string[];
  /** The bundle's top level ran (its banner and footer, esbuild.js clientLoadTimes). */
  evaluated: boolean;
}

/** Require `file` in a fresh Node, `vscode` the build's stand-in, from `cwd`: what the extension host would get. */
function load(file: string, cwd?: string): Loaded {
  const child = `${VSCODE_STAND_IN as string}
const ext = require(process.argv[1]);
const c = globalThis[Symbol.for('mcp-aql.clientCodeCache')];
const l = globalThis[Symbol.for('mcp-aql.clientLoad')];
process.stdout.write(JSON.stringify({ state: c && c.state, activate: String(ext.activate), deactivate: String(ext.deactivate), keys: Object.keys(ext).sort(), evaluated: Array.isArray(l) && l.length === 2 }));`;
  const r = spawnSync(process.execPath, ['-e', child, file], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, MCP_AQL_WRITE_CODE_CACHE: '' },
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Loaded;
}

/** A folder with the built loader and bundle, and `cache` as dist/client-main.cache when given. */
function folder(cache?: Buffer): string {
  const dir = tempDir('mcp-aql-client-load-');
  for (const f of ['client.js', 'client-main.js']) copyFileSync(join(ROOT, 'dist', f), join(dir, f));
  if (cache) writeFileSync(join(dir, 'client-main.cache'), cache);
  return dir;
}

test(
  'the client bundle with its code cache: used when made from its bytes, compiled as usual otherwise, the same exports',
  { timeout: 120_000 },
  async () => {
    assert.ok(existsSync(join(ROOT, 'dist', 'client-main.js')), 'npm run build first');
    const made = folder();
    const size = (await makeClientCodeCache(join(made, 'client.js'), join(made, 'client-main.cache'))) as number;
    const cache = readFileSync(join(made, 'client-main.cache'));
    assert.equal(cache.length, size);
    const source = readFileSync(join(made, 'client-main.js'));
    assert.deepEqual(
      cache.subarray(0, DIGEST),
      createHash('sha1').update(source).digest(),
      'the cache is headed by the SHA-1 of the bundle it was made from',
    );

    // What a plain require of the bundle gives (main's dist/client.js before the loader).
    const plain = load(join(made, 'client-main.js'));
    assert.equal(plain.state, undefined);
    assert.deepEqual(plain.keys, ['activate', 'deactivate']);
    assert.match(plain.activate, /activate|=>|function/);

    const spoiledHeader = Buffer.from(cache);
    for (let i = DIGEST + 4; i < DIGEST + 8; i++) spoiledHeader[i] = spoiledHeader[i]! ^ 0xff; // V8's version hash
    // Another bundle of the same length (V8 itself checks only a source's length): its cache must never be handed over.
    const text = source.toString('utf8');
    const at = text.indexOf('MCP-AQL');
    const other = folder();
    writeFileSync(join(other, 'client-main.js'), `${text.slice(0, at)}MCP-AQl${text.slice(at + 7)}`);
    await makeClientCodeCache(join(other, 'client.js'), join(other, 'client-main.cache'));
    const otherCache = readFileSync(join(other, 'client-main.cache'));
    assert.equal(otherCache.length > DIGEST, true);

    const cases: [string, Buffer | undefined, string][] = [
      ['made from these bytes', cache, 'used'],
      ['absent', undefined, 'none'],
      ['empty', Buffer.alloc(0), 'none'],
      ['the digest alone', cache.subarray(0, DIGEST), 'none'],
      ['made from another bundle of the same length', otherCache, 'none'],
      ['V8 header spoiled', spoiledHeader, 'rejected'],
      ['payload cut in half', cache.subarray(0, DIGEST + ((cache.length - DIGEST) >> 1)), 'rejected'],
      ['random bytes after the right digest', Buffer.concat([cache.subarray(0, DIGEST), Buffer.alloc(4096, 0x5a)]), 'rejected'],
    ];
    for (const [name, bytes, state] of cases) {
      const got = load(join(folder(bytes), 'client.js'));
      assert.equal(got.state, state, name);
      assert.equal(got.evaluated, true, name);
      assert.deepEqual(got.keys, plain.keys, name);
      assert.equal(got.activate, plain.activate, name);
      assert.equal(got.deactivate, plain.deactivate, name);
    }
  },
);

test('the loader reads only the bundle and cache beside it, whatever the working folder or NODE_PATH hold', { timeout: 60_000 }, () => {
  assert.ok(existsSync(join(ROOT, 'dist', 'client-main.js')), 'npm run build first');
  const dir = folder();
  // A stranger's checkout as the working folder: a bundle and a cache of its own, also under dist/.
  const stranger = tempDir('mcp-aql-client-stranger-');
  const evil = "globalThis.strangerRan = true; exports.activate = () => 'stranger'; exports.deactivate = () => 'stranger';";
  for (const d of [stranger, join(stranger, 'dist')]) {
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, 'client-main.js'), evil);
    writeFileSync(join(d, 'client-main.cache'), Buffer.alloc(64, 1));
  }
  const child = `${VSCODE_STAND_IN as string}
const ext = require(process.argv[1]);
process.stdout.write(JSON.stringify({ ran: !!globalThis.strangerRan, activate: String(ext.activate), state: globalThis[Symbol.for('mcp-aql.clientCodeCache')].state }));`;
  const r = spawnSync(process.execPath, ['-e', child, join(dir, 'client.js')], {
    cwd: stranger,
    encoding: 'utf8',
    env: { ...process.env, NODE_PATH: stranger, MCP_AQL_WRITE_CODE_CACHE: '' },
  });
  assert.equal(r.status, 0, r.stderr);
  const got = JSON.parse(r.stdout) as { ran: boolean; activate: string; state: string };
  assert.equal(got.ran, false);
  assert.notEqual(got.activate, "() => 'stranger'");
  assert.equal(got.state, 'none', 'no cache beside the loader: none read from elsewhere');
});
