/**
 * `dist/cli.js` loads the MCP SDK (and zod, which builds its schemas when loaded) for `probe` only:
 * every other command, `check` first, starts without it. zod marks its loading on
 * `globalThis.__zod_globalConfig`; a preload reports it when the process exits.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './helpers';

const CLI = join(ROOT, 'dist/cli.js');
const REPORT =
  'data:text/javascript,process.on("exit",()=>process.stderr.write("zod loaded: "+(globalThis.__zod_globalConfig!==undefined)+"\\n"))';

function zodLoaded(args: string[], input = ''): boolean {
  const r = spawnSync(process.execPath, ['--import', REPORT, CLI, ...args], { cwd: ROOT, input, encoding: 'utf8', timeout: 60_000 });
  const m = /zod loaded: (true|false)\n$/.exec(r.stderr);
  assert.ok(m, `${args.join(' ')}: ${r.stderr}`);
  return m[1] === 'true';
}

test('check, watch and --version start without the MCP SDK; probe loads it', () => {
  assert.equal(zodLoaded(['check', 'examples/server/notes.adapter.yaml']), false);
  assert.equal(zodLoaded(['--version']), false);
  assert.equal(zodLoaded(['watch', '--', process.execPath, '-e', 'process.stdin.resume()']), false);
  assert.equal(zodLoaded(['probe', '--list', '--', process.execPath, 'examples/server/server.mjs']), true);
});

test('a build without dist/probe-session.js: probe says so in one line (exit 2); check still runs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-aql-cli-only-'));
  try {
    copyFileSync(join(ROOT, 'dist', 'cli.js'), join(dir, 'cli.js'));
    const probe = spawnSync(process.execPath, [join(dir, 'cli.js'), 'probe', '--', process.execPath, '-e', '0'], {
      encoding: 'utf8',
      cwd: ROOT,
    });
    assert.equal(probe.status, 2, probe.stderr);
    assert.match(probe.stderr, /^mcp-aql-errors: probe: this build has no MCP client \(dist\/probe-session\.js is missing/);
    assert.equal(probe.stderr.trim().split('\n').length, 1, probe.stderr);
    const check = spawnSync(process.execPath, [join(dir, 'cli.js'), 'check', 'examples/github-adapter.md'], {
      encoding: 'utf8',
      cwd: ROOT,
    });
    assert.equal(check.status, 0, check.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
