/**
 * Neovim's built-in LSP client against dist/server.js: a real editor that is not ours gets the right
 * diagnostics, hover, completion and quick fix. Skipped (one line) when nvim is missing, except under
 * CI=true, where that is a failure: `npm run setup:e2e` installs it.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './harness';
import { tempDir } from '../tempDirs';

const nvim = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
const have = nvim.status === 0;
const skip = !have && process.env.CI !== 'true' ? 'nvim not installed: run `npm run setup:e2e` to enable the Neovim check' : false;

test('Neovim 0.7 built-in LSP client gets diagnostics, hover, completion and a quick fix', { skip, timeout: 60_000 }, () => {
  assert.ok(have, 'nvim is required under CI=true (npm run setup:e2e installs it)');
  const dir = tempDir('mcp-aql-nvim-');
  const file = join(dir, 'broken-github-adapter.md');
  const text = readFileSync(join(ROOT, 'test/fixtures/broken-github-adapter.md'), 'utf8');
  writeFileSync(file, text);
  const lines = text.split('\n');
  const lineOf = (needle: string) => lines.findIndex(l => l.includes(needle)) + 1;
  const colOf = (needle: string, sub: string) => lines[lineOf(needle) - 1]!.indexOf(sub) + 1;
  const env = {
    ...process.env,
    LSP_SERVER: join(ROOT, 'dist/server.js'),
    ADAPTER_FILE: file,
    EXPECT: [
      `${lineOf("'{owner}/{repos}'")}:template.unknown-placeholder`,
      `${lineOf('code: PERMISSION_DENIE')}:mapping.unknown-code`,
    ].join(','),
    HOVER_AT: `${lineOf('code: RATE_LIMIT_EXCEEDED')}:${colOf('code: RATE_LIMIT_EXCEEDED', 'RATE')}`,
    HOVER_WANT: 'RATE_LIMIT_EXCEEDED',
    COMPLETE_AT: `${lineOf('code: PERMISSION_DENIE')}:${colOf('code: PERMISSION_DENIE', 'DENIE') + 5}`,
    COMPLETE_WANT: 'PERMISSION_DENIED',
    FIX_AT: `${lineOf("'{owner}/{repos}'")}:${colOf("'{owner}/{repos}'", '{repos}') + 1}`,
    FIX_WANT: "Change to '{repo}'",
    XDG_CACHE_HOME: join(dir, 'cache'),
    XDG_STATE_HOME: join(dir, 'state'),
    XDG_DATA_HOME: join(dir, 'data'),
    XDG_CONFIG_HOME: join(dir, 'config'),
  };
  const r = spawnSync('nvim', ['--headless', '-u', 'NONE', '-i', 'NONE', '-n', '-c', `luafile ${join(ROOT, 'scripts/nvim-check.lua')}`], {
    env,
    encoding: 'utf8',
    timeout: 50_000,
  });
  const output = `${r.stdout}${r.stderr}`;
  assert.match(output, /^6 passed, 0 failed$/m, output);
  assert.equal(r.status, 0, output);
});
