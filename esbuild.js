// One build script, seven bundles (conventions C13), and the server's code cache in a production build. `--production` minifies and drops sourcemaps;
// `--watch` rebuilds on change. tsc (npm run check-types) does the type checking.
const esbuild = require('esbuild');
const path = require('node:path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
// `--cli-only`: dist/cli.js alone, from the few packages it bundles (scripts/run-cli.sh installs just
// those in a folder named by NODE_PATH when a fresh clone has no dist/cli.js).
const cliOnly = process.argv.includes('--cli-only');
const nodePaths = process.env.NODE_PATH ? process.env.NODE_PATH.split(path.delimiter) : [];
const base = {
  bundle: true,
  minify: production,
  sourcemap: !production,
  logLevel: 'warning',
  target: 'node20',
  legalComments: 'none',
  nodePaths,
};

/** The browser build of the server: `vscode-languageserver/node` is the browser entry, and Node's fs, path and url are server/src/browser/noFileSystem.ts. */
const browserServer = {
  name: 'browser-server',
  setup(build) {
    const shim = path.join(__dirname, 'server/src/browser/noFileSystem.ts');
    build.onResolve({ filter: /^node:(fs|path|url|child_process)$/ }, () => ({ path: shim }));
    build.onResolve({ filter: /^vscode-languageserver\/node$/ }, () => ({
      path: path.join(__dirname, 'node_modules/vscode-languageserver/lib/browser/main.js'),
    }));
  },
};

/**
 * The `yaml` package reads `process.env.LOG_TOKENS` for every token its parser sees and
 * `process.env.LOG_STREAM` for every document it composes (debug logging). `process.env` is an exotic
 * object whose every read asks the C environment: about 12 % of a parse. Our bundles never log tokens,
 * so those two reads become `false` (measured in docs/performance.md). The build fails if the pattern
 * is gone (a new `yaml` version), so the saving cannot vanish unnoticed.
 */
const yamlNoEnvReads = {
  name: 'yaml-no-env-reads',
  setup(build) {
    const fs = require('node:fs');
    build.onLoad({ filter: /[\\/]node_modules[\\/]yaml[\\/]dist[\\/](parse[\\/]parser|compose[\\/]composer)\.js$/ }, args => {
      const text = fs.readFileSync(args.path, 'utf8');
      const out = text.replace(/\bnode_process\.env\.LOG_(TOKENS|STREAM)\b/g, 'false');
      if (out === text) throw new Error(`yaml-no-env-reads: no LOG_TOKENS/LOG_STREAM read found in ${args.path}; update esbuild.js`);
      return { contents: out, loader: 'js' };
    });
  },
};

/**
 * `probe`'s MCP SDK (and zod) in a bundle of their own, dist/probe-session.js (server/src/cli/runtime/session/clientSession.ts,
 * the only importer of the SDK): dist/cli.js requires it, beside itself, when `probe` runs, so no other command
 * reads or compiles them (about a fifth of dist/cli.js).
 */
const probeSessionApart = {
  name: 'probe-session-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/clientSession$/ }, () => ({ path: './probe-session.js', external: true }));
  },
};

/**
 * `mcp-aql:adapter-validators` (server/src/adapterValidators.d.ts): the adapter schema's validators as code,
 * generated from schemas/adapter.schema.json by scripts/schema-validators.mjs at each build, so the server's
 * first check compiles no schema (docs/performance.md, "First diagnostics").
 */
const adapterValidators = {
  name: 'adapter-validators',
  setup(build) {
    build.onResolve({ filter: /^mcp-aql:adapter-validators$/ }, () => ({ path: 'adapter-validators', namespace: 'mcp-aql' }));
    build.onLoad({ filter: /.*/, namespace: 'mcp-aql' }, async () => {
      const fs = require('node:fs');
      const file = path.join(__dirname, 'schemas/adapter.schema.json');
      const { adapterValidatorsCode } = await import('./scripts/schema-validators.mjs');
      return {
        contents: adapterValidatorsCode(JSON.parse(fs.readFileSync(file, 'utf8'))),
        loader: 'js',
        resolveDir: __dirname,
        watchFiles: [file, path.join(__dirname, 'scripts/schema-validators.mjs')],
      };
    });
  },
};

/**
 * The client bundles note when their evaluation starts and ends (the extension host compiles and runs them
 * when it activates the extension): client/src/activateWith.ts logs both, so the real-editor test can tell the
 * bundle's load from the rest of the activation.
 */
const clientLoadTimes = {
  // Strict mode first: a directive must open the file.
  banner: { js: "'use strict';\nglobalThis[Symbol.for('mcp-aql.clientLoad')] = [Date.now()];" },
  footer: { js: "globalThis[Symbol.for('mcp-aql.clientLoad')].push(Date.now());" },
};

const builds = [
  // dist/client.js loads dist/client-main.js with its code cache (client/src/loadClient.ts; made by clientCodeCache below).
  { ...base, entryPoints: ['client/src/loadClient.ts'], outfile: 'dist/client.js', platform: 'node', format: 'cjs' },
  {
    ...base,
    entryPoints: ['client/src/extension.ts'],
    outfile: 'dist/client-main.js',
    platform: 'node',
    format: 'cjs',
    external: ['vscode'],
    ...clientLoadTimes,
  },
  // dist/server.js loads dist/server-main.js with its code cache (server/src/loadServer.ts; made below).
  { ...base, entryPoints: ['server/src/loadServer.ts'], outfile: 'dist/server.js', platform: 'node', format: 'cjs' },
  {
    ...base,
    entryPoints: ['server/src/main.ts'],
    outfile: 'dist/server-main.js',
    platform: 'node',
    format: 'cjs',
    plugins: [yamlNoEnvReads, adapterValidators],
  },
  {
    ...base,
    entryPoints: ['server/src/cli/main.ts'],
    outfile: 'dist/cli.js',
    platform: 'node',
    format: 'cjs',
    banner: { js: '#!/usr/bin/env node' },
    plugins: [yamlNoEnvReads, probeSessionApart],
  },
  {
    ...base,
    entryPoints: ['server/src/cli/runtime/session/clientSession.ts'],
    outfile: 'dist/probe-session.js',
    platform: 'node',
    format: 'cjs',
  },
  { ...base, entryPoints: ['client/webview/main.ts'], outfile: 'dist/webview.js', platform: 'browser', format: 'iife', target: 'es2022' },
  // The web extension (vscode.dev): the client in the browser extension host, the server in a Web Worker.
  {
    ...base,
    entryPoints: ['client/src/browserExtension.ts'],
    outfile: 'dist/browser-client.js',
    platform: 'browser',
    format: 'cjs',
    target: 'es2022',
    external: ['vscode'],
    ...clientLoadTimes,
  },
  {
    ...base,
    entryPoints: ['server/src/browserMain.ts'],
    outfile: 'dist/browser-server.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    plugins: [browserServer, yamlNoEnvReads, adapterValidators],
  },
];

async function main() {
  const contexts = await Promise.all(builds.filter(b => !cliOnly || b.outfile === 'dist/cli.js').map(b => esbuild.context(b)));
  if (watch) {
    await Promise.all(contexts.map(c => c.watch()));
    return;
  }
  await Promise.all(contexts.map(c => c.rebuild()));
  await Promise.all(contexts.map(c => c.dispose()));
  if (!cliOnly) await Promise.all([codeCache(), clientCodeCache()]);
}

/**
 * dist/client-main.cache, the client bundle's V8 code cache (scripts/code-cache.mjs, makeClientCodeCache: the bundle's
 * top level run against a stand-in for `vscode`), made by a production build; a development build removes the one a
 * production build left.
 */
async function clientCodeCache() {
  const out = path.join(__dirname, 'dist/client-main.cache');
  require('node:fs').rmSync(out, { force: true });
  if (!production) return;
  const { makeClientCodeCache } = await import('./scripts/code-cache.mjs');
  try {
    await makeClientCodeCache(path.join(__dirname, 'dist/client.js'), out);
  } catch (e) {
    console.warn(`esbuild.js: ${e.message}`);
  }
}

/**
 * dist/server-main.cache, the server bundle's V8 code cache (scripts/code-cache.mjs), made by a production
 * build; a development build removes the one a production build left (the loader would refuse it anyway: it
 * was made from other bytes).
 */
async function codeCache() {
  const out = path.join(__dirname, 'dist/server-main.cache');
  require('node:fs').rmSync(out, { force: true });
  if (!production) return;
  // The flags the editor's client starts the server with (server/src/protocol.ts): V8 refuses a cache made under others.
  const protocol = esbuild.buildSync({
    entryPoints: ['server/src/protocol.ts'],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'cjs',
  });
  const mod = { exports: {} };
  new Function('module', 'exports', 'require', protocol.outputFiles[0].text)(mod, mod.exports, require);
  const { makeCodeCache } = await import('./scripts/code-cache.mjs');
  try {
    await makeCodeCache(path.join(__dirname, 'dist/server.js'), mod.exports.SERVER_EXEC_ARGV, out);
  } catch (e) {
    console.warn(`esbuild.js: ${e.message}`);
  }
}

main().catch(err => {
  console.error(err);
  process.exit(1);
});
