/**
 * One output path for every command. `verify` takes check's formats, -o and -q (it
 * printed text and wrote nothing); `types -o` creates folders; `preview --code NOPE` is an error.
 */
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { FORMATS } from '../../server/src/cli/args';
import { newService } from '../service/helpers';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ROOT, run, tempTree } from './helpers';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function examples(): string {
  const dir = tempTree({});
  dirs.push(dir);
  cpSync(join(ROOT, 'examples/shop.adapter.yaml'), join(dir, 'shop.adapter.yaml'));
  cpSync(join(ROOT, 'examples/responses/shop.responses.jsonl'), join(dir, 'shop.responses.jsonl'));
  return dir;
}

test('verify writes every format of check to -o (folders created), the same bytes as on standard output', async () => {
  const dir = examples();
  for (const format of FORMATS) {
    const out = await run(['verify', 'shop.adapter.yaml', 'shop.responses.jsonl', '--format', format], dir);
    assert.equal(out.code, 1, format + out.err);
    const file = await run(['verify', 'shop.adapter.yaml', 'shop.responses.jsonl', '--format', format, '-o', `reports/v.${format}`], dir);
    assert.equal(file.code, 1);
    assert.equal(file.out, '', format);
    const written = readFileSync(join(dir, 'reports', `v.${format}`), 'utf8');
    if (format === 'sarif' || format === 'json' || format === 'codeclimate') assert.deepEqual(JSON.parse(written), JSON.parse(out.out));
    else assert.equal(written, out.out, format);
  }
  assert.match(readFileSync(join(dir, 'reports/v.junit'), 'utf8'), /^<\?xml[\s\S]*<testsuite name="shop.responses.jsonl"/);
  assert.match(readFileSync(join(dir, 'reports/v.checkstyle'), 'utf8'), /<file name="shop.responses.jsonl">/);
  const quiet = await run(['verify', 'shop.adapter.yaml', 'shop.responses.jsonl', '--format', 'json', '-q'], dir);
  assert.ok(JSON.parse(quiet.out)[0].diagnostics.every((d: { severity: string }) => d.severity === 'error'));
  for (const opt of [['--fix'], ['--cache'], ['--jobs', '2']]) {
    const r = await run(['verify', 'shop.adapter.yaml', 'shop.responses.jsonl', ...opt], dir);
    assert.equal(r.code, 2, opt.join(' '));
    assert.match(r.err, /^mcp-aql-errors: verify: unknown option '--[a-z-]+'/);
  }
});

test('types -o creates its folders and writes the file whole', async () => {
  const dir = examples();
  const r = await run(['types', 'shop.adapter.yaml', '-o', 'gen/deep/shop-errors.ts'], dir);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.err, 'wrote gen/deep/shop-errors.ts\n');
  assert.equal(readFileSync(join(dir, 'gen/deep/shop-errors.ts'), 'utf8'), (await run(['types', 'shop.adapter.yaml'], dir)).out);
});

test('preview --code of an unknown code is an error (exit 2), and the envelopes say it is unknown', async () => {
  const r = await run(['preview', 'examples/shop.adapter.yaml', '--code', 'NOPE']);
  assert.equal(r.code, 2);
  assert.equal(r.out, '');
  assert.match(r.err, /^mcp-aql-errors: preview: unknown code 'NOPE': neither a registry code nor declared in examples\/shop.adapter.yaml/);
  const doc = TextDocument.create('file:///a.adapter.yaml', 'yaml', 1, 'error_codes:\n  NOT_FOUND_X:\n    category: NOT_FOUND\n');
  const p = newService().preview(doc, { code: 'NOPE' })!;
  assert.equal(p.source, 'unknown');
  for (const d of p.dialects) {
    assert.equal(d.valid, false, d.id);
    assert.equal(d.errors[0], 'NOPE is an unknown code: neither a registry code nor declared in error_codes.');
  }
  assert.ok(!existsSync(join(ROOT, 'gen')));
});
