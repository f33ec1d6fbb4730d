/**
 * The client bundle's load, as the extension host's `require` of package.json `main` does it, with and without
 * its V8 code cache (client/src/loadClient.ts; bench/NOTES.md, "tenth sitting"). Each run is a fresh Node process
 * (a code cache matters only to a cold one) with `vscode` the build's stand-in (scripts/code-cache.mjs); the
 * variants are interleaved, one run of each per round:
 *   plain      the bundle required directly (what main's dist/client.js was)
 *   none       the loader, no cache beside it
 *   compiled   the loader, a cache made right after compiling (only what V8 compiles eagerly)
 *   toplevel   the loader, the build's cache (made after the bundle's top level ran)
 *   rejected   the loader, the build's cache with its V8 header spoiled (what a desktop's other V8 costs)
 * Reports per variant the median of: require() → returned, the bundle's own evaluation (its banner and footer),
 * and the code cache's state. Needs a production build (`node esbuild.js --production`).
 *   node --import tsx bench/clientLoadBench.ts [--rounds=15] [--out=bench/client-load-results.json]
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { createHash } from 'node:crypto';
// @ts-expect-error: a JavaScript module without types
import { VSCODE_STAND_IN } from '../scripts/code-cache.mjs';

const ROOT = join(__dirname, '..');
const arg = (name: string, def: string) => process.argv.find(a => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? def;
const rounds = Number(arg('rounds', '15'));
const outFile = arg('out', join(ROOT, 'bench/client-load-results.json'));

const VARIANTS = ['plain', 'none', 'compiled', 'toplevel', 'rejected'] as const;
type Variant = (typeof VARIANTS)[number];

const CHILD = `${VSCODE_STAND_IN as string}
const t0 = performance.now();
const ext = require(process.argv[1]);
const t1 = performance.now();
if (typeof ext.activate !== 'function') throw new Error('no activate');
const load = globalThis[Symbol.for('mcp-aql.clientLoad')];
const cache = globalThis[Symbol.for('mcp-aql.clientCodeCache')];
process.stdout.write(JSON.stringify({ requireMs: t1 - t0, evalMs: load[1] - load[0], compileMs: cache ? cache.compiled - cache.started : undefined, state: cache?.state }));
`;

function setUp(): Record<Variant, string> {
  for (const f of ['client.js', 'client-main.js', 'client-main.cache'])
    if (!existsSync(join(ROOT, 'dist', f))) throw new Error(`dist/${f} missing: run node esbuild.js --production first`);
  const base = mkdtempSync(join(tmpdir(), 'mcp-aql-client-load-'));
  const dirs = {} as Record<Variant, string>;
  const source = readFileSync(join(ROOT, 'dist/client-main.js'), 'utf8');
  const digest = createHash('sha1').update(source).digest();
  const built = readFileSync(join(ROOT, 'dist/client-main.cache'));
  for (const v of VARIANTS) {
    const d = mkdtempSync(join(base, `${v}-`));
    dirs[v] = d;
    copyFileSync(join(ROOT, 'dist/client-main.js'), join(d, 'client-main.js'));
    if (v === 'plain') continue;
    copyFileSync(join(ROOT, 'dist/client.js'), join(d, 'client.js'));
    if (v === 'toplevel') copyFileSync(join(ROOT, 'dist/client-main.cache'), join(d, 'client-main.cache'));
    if (v === 'rejected') {
      const spoiled = Buffer.from(built);
      // V8's header follows our 20-byte SHA-1: its version hash at bytes 4–7 of the header.
      for (let i = digest.length + 4; i < digest.length + 8; i++) spoiled[i] = spoiled[i]! ^ 0xff;
      writeFileSync(join(d, 'client-main.cache'), spoiled);
    }
    if (v === 'compiled') {
      // The loader's own wrapper (client/src/loadClient.ts), compiled and not run.
      const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n});`, {
        filename: join(d, 'client-main.js'),
      });
      writeFileSync(join(d, 'client-main.cache'), Buffer.concat([digest, script.createCachedData()]));
    }
  }
  process.on('exit', () => rmSync(base, { recursive: true, force: true }));
  return dirs;
}

interface Run {
  requireMs: number;
  evalMs: number;
  compileMs?: number;
  state?: string;
}

function runOnce(dir: string, v: Variant): Run {
  const r = spawnSync(process.execPath, ['-e', CHILD, join(dir, v === 'plain' ? 'client-main.js' : 'client.js')], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${v}: ${r.stderr.slice(-500)}`);
  return JSON.parse(r.stdout) as Run;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const round1 = (x: number) => Math.round(x * 10) / 10;

function main(): void {
  const dirs = setUp();
  const loadBefore = loadavg();
  const runs: Record<Variant, Run[]> = Object.fromEntries(VARIANTS.map(v => [v, []])) as unknown as Record<Variant, Run[]>;
  for (let i = 0; i < rounds; i++) {
    // Interleaved, the order turned each round.
    const order = VARIANTS.map((_, k) => VARIANTS[(k + i) % VARIANTS.length]!);
    for (const v of order) runs[v].push(runOnce(dirs[v], v));
  }
  const loadAfter = loadavg();
  const summary = Object.fromEntries(
    VARIANTS.map(v => {
      const rs = runs[v];
      return [
        v,
        {
          requireMs: round1(median(rs.map(r => r.requireMs))),
          requireRange: [round1(Math.min(...rs.map(r => r.requireMs))), round1(Math.max(...rs.map(r => r.requireMs)))],
          evalMs: round1(median(rs.map(r => r.evalMs))),
          compileMs: v === 'plain' ? undefined : round1(median(rs.map(r => r.compileMs ?? 0))),
          states: [...new Set(rs.map(r => r.state ?? 'plain'))],
        },
      ];
    }),
  );
  const result = {
    date: new Date().toISOString(),
    node: process.version,
    rounds,
    bundleBytes: readFileSync(join(ROOT, 'dist/client-main.js')).length,
    cacheBytes: readFileSync(join(ROOT, 'dist/client-main.cache')).length,
    loadavg: { before: loadBefore.map(round1), after: loadAfter.map(round1) },
    summary,
  };
  writeFileSync(outFile, JSON.stringify(result, null, 2) + '\n');
  console.log(JSON.stringify(result, null, 2));
}

main();
