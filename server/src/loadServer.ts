/**
 * dist/server.js: loads the server's bundle (dist/server-main.js, built from main.ts) with the V8 code cache
 * the production build made for it (dist/server-main.cache, scripts/code-cache.mjs), so the functions a start
 * and a first check run come compiled: a fresh server reaches its first diagnostics sooner (docs/performance.md,
 * "First diagnostics"). Node 20, which the editor's extension host may run, has no module compile cache
 * (`module.enableCompileCache` is Node 22.1 and later), so the bundle is compiled through `vm.Script` with
 * `cachedData`. The cache is used only for the bytes it was made from (their SHA-1 heads it) and only when V8
 * accepts it (the same V8 and flags: the editor's client starts the server with SERVER_EXEC_ARGV, as the build
 * did); otherwise the bundle is compiled as usual. Node built-ins only.
 * MCP_AQL_WRITE_CODE_CACHE=<file>: write the cache there when the process exits (the build's run).
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { isMainThread, workerData } from 'node:worker_threads';

/** What a code cache was to this start: used, refused by V8, or absent (the server logs it). */
export type CodeCacheState = 'used' | 'rejected' | 'none';
export const CODE_CACHE_STATE = Symbol.for('mcp-aql.codeCache');

// The workspace scan's thread (node/indexThread.ts) gives way to the editor, from before it compiles anything: on
// Linux a thread's nice value is its own (`setPriority(n)` sets the calling thread's). Elsewhere that call would
// lower the whole process, so it is made on Linux only.
const nice = isMainThread ? undefined : (workerData as { nice?: unknown } | undefined)?.nice;
if (typeof nice === 'number' && process.platform === 'linux')
  try {
    setPriority(nice);
  } catch {
    /* refused: the thread runs at the server's priority */
  }

const bundle = join(__dirname, 'server-main.js');
const source = readFileSync(bundle, 'utf8');
const digest = createHash('sha1').update(source).digest();
let cachedData: Buffer | undefined;
try {
  const file = readFileSync(join(__dirname, 'server-main.cache'));
  // The header alone (a cut file) is no cache: V8 would refuse it, logged as `rejected` rather than `none`.
  if (file.length > digest.length && file.subarray(0, digest.length).equals(digest)) cachedData = file.subarray(digest.length);
} catch {
  /* no cache: a development build */
}
// The module wrapper Node itself puts around a CommonJS file.
const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n});`, { filename: bundle, cachedData });
const state: CodeCacheState = !cachedData ? 'none' : script.cachedDataRejected ? 'rejected' : 'used';
(globalThis as Record<symbol, unknown>)[CODE_CACHE_STATE] = state;
const out = process.env.MCP_AQL_WRITE_CODE_CACHE;
// The main thread only: the workspace scan's thread runs this file too (node/indexThread.ts).
if (out && isMainThread) process.on('exit', () => writeFileSync(out, Buffer.concat([digest, script.createCachedData()])));
const main = { exports: {} };
(script.runInThisContext() as (...a: unknown[]) => void).call(
  main.exports,
  main.exports,
  createRequire(bundle),
  main,
  bundle,
  dirname(bundle),
);
