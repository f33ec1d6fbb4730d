/**
 * The README's Getting started works word for word on a fresh machine: the commands of the
 * fenced blocks of that section, taken literally, in a fresh clone of this checkout (its uncommitted
 * changes laid over it). Each command is run here, or needs what a test here has not — the network, an
 * editor — which the README says next to it; those are checked elsewhere: `npm ci` against the lock
 * file here (a dry run that installs nothing), the installed extension by test/e2e/installed.test.ts
 * (code-server installs the `.vsix` that `npm run package` writes).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT, tempDir } from './helpers';

/** The fenced blocks of a section of a Markdown file (`## title` up to the next `## `), indented or not. */
export function fencedBlocks(markdown: string, title: string): string[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex(l => l.trim() === `## ${title}`);
  assert.ok(start >= 0, `no "## ${title}" section`);
  const end = lines.findIndex((l, i) => i > start && /^## /.test(l));
  const section = lines.slice(start + 1, end < 0 ? undefined : end);
  const blocks: string[] = [];
  let open: { indent: string; lines: string[] } | undefined;
  for (const l of section) {
    const fence = /^(\s*)```/.exec(l);
    if (fence && !open) open = { indent: fence[1]!, lines: [] };
    else if (fence && open) {
      blocks.push(open.lines.join('\n'));
      open = undefined;
    } else if (open) open.lines.push(l.startsWith(open.indent) ? l.slice(open.indent.length) : l);
  }
  assert.equal(open, undefined, 'an unclosed fence');
  return blocks;
}

/** Each command of a shell block: one per line, `a && b` as two, comments and blank lines dropped. */
export const commandsOf = (block: string): string[] =>
  block
    .split('\n')
    .map(l => l.replace(/(^|\s)#.*$/, '').trim())
    .filter(Boolean)
    .flatMap(l => l.split(/\s*&&\s*/));

/** The commands a test here cannot run, what they need (the README says so beside them), and where they are checked. */
const ELSEWHERE: Record<string, { needs: RegExp; checked: string }> = {
  'npm ci': { needs: /`npm ci` .*the network/s, checked: 'here, as a dry run of the lock file' },
  'code --install-extension mcp-aql-errors.vsix': {
    needs: /`code`.*VS Code/s,
    checked: 'test/e2e/installed.test.ts (code-server installs the .vsix of `npm run package`)',
  },
};

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('## Getting started'), readme.indexOf('\n## ', readme.indexOf('## Getting started') + 3));
const commands = fencedBlocks(readme, 'Getting started').flatMap(commandsOf);

const git = (args: string[], cwd = ROOT) => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};

/** A fresh clone of this checkout's HEAD with its uncommitted changes (modified, new, deleted files) laid over it. */
function cloneOfWorkingTree(): string {
  const dir = join(tempDir('mcp-aql-getting-started-'), 'clone');
  git(['clone', '--quiet', '--no-checkout', '--no-hardlinks', ROOT, dir]);
  git(['checkout', '--quiet', '--detach', git(['rev-parse', 'HEAD']).trim()], dir);
  for (const f of git(['ls-files', '-z', '--modified', '--others', '--exclude-standard']).split('\0').filter(Boolean)) {
    if (!existsSync(join(ROOT, f))) continue;
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    copyFileSync(join(ROOT, f), join(dir, f));
  }
  for (const f of git(['ls-files', '-z', '--deleted']).split('\0').filter(Boolean)) rmSync(join(dir, f), { force: true });
  return dir;
}

test('Getting started has its commands in fenced blocks, and each is run here or said to need the network or an editor', () => {
  assert.deepEqual(commands, ['npm ci', 'npm run package', 'code --install-extension mcp-aql-errors.vsix']);
  for (const [command, { needs }] of Object.entries(ELSEWHERE)) {
    assert.ok(commands.includes(command), `${command} is still in Getting started`);
    assert.match(section, needs, `the README says what ${command} needs`);
  }
  assert.match(section, /`npm run package`\s+writes `mcp-aql-errors\.vsix`/);
});

test('the commands of Getting started, word for word, in a fresh clone', { timeout: 600_000 }, () => {
  const dir = cloneOfWorkingTree();
  for (const command of commands) {
    if (command === 'npm ci') {
      // Needs the network: here, the lock file must install as it is (an out-of-sync lock fails `npm ci`);
      // then the packages it would install are this checkout's (installed from the same lock).
      const r = spawnSync('npm', ['ci', '--dry-run', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], {
        cwd: dir,
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, `npm ci --dry-run: ${r.stdout}${r.stderr}`);
      symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
      continue;
    }
    if (ELSEWHERE[command]) continue;
    const r = spawnSync('bash', ['-c', command], { cwd: dir, encoding: 'utf8', timeout: 540_000, maxBuffer: 64 * 1024 * 1024 });
    assert.equal(r.status, 0, `${command} failed:\n${r.stdout}${r.stderr}`);
  }
  // `npm run package` writes mcp-aql-errors.vsix: a zip holding the extension's manifest and bundles.
  const vsix = readFileSync(join(dir, 'mcp-aql-errors.vsix'));
  assert.equal(vsix.toString('latin1', 0, 2), 'PK');
  for (const name of ['extension/package.json', 'extension/dist/client.js', 'extension/dist/server.js'])
    assert.ok(vsix.includes(Buffer.from(name)), `${name} is in the .vsix`);
});
