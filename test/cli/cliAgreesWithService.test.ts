/**
 * The CLI reports what the service (the language server's) reports on a collection
 * key in error_mapping, CR-only line ends and a tab in a quoted continuation line: same codes, ranges
 * and messages, read from files on disk.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { run, tempTree } from './helpers';
import { docOf, newService } from '../service/helpers';

const FILES: Record<string, string> = {
  'keys.adapter.yaml':
    'error_codes:\n  NOT_FOUND_REPOSITORY:\n    category: NOT_FOUND\nerror_mapping:\n  ? [999]: {code: NOT_FOUND_REPOSITRY}\n',
  'mac.adapter.yaml': 'error_codes:\r  NOT_FOUND_MAC:\r    category: NOT_FOUND\rerror_mapping:\r  404:\r    code: NOT_FOUND_MAK\r',
  'tabs-adapter.md': '---\nerror_codes:\n  NOT_FOUND_X:\n    category: NOT_FOUND\n    message_template: "Not\n\tfound"\n---\n\n# Tabs\n',
};

interface Reported {
  file: string;
  diagnostics: { code: string; message: string; range: unknown }[];
}

test('the CLI and the service agree on collection keys, CR-only line ends and tabs in quoted lines', async () => {
  const dir = tempTree(FILES);
  const r = await run(['check', ...Object.keys(FILES), '--format', 'json'], dir);
  assert.equal(r.code, 1, r.err);
  const got = JSON.parse(r.out) as Reported[];
  for (const [name, text] of Object.entries(FILES)) {
    const want = newService()
      .validate(docOf(text, `file:///w/${name}`))
      .map(d => ({ code: String(d.code), message: d.message, range: d.range }));
    const file = got.find(f => f.file === name);
    assert.ok(file, name);
    assert.deepEqual(
      file.diagnostics.map(d => ({ code: d.code, message: d.message, range: d.range })),
      want,
      name,
    );
    assert.ok(
      want.some(d => d.code === (name.startsWith('keys') ? 'http.invalid-status' : 'yaml.syntax')),
      name,
    );
  }
});
