// Runs every test file (service, CLI, LSP, webview, e2e) in one `node --test` run, so that its
// summary closes the output. Usage: node scripts/test.mjs [folder-or-file ...]
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
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
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', ...files], { stdio: 'inherit' });
process.exit(r.status ?? 1);
