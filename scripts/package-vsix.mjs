// Builds the .vsix from a staging folder (dist/vsix-XXXXXX/, one per run), so that package.json's "files" (the npm
// package's allowlist) and .vscodeignore (the .vsix's allowlist) never meet: vsce refuses a folder that
// has both. The stage holds package.json without "files" and "scripts", .vscodeignore, the candidate
// files, and dist/README.md (scripts/vsix-readme.mjs) as README.md; vsce applies .vscodeignore there.
//   node scripts/package-vsix.mjs [-o file.vsix] [--no-build] [--ls]
// --ls prints what the .vsix would hold (vsce ls) instead of packaging.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { vsixReadme } from './vsix-readme.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const outArg = args.includes('-o') ? args[args.indexOf('-o') + 1] : undefined;
const out = resolve(outArg ?? join(root, 'mcp-aql-errors.vsix'));
const run = (cmd, argv, cwd) => {
  const r = spawnSync(cmd, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) {
    process.stderr.write(r.stdout + r.stderr);
    process.exit(r.status ?? 1);
  }
  return r.stdout;
};

if (!args.includes('--no-build') && !args.includes('--ls')) run(process.execPath, ['esbuild.js', '--production'], root);

// A staging folder of its own per run (removed on exit): tests package and list in parallel.
mkdirSync(join(root, 'dist'), { recursive: true });
const stage = mkdtempSync(join(root, 'dist', 'vsix-'));
process.on('exit', () => rmSync(stage, { recursive: true, force: true }));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
delete pkg.files;
delete pkg.scripts;
delete pkg.devDependencies;
writeFileSync(join(stage, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
cpSync(join(root, '.vscodeignore'), join(stage, '.vscodeignore'));
writeFileSync(join(stage, 'README.md'), vsixReadme(readFileSync(join(root, 'README.md'), 'utf8'), pkg.repository.url));
for (const p of ['schemas', 'syntaxes', 'client/media', 'docs', 'CHANGELOG.md', 'LICENSE'])
  cpSync(join(root, p), join(stage, p), { recursive: true });
mkdirSync(join(stage, 'dist'));
// The bundles, and the server's and client's code caches when the build made them (esbuild.js --production).
for (const f of readdirSync(join(root, 'dist')))
  if ((f.endsWith('.js') || f === 'server-main.cache' || f === 'client-main.cache') && existsSync(join(root, 'dist', f)))
    cpSync(join(root, 'dist', f), join(stage, 'dist', f));

const vsce = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
if (args.includes('--ls')) process.stdout.write(run(process.execPath, [vsce, 'ls', '--no-dependencies'], stage));
else {
  run(
    process.execPath,
    [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '-o', out],
    stage,
  );
  process.stdout.write(`${out}\n`);
}
