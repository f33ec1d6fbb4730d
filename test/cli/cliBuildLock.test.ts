/**
 * At a commit without the prebuilt dist/cli.js, scripts/run-cli.sh (the GitHub Action and the
 * pre-commit hooks) installs the packages the command line bundles with `npm ci` from
 * scripts/cli-build/package-lock.json: each checked against its integrity hash. That lockfile must
 * hold exactly what the repository's package-lock.json holds for those packages, so the bundle built
 * there is the one the tests ran. (The install itself needs the registry: test/cli/release.test.ts,
 * with MCP_AQL_NETWORK_TESTS=1.)
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers';

interface Entry {
  version?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
}
const json = <T>(p: string) => JSON.parse(readFileSync(join(ROOT, p), 'utf8')) as T;
const pkg = json<{ private: boolean; dependencies: Record<string, string> }>('scripts/cli-build/package.json');
const lock = json<{ lockfileVersion: number; packages: Record<string, Entry> }>('scripts/cli-build/package-lock.json');
const root = json<{ packages: Record<string, Entry> }>('package-lock.json');
const BUNDLED = ['ajv', 'esbuild', 'vscode-languageserver-textdocument', 'vscode-languageserver-types', 'yaml'];

test("scripts/cli-build: the five bundled packages, pinned at the repository lockfile's versions", () => {
  assert.equal(pkg.private, true);
  assert.deepEqual(Object.keys(pkg.dependencies).sort(), BUNDLED);
  for (const name of BUNDLED) assert.equal(pkg.dependencies[name], root.packages[`node_modules/${name}`]!.version, name);
  assert.deepEqual(
    lock.packages['']!.dependencies,
    pkg.dependencies,
    'the lockfile is the one of this package.json (npm ci refuses otherwise)',
  );
  assert.equal(lock.lockfileVersion, 3);
});

test("scripts/cli-build/package-lock.json: every package at the repository lockfile's version and integrity", () => {
  const entries = Object.entries(lock.packages).filter(([path]) => path !== '');
  assert.ok(entries.length >= BUNDLED.length);
  for (const [path, entry] of entries) {
    assert.match(entry.integrity ?? '', /^sha512-[A-Za-z0-9+/]+=*$/, `${path} has an integrity hash`);
    const theirs = root.packages[path];
    assert.ok(theirs, `${path} is in the repository's package-lock.json too`);
    assert.deepEqual([entry.version, entry.integrity], [theirs.version, theirs.integrity], path);
  }
});

test('scripts/run-cli.sh installs with npm ci from that lockfile, no install scripts, nothing by name', () => {
  const sh = readFileSync(join(ROOT, 'scripts/run-cli.sh'), 'utf8');
  assert.match(sh, /cp "\$here\/scripts\/cli-build\/package\.json" "\$here\/scripts\/cli-build\/package-lock\.json" "\$deps\/"/);
  assert.match(sh, /\(cd "\$deps" && npm ci --ignore-scripts /);
  assert.doesNotMatch(sh, /npm install|npm i |npx /, 'no install that skips the lockfile');
});
