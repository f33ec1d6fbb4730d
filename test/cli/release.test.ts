/**
 * The release automation (CONTRIBUTING.md, "Releasing"): .github/workflows/release.yml has the steps
 * the README's "Install" section promises, passes its inputs and secrets to scripts only through env,
 * and its dry runs pass here: `npm publish --dry-run` of the tarball, the .vsix (`vsce package`)
 * verified by scripts/verify-vsix.mjs, and (needing the registry: skipped, with the reason, unless
 * MCP_AQL_NETWORK_TESTS=1) the pinned ovsx running on this Node. At a release tag, the Action and the
 * hooks run the prebuilt dist/cli.js without installing anything (scripts/run-cli.sh, with no npm on
 * the PATH); at any other commit they build it from scripts/cli-build's lockfile.
 */
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './helpers';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
const workflow = parse(readFileSync(join(ROOT, '.github/workflows/release.yml'), 'utf8')) as {
  on: { workflow_dispatch: { inputs: Record<string, { required: boolean }> } };
  permissions: Record<string, string>;
  jobs: { release: { env: Record<string, string>; steps: Step[] } };
};
const steps = workflow.jobs.release.steps;
const step = (name: RegExp) => {
  const s = steps.find(x => x.name && name.test(x.name));
  assert.ok(s, `a step named ${name}`);
  return s;
};
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const install = readme.slice(readme.indexOf('\n## Install\n'), readme.indexOf('\n## ', readme.indexOf('\n## Install\n') + 5));
const temps: string[] = [];
const temp = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  temps.push(d);
  return d;
};
after(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

test('release.yml: run by hand with a version; tests, builds, tags the release commit, attaches both files, publishes where a token is set', () => {
  assert.deepEqual(Object.keys(workflow.on), ['workflow_dispatch']);
  assert.equal(workflow.on.workflow_dispatch.inputs.version!.required, true);
  assert.deepEqual(workflow.permissions, { contents: 'write' });
  assert.deepEqual(
    steps.map(s => s.name ?? s.uses),
    [
      'actions/checkout@v4',
      'actions/setup-node@v4',
      'Check the version',
      'Install',
      'Test',
      'Build the npm tarball and the .vsix',
      'Tag the release commit (main + the prebuilt dist/cli.js and dist/probe-session.js)',
      'GitHub release with the .vsix and the npm tarball',
      'Publish to npm',
      'Publish to the VS Code Marketplace',
      'Publish to Open VSX',
    ],
  );
  for (const s of steps)
    assert.ok(!s.run?.includes('${{'), `${s.name}: inputs and secrets reach the script only through env (no injection)`);
  assert.equal(workflow.jobs.release.env.VERSION, '${{ inputs.version }}');
  assert.match(step(/^Test$/).run!, /npm run check-types && npm run lint && npm run build && node scripts\/test\.mjs/);
  const build = step(/^Build/).run!;
  assert.match(build, /npm pack --ignore-scripts/);
  assert.match(build, /node scripts\/package-vsix\.mjs --no-build -o "mcp-aql-errors-\$VERSION\.vsix"/);
  assert.match(
    build,
    /\n\s*node scripts\/verify-vsix\.mjs "mcp-aql-errors-\$VERSION\.vsix"\n?$/,
    'the .vsix verified before the tag and the publishing',
  );
  const tag = step(/^Tag/).run!;
  assert.match(tag, /git add -f dist\/cli\.js dist\/probe-session\.js/, 'probe needs its bundle at a release tag too');
  assert.match(tag, /git tag -a "v\$VERSION"/);
  assert.match(tag, /git push origin "v\$VERSION"\n?$/, 'only the tag is pushed, never main');
  assert.match(
    step(/^GitHub release/).run!,
    /gh release create "v\$VERSION" "mcp-aql-errors-\$VERSION\.vsix" "mcp-aql-errors-\$VERSION\.tgz"/,
  );
  for (const [name, token, cmd] of [
    [/^Publish to npm$/, 'NPM_TOKEN', /npm publish "mcp-aql-errors-\$VERSION\.tgz"/],
    [/Marketplace/, 'VSCE_PAT', /npx vsce publish --packagePath "mcp-aql-errors-\$VERSION\.vsix"/],
    [/Open VSX/, 'OVSX_PAT', /npx --yes ovsx@0\.10\.12 publish "mcp-aql-errors-\$VERSION\.vsix"/],
  ] as const) {
    const s = step(name);
    assert.equal(s.if, `env.${token} != ''`, `${token}: skipped without its secret`);
    assert.equal(workflow.jobs.release.env[token], `\${{ secrets.${token} }}`);
    assert.match(s.run!, cmd);
  }
});

test('the README "Install" section says what works today and what the release workflow makes true', () => {
  assert.ok(install.length > 200, 'README has an Install section');
  // Today: a clone, and a .vsix (from a release, or built from a clone).
  assert.match(install, /npm ci && npm run build/);
  assert.match(install, /npm run package/);
  assert.match(install, /\.vsix/);
  // After the first release: what the workflow does, by name.
  assert.match(install, /\.github\/workflows\/release\.yml/);
  for (const s of ['npm', 'Marketplace', 'Open VSX', 'NPM_TOKEN', 'VSCE_PAT', 'OVSX_PAT', 'prebuilt'])
    assert.ok(install.includes(s), `Install mentions ${s}`);
  for (const doc of [readme, readFileSync(join(ROOT, 'docs/ci.md'), 'utf8')])
    assert.doesNotMatch(doc, /mcp-aql-errors@v0\.1\.0|rev: v0\.1\.0/, 'no example pins a tag that does not exist yet');
});

test('dry run: npm publish --dry-run of the package', { timeout: 300_000 }, () => {
  assert.ok(existsSync(join(ROOT, 'dist/cli.js')), 'npm run build first');
  const cache = temp('mcp-aql-npm-cache-');
  const r = spawnSync('npm', ['publish', '--dry-run', '--ignore-scripts', '--json', '--offline'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 240_000,
    env: { ...process.env, npm_config_cache: cache, npm_config_update_notifier: 'false' },
  });
  assert.equal(r.status, 0, r.stderr);
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  const json = JSON.parse(r.stdout) as Record<string, { name: string; version: string; files: { path: string }[] }>;
  const info = json[pkg.name] ?? (json as unknown as { name: string; version: string; files: { path: string }[] });
  assert.deepEqual([info.name, info.version], [pkg.name, pkg.version]);
  assert.ok(info.files.some(f => f.path === 'dist/cli.js'));
});

/** The reason a test that needs the npm registry is skipped, or false when MCP_AQL_NETWORK_TESTS is set. */
const network = process.env.MCP_AQL_NETWORK_TESTS ? false : 'needs the npm registry: set MCP_AQL_NETWORK_TESTS=1 to run it';

test('dry run: the .vsix (vsce package), verified as the release verifies it (scripts/verify-vsix.mjs)', { timeout: 600_000 }, () => {
  const out = join(temp('mcp-aql-vsix-'), 'x.vsix');
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts/package-vsix.mjs'), '--no-build', '-o', out], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 300_000,
  });
  assert.equal(r.status, 0, r.stderr);
  const v = spawnSync(process.execPath, [join(ROOT, 'scripts/verify-vsix.mjs'), out], { cwd: ROOT, encoding: 'utf8' });
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; publisher: string; version: string };
  assert.equal(v.status, 0, v.stderr);
  assert.match(
    v.stdout,
    new RegExp(`: ${pkg.publisher}\\.${pkg.name}@${pkg.version.replaceAll('.', '\\.')}, \\d+ files, archive whole\n$`),
  );
});

test('the pinned ovsx (npx, from the registry) runs on this Node', { timeout: 600_000, skip: network }, () => {
  const ovsx = spawnSync('npx', ['--yes', 'ovsx@0.10.12', '--version'], { encoding: 'utf8', timeout: 300_000 });
  assert.equal(ovsx.stdout.trim(), '0.10.12', ovsx.stderr);
});

test(
  'at a release tag (dist/cli.js committed), scripts/run-cli.sh runs it with no npm and no install',
  { skip: process.platform === 'win32' },
  () => {
    const clone = temp('mcp-aql-tag-');
    mkdirSync(join(clone, 'scripts'));
    mkdirSync(join(clone, 'dist'));
    copyFileSync(join(ROOT, 'scripts/run-cli.sh'), join(clone, 'scripts/run-cli.sh'));
    copyFileSync(join(ROOT, 'dist/cli.js'), join(clone, 'dist/cli.js'));
    const bin = temp('mcp-aql-bin-');
    symlinkSync(process.execPath, join(bin, 'node'));
    for (const tool of ['bash', 'dirname']) {
      const where = spawnSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
      symlinkSync(where, join(bin, tool));
    }
    const r = spawnSync(join(bin, 'bash'), [join(clone, 'scripts/run-cli.sh'), '--version'], { encoding: 'utf8', env: { PATH: bin } });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version);
    assert.equal(r.stderr, '', 'no build, no npm');
  },
);

test(
  'at any other commit, scripts/run-cli.sh builds dist/cli.js from the few packages it bundles',
  { timeout: 600_000, skip: network },
  () => {
    const clone = temp('mcp-aql-clone-');
    const files = spawnSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).stdout.split('\0').filter(Boolean);
    for (const f of files) {
      mkdirSync(join(clone, f, '..'), { recursive: true });
      if (existsSync(join(ROOT, f))) copyFileSync(join(ROOT, f), join(clone, f));
    }
    const r = spawnSync('bash', [join(clone, 'scripts/run-cli.sh'), '--version'], { cwd: clone, encoding: 'utf8', timeout: 500_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /building the command line once/);
    const installed = spawnSync('ls', [join(clone, '.cli-build/node_modules')], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter(n => n && !n.startsWith('.'));
    assert.ok(installed.length <= 12, `only the bundled packages and theirs: ${installed.join(' ')}`);
    const full = readFileSync(join(ROOT, 'dist/cli.js'));
    assert.ok(readFileSync(join(clone, 'dist/cli.js')).length > full.length / 4, 'a whole bundle');
  },
);
