/**
 * dist/client.js (package.json `main`): first forks the language server (earlyServer.ts: its start then runs beside
 * the bundle's load and VS Code's wait before `activate`; the client takes that process when it starts), then loads
 * the client's bundle (dist/client-main.js, built from extension.ts) with the V8 code cache a production build made
 * for it (dist/client-main.cache, scripts/code-cache.mjs), so the extension host does not compile the bundle's 600 KB
 * before `activate` (both are on the first squiggle's path when opening the file activates the extension:
 * bench/NOTES.md, "tenth" and "eleventh sitting"). The extension host runs Node 20 in code-server, which has no
 * module compile cache, so the bundle is compiled through `vm.Script` with `cachedData`. Only files beside this one
 * are read (and server.js beside it forked), never a path from the environment or the workspace; the cache is used
 * only for the bytes it was made from (their SHA-1 heads it) and only when V8 accepts it (the same V8 and flags; VS
 * Code desktop's Electron runs another V8 and refuses it: a check of a few bytes, then the bundle compiles as
 * usual). Node built-ins, clientCodeCache.ts and earlyServer.ts only.
 * MCP_AQL_WRITE_CODE_CACHE=<file>: write the cache there once the bundle's top level has run (the build's run).
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { setClientCodeCache, type ClientCodeCache } from './clientCodeCache';
import { startEarlyServer } from './earlyServer';

const started = Date.now();
// First: the server's process, so its start overlaps everything below (dist/server.js, beside this file).
startEarlyServer(__dirname);
const bundle = join(__dirname, 'client-main.js');
const source = readFileSync(bundle, 'utf8');
const digest = createHash('sha1').update(source).digest();
let cachedData: Buffer | undefined;
try {
  const file = readFileSync(join(__dirname, 'client-main.cache'));
  if (file.length > digest.length && file.subarray(0, digest.length).equals(digest)) cachedData = file.subarray(digest.length);
} catch {
  /* no cache: a development build */
}
// The module wrapper Node itself puts around a CommonJS file. The bundle's `require` is this module's, so the
// extension host's `vscode` module knows the extension by this file's path, as before.
const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n});`, { filename: bundle, cachedData });
const state: ClientCodeCache['state'] = !cachedData ? 'none' : script.cachedDataRejected ? 'rejected' : 'used';
setClientCodeCache({ state, started, compiled: Date.now() });
const main = { exports: {} as Partial<typeof import('./extension')> };
(script.runInThisContext() as (...a: unknown[]) => void).call(main.exports, main.exports, require, main, bundle, __dirname);
const out = process.env.MCP_AQL_WRITE_CODE_CACHE;
if (out) writeFileSync(out, Buffer.concat([digest, script.createCachedData()]));

// What the extension host calls: the bundle's own functions.
export const { activate, deactivate } = main.exports;
