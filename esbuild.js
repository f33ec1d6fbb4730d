// One build script, four bundles (conventions C13). `--production` minifies and drops sourcemaps;
// `--watch` rebuilds on change. tsc (npm run check-types) does the type checking.
const esbuild = require('esbuild');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const base = { bundle: true, minify: production, sourcemap: !production, logLevel: 'warning', target: 'node20', legalComments: 'none' };

const builds = [
  { ...base, entryPoints: ['client/src/extension.ts'], outfile: 'dist/client.js', platform: 'node', format: 'cjs', external: ['vscode'] },
  { ...base, entryPoints: ['server/src/main.ts'], outfile: 'dist/server.js', platform: 'node', format: 'cjs' },
  { ...base, entryPoints: ['server/src/cli/main.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', banner: { js: '#!/usr/bin/env node' } },
  { ...base, entryPoints: ['client/webview/main.ts'], outfile: 'dist/webview.js', platform: 'browser', format: 'iife', target: 'es2022' },
];

async function main() {
  const contexts = await Promise.all(builds.map(b => esbuild.context(b)));
  if (watch) {
    await Promise.all(contexts.map(c => c.watch()));
    return;
  }
  await Promise.all(contexts.map(c => c.rebuild()));
  await Promise.all(contexts.map(c => c.dispose()));
}

main().catch(err => { console.error(err); process.exit(1); });
