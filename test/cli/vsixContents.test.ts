/**
 * What the packaged .vsix holds, read from the zip itself (not `vsce ls`): vsce renames some files on
 * the way in (the README becomes `readme.md`), and an installed copy on a case-sensitive file system
 * (Linux, the web build, code-server) only has what the zip has, under the names it has.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { allCodes } from '../../server/src/service';
import { RULE_DOC_FILES, ruleMarkdown, ruleRows } from '../../client/src/docs/ruleDocs';
import { ROOT } from './helpers';

/** The entries of a zip file: name → uncompressed bytes (stored or deflated, as vsce writes them). */
export function readZip(zip: Buffer): Map<string, Buffer> {
  let eocd = zip.length - 22;
  while (eocd >= 0 && zip.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  assert.ok(eocd >= 0, 'no end of central directory');
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const out = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    assert.equal(zip.readUInt32LE(at), 0x02014b50, 'central directory entry');
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const [nameLen, extraLen, commentLen] = [zip.readUInt16LE(at + 28), zip.readUInt16LE(at + 30), zip.readUInt16LE(at + 32)];
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLen);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + size);
    out.set(name, method === 8 ? inflateRawSync(raw) : Buffer.from(raw));
    at += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/** Packages the .vsix from the current build (dist/ must be built: `npm run build`). */
export function packageVsix(): Map<string, Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-aql-vsix-'));
  try {
    const out = join(dir, 'x.vsix');
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts/package-vsix.mjs'), '--no-build', '-o', out], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr + r.stdout);
    return readZip(readFileSync(out));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const vsix = packageVsix();

test('the rule docs ship under the exact names Explain rule reads, with a row for every code', () => {
  for (const f of RULE_DOC_FILES) assert.ok(vsix.has(`extension/${f}`), `extension/${f} is in the .vsix`);
  const [table = '', ...deep] = RULE_DOC_FILES.map(f => vsix.get(`extension/${f}`)!.toString('utf8'));
  assert.deepEqual(
    ruleRows(table)
      .map(r => r.code)
      .sort(),
    [...allCodes].sort(),
  );
  const md = ruleMarkdown('template.unknown-placeholder', table, deep);
  assert.match(md, /^`\{x\}` is not a details key the template can see/m);
  assert.match(md, /^## In depth$/m);
  // What vsce does to the README, and why the rule docs cannot live there.
  assert.ok(vsix.has('extension/readme.md') && !vsix.has('extension/README.md'));
});

test('the .vsix README is text: no inlined pictures, small', () => {
  const readme = vsix.get('extension/readme.md')!.toString('utf8');
  assert.doesNotMatch(readme, /data:image|!\[/);
  assert.ok(readme.length < 30_000, `${readme.length} characters`);
  assert.match(readme, /^## Getting started$/m);
});
