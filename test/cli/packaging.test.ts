/** The manifest, the README's generated tables and the .vsix allowlist. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

test('every contributed command is in category MCP-AQL and every setting uses the mcpAql prefix', () => {
  for (const c of pkg.contributes.commands) assert.equal(c.category, 'MCP-AQL', c.command);
  for (const k of Object.keys(pkg.contributes.configuration.properties)) assert.match(k, /^mcpAql\./);
  assert.equal(pkg.capabilities.untrustedWorkspaces.supported, true);
  assert.match(pkg.engines.vscode, /^\^1\.100/);
});

test('the README settings table is generated from package.json and up to date', () => {
  const r = spawnSync(process.execPath, ['scripts/docs-tables.mjs', '--check'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});

test('the .vsix holds exactly the allowlist', { timeout: 60_000 }, () => {
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/@vscode/vsce/vsce'), 'ls', '--no-dependencies'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const files = r.stdout.split('\n').map(s => s.trim()).filter(Boolean).sort();
  for (const f of files) assert.match(f, /^(dist\/(client|server|webview)\.js|schemas\/.+\.json|syntaxes\/.+\.json|client\/media\/.+|README\.md|CHANGELOG\.md|LICENSE|package\.json)$/, f);
  for (const must of ['dist/client.js', 'dist/server.js', 'schemas/error-registry.json', 'syntaxes/placeholders.injection.tmLanguage.json', 'package.json']) assert.ok(files.includes(must), must);
});

test('the injection grammar colours placeholders and codes', () => {
  const g = JSON.parse(readFileSync(join(ROOT, 'syntaxes/placeholders.injection.tmLanguage.json'), 'utf8'));
  const ph = new RegExp(g.repository.placeholder.match, 'g');
  assert.deepEqual([..."Repository '{owner}/{repo}' { x } {}".matchAll(ph)].map(m => m[2]), ['owner', 'repo']);
  const code = new RegExp(g.repository.code.match, 'g');
  assert.deepEqual("code: NOT_FOUND_RESOURCE or RATE_LIMIT_EXCEEDED, not GITHUB_X".match(code), ['NOT_FOUND_RESOURCE', 'RATE_LIMIT_EXCEEDED']);
});
