// Runs every test file (service, CLI, LSP, webview, e2e) in one `node --test` run, so that its
// summary closes the output. Usage: node scripts/test.mjs [folder-or-file ...]
// The run gets a temporary folder of its own (TMPDIR); a test that leaves anything in it fails the run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const roots = process.argv.slice(2).length
  ? process.argv.slice(2)
  : ['test/service', 'test/cli', 'test/lsp', 'test/client', 'test/webview', 'test/web', 'test/e2e'];
const files = [];
const walk = p => {
  if (!existsSync(p)) return;
  if (statSync(p).isFile()) {
    files.push(p);
    return;
  }
  for (const f of readdirSync(p).sort()) {
    const q = join(p, f);
    if (statSync(q).isDirectory()) {
      if (f !== 'fixtures' && f !== 'suite') walk(q);
    } else if (f.endsWith('.test.ts')) files.push(q);
  }
};
roots.forEach(walk);
if (files.length === 0) {
  console.error('no test files found under ' + roots.join(', '));
  process.exit(1);
}
const tmp = mkdtempSync(join(tmpdir(), 'mcp-aql-tests-'));
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', ...files], {
  stdio: 'inherit',
  env: { ...process.env, TMPDIR: tmp, TMP: tmp, TEMP: tmp },
});
// tsx keeps its compile cache there (tsx-<uid>): a tool's, not a test's.
const left = readdirSync(tmp).filter(n => !/^tsx-\d*$/.test(n));
rmSync(tmp, { recursive: true, force: true });
if (left.length) {
  console.error(`\nThe tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in their temporary folder: ${left.join(', ')}`);
  console.error('Make them with test/tempDirs.ts (tempDir, tempTree), which removes them after the file.');
  process.exit(1);
}
process.exit(r.status ?? 1);
