/**
 * The npm package: `npm pack` holds exactly the allowlist, installs offline into an empty folder (it
 * has no runtime dependencies: dist/cli.js bundles yaml, ajv and the schemas), and `npx
 * mcp-aql-errors check` and `probe` (its SDK bundle, dist/probe-session.js, beside dist/cli.js) run there. Packs the current build (`npm test` builds first; `npm pack`
 * itself would run `prepack`, a production build, which this test skips with --ignore-scripts).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { builtinModules } from 'node:module';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, tempDir } from './helpers';

const npm = (args: string[], cwd: string, cache: string) => {
  const r = spawnSync('npm', args, {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
    env: {
      ...process.env,
      npm_config_cache: cache,
      npm_config_update_notifier: 'false',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
    },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

test('dist/cli.js requires nothing but Node built-ins, and dist/probe-session.js (the MCP SDK, for probe) beside it', () => {
  const requires = (file: string) =>
    // Calls only: ajv's code generator also holds `require("ajv/dist/runtime/…")` inside string literals.
    new Set([...readFileSync(join(ROOT, file), 'utf8').matchAll(/(?<![`'"\w.])require\(\s*["']([^"']+)["']\s*\)/g)].map(m => m[1]!));
  const src = readFileSync(join(ROOT, 'dist/cli.js'), 'utf8');
  const cli = requires('dist/cli.js');
  assert.ok(cli.size > 0, 'the bundle requires node built-ins');
  assert.ok(cli.delete('./probe-session.js'), 'probe requires the SDK bundle beside dist/cli.js');
  for (const r of cli) assert.ok(r.startsWith('node:') || builtinModules.includes(r), `dist/cli.js requires '${r}' at run time`);
  for (const r of requires('dist/probe-session.js'))
    assert.ok(r.startsWith('node:') || builtinModules.includes(r), `dist/probe-session.js requires '${r}' at run time`);
  assert.ok(!/McpError|ZodError/.test(src), 'neither the SDK nor zod is in dist/cli.js');
  assert.ok(src.startsWith('#!/usr/bin/env node\n'));
});

test('npm pack → install offline in an empty folder → npx mcp-aql-errors check', { timeout: 300_000 }, t => {
  assert.ok(existsSync(join(ROOT, 'dist/cli.js')), 'run npm run build first');
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  assert.equal(pkg.private, undefined);
  assert.equal(pkg.dependencies, undefined, 'everything the CLI runs is bundled');
  assert.deepEqual(pkg.bin, { 'mcp-aql-errors': './dist/cli.js' });
  for (const k of ['repository', 'bugs', 'homepage'])
    assert.match(JSON.stringify(pkg[k]), /https:\/\/github\.com\/mcp-aql\/mcp-aql-errors/, k);

  const cache = tempDir('mcp-aql-npm-cache-');
  const dest = tempDir('mcp-aql-pack-');
  const packed = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dest], ROOT, cache);
  assert.equal(packed.code, 0, packed.err);
  const info = JSON.parse(packed.out)[0] as { filename: string; size: number; unpackedSize: number; files: { path: string }[] };
  assert.deepEqual(info.files.map(f => f.path).sort(), [
    'CHANGELOG.md',
    'LICENSE',
    'README.md',
    'dist/cli.js',
    'dist/probe-session.js',
    'package.json',
    'schemas/adapter.schema.json',
    'schemas/config.schema.json',
    'schemas/envelopes/atlas-gate.schema.json',
    'schemas/envelopes/json-rpc.schema.json',
    'schemas/envelopes/mcp-aql.schema.json',
    'schemas/envelopes/mcp-tool-result.schema.json',
    'schemas/error-registry.json',
  ]);
  // This packs the development build (not minified, `npm test` builds it): about 550 KB packed, of which ~200 KB is
  // dist/probe-session.js (the MCP SDK's 2.x client, zod, and its own copy of ajv: 960 KB unpacked); the released
  // tarball (`prepack`: the production build) is about 405 KB. The bound catches a dependency bundled by mistake.
  assert.ok(info.size < 620_000, `tarball ${info.size} bytes`);
  t.diagnostic(`tarball ${info.filename}: ${info.size} bytes packed, ${info.unpackedSize} unpacked`);

  const empty = tempDir('mcp-aql-npx-');
  const installed = npm(['install', '--offline', '--no-package-lock', join(dest, info.filename)], empty, cache);
  assert.equal(installed.code, 0, installed.err);
  writeFileSync(join(empty, 'shop.adapter.yaml'), 'error_mapping:\n  404:\n    code: NOT_FOUND_REPOSITRY\n');
  writeFileSync(join(empty, 'ok.adapter.yaml'), 'error_mapping:\n  404:\n    code: NOT_FOUND_RESOURCE\n');
  const bad = npm(['exec', '--offline', '--', 'mcp-aql-errors', 'check', 'shop.adapter.yaml'], empty, cache);
  assert.equal(bad.code, 1, bad.err);
  assert.match(bad.out, /shop\.adapter\.yaml:3:11  error  (?:Did you mean \w+\? )?'NOT_FOUND_REPOSITRY' is neither a registry code/);
  const ok = spawnSync('npx', ['--offline', 'mcp-aql-errors', 'check', 'ok.adapter.yaml', '--format', 'json'], {
    cwd: empty,
    encoding: 'utf8',
    env: { ...process.env, npm_config_cache: cache },
  });
  assert.equal(ok.status, 0, ok.stderr);
  assert.deepEqual(JSON.parse(ok.stdout), [
    { file: 'ok.adapter.yaml', uri: pathToFileURL(join(empty, 'ok.adapter.yaml')).href, diagnostics: [] },
  ]);
  const version = spawnSync('npx', ['--offline', 'mcp-aql-errors', '--version'], {
    cwd: empty,
    encoding: 'utf8',
    env: { ...process.env, npm_config_cache: cache },
  });
  assert.equal(version.stdout.trim(), pkg.version);
  // probe loads the SDK from its own bundle, installed beside dist/cli.js.
  copyFileSync(join(ROOT, 'test/fixtures/runtime/tinyMcpServer.js'), join(empty, 'tiny.js'));
  const probe = spawnSync('npx', ['--offline', 'mcp-aql-errors', 'probe', '--format', 'json', '--', process.execPath, 'tiny.js'], {
    cwd: empty,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, npm_config_cache: cache },
  });
  assert.equal(probe.status, 1, probe.stderr);
  assert.deepEqual(
    (JSON.parse(probe.stdout) as { diagnostics: { code: string; line: number }[] }[]).flatMap(f =>
      f.diagnostics.map(d => `${d.line} ${d.code}`),
    ),
    // get_note answers "Error: note not found" with isError false: to the missing id, to the wrong type, to an id no
    // one issued, to the unknown tool.
    [
      '1 runtime.session',
      '2 runtime.unflagged-failure',
      '4 runtime.unflagged-failure',
      '6 runtime.unflagged-failure',
      '8 runtime.unflagged-failure',
    ],
  );
});
