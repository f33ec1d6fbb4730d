#!/usr/bin/env node
// Verifies a packaged .vsix before anything is tagged or published (.github/workflows/release.yml,
// "Build the npm tarball and the .vsix"), by reading the archive itself with unzip:
//   - the archive is whole: `unzip -tqq` checks every entry's CRC;
//   - its extension.vsixmanifest's <Identity> and its extension/package.json name the publisher, name
//     and version of this checkout's package.json (what the Marketplace and Open VSX publish under);
//   - the files the extension starts from are in it (package.json's main and browser, the two servers,
//     the command line), and nothing that must not ship (sources, source maps, node_modules, a name
//     that climbs out of the folder it is unpacked in).
//   node scripts/verify-vsix.mjs file.vsix [--package path/to/package.json]
// Exit 0 with one line naming what was verified; 1 with one line per problem; 2 on bad usage.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The files the extension cannot start without, besides package.json's main and browser. */
const REQUIRED = [
  'extension.vsixmanifest',
  '[Content_Types].xml',
  'extension/package.json',
  'extension/dist/client-main.js', // package.json's main (dist/client.js) loads it
  'extension/dist/server.js',
  'extension/dist/server-main.js',
  'extension/dist/browser-server.js',
  'extension/dist/cli.js',
];

const unzip = args => spawnSync('unzip', args, { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 });

/** The attributes of the manifest's <Identity …/> element. */
function identity(xml) {
  const el = /<Identity\b([^>]*)\/?>/.exec(xml);
  if (!el) return undefined;
  const attrs = {};
  for (const [, k, v] of el[1].matchAll(/([\w:]+)="([^"]*)"/g))
    attrs[k] = v
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  return attrs;
}

/** Problems found in the .vsix at `file` against `pkg` (a parsed package.json); empty when it is sound. */
export function verifyVsix(file, pkg) {
  const problems = [];
  const test = unzip(['-tqq', file]);
  if (test.error) return { problems: [`cannot run unzip: ${test.error.message}`], entries: [] };
  if (test.status !== 0) {
    const said = (test.stdout.toString() + test.stderr.toString())
      .split('\n')
      .map(l => l.trim())
      .find(l => l && !/^\[.*\]$/.test(l));
    return { problems: [`not a whole zip archive (unzip -t, exit ${test.status}: ${said ?? 'no message'})`], entries: [] };
  }
  const entries = unzip(['-Z1', file]).stdout.toString('utf8').split('\n').filter(Boolean);
  const has = new Set(entries);
  // unzip reads a member name as a pattern: only the two names below, which hold no pattern character.
  const read = name => (has.has(name) ? unzip(['-p', file, name]).stdout.toString('utf8') : undefined);
  for (const name of REQUIRED) if (!has.has(name)) problems.push(`missing ${name}`);
  for (const key of ['main', 'browser'])
    if (typeof pkg[key] === 'string' && !has.has(join('extension', pkg[key])))
      problems.push(`missing extension/${join(pkg[key])} (package.json ${key})`);
  for (const name of entries) {
    if (name.startsWith('/') || name.split(/[\\/]/).includes('..')) problems.push(`an entry outside the folder it unpacks in: ${name}`);
    else if (/(^|\/)node_modules\//.test(name)) problems.push(`node_modules shipped: ${name}`);
    else if (/\.map$|(?<!\.d)\.ts$/.test(name)) problems.push(`a source or source map shipped: ${name}`);
  }
  const want = { Publisher: pkg.publisher, Id: pkg.name, Version: pkg.version };
  const manifest = read('extension.vsixmanifest');
  if (manifest !== undefined) {
    const id = identity(manifest);
    if (!id) problems.push('extension.vsixmanifest has no <Identity>');
    else
      for (const [k, v] of Object.entries(want))
        if (id[k] !== v)
          problems.push(`extension.vsixmanifest Identity ${k} is ${JSON.stringify(id[k] ?? null)}, package.json says ${JSON.stringify(v)}`);
  }
  const inner = read('extension/package.json');
  if (inner !== undefined) {
    let p;
    try {
      p = JSON.parse(inner);
    } catch (e) {
      problems.push(`extension/package.json is not JSON: ${e.message}`);
    }
    if (p)
      for (const k of ['publisher', 'name', 'version', 'main', 'browser'])
        if (p[k] !== pkg[k])
          problems.push(
            `extension/package.json ${k} is ${JSON.stringify(p[k] ?? null)}, package.json says ${JSON.stringify(pkg[k] ?? null)}`,
          );
  }
  return { problems, entries };
}

function main(argv) {
  const at = argv.indexOf('--package');
  const pkgPath = at >= 0 ? argv[at + 1] : join(dirname(fileURLToPath(import.meta.url)), '..', 'package.json');
  const files = argv.filter((a, i) => !(at >= 0 && (i === at || i === at + 1)));
  if (files.length !== 1 || !pkgPath || files[0].startsWith('-')) {
    process.stderr.write('usage: node scripts/verify-vsix.mjs file.vsix [--package package.json]\n');
    return 2;
  }
  let pkg;
  try {
    pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
  } catch (e) {
    process.stderr.write(`verify-vsix: cannot read ${pkgPath}: ${e.message}\n`);
    return 2;
  }
  const { problems, entries } = verifyVsix(files[0], pkg);
  if (problems.length) {
    for (const p of problems) process.stderr.write(`verify-vsix: ${files[0]}: ${p}\n`);
    return 1;
  }
  process.stdout.write(`verify-vsix: ${files[0]}: ${pkg.publisher}.${pkg.name}@${pkg.version}, ${entries.length} files, archive whole\n`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main(process.argv.slice(2));
