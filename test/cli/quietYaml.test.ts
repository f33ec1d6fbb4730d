/**
 * The service writes nowhere: a stranger's file whose error_codes has a mapping as a key (in a document
 * with aliases, validated whole) is reported on that key, and the built CLI prints no Node warning from
 * `yaml` ("Keys with collection values will be stringified…") on stderr. The same for a config file.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempTree } from './helpers';

test('the built CLI reports a collection key and prints no warning of the YAML library', () => {
  const dir = tempTree({
    'a.adapter.yaml': 'base: &b\n  category: VALIDATION\nerror_codes:\n  { y }: *b\n  VALIDATION_A_B:\n    <<: *b\n',
  });
  const cli = () =>
    spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'check', 'a.adapter.yaml', '--no-color'], { cwd: dir, encoding: 'utf8' });
  try {
    const r = cli();
    assert.doesNotMatch(r.stderr, /Warning|stringified/, r.stderr);
    assert.match(r.stdout, /a\.adapter\.yaml:4:3 +error +An error code's key is its name/);
    assert.equal(r.status, 1);
    // A config file with a collection as a key: one clear error, no library warning.
    writeFileSync(join(dir, '.mcp-aql.yaml'), 'rules:\n  ? [x]\n  : off\n');
    const c = cli();
    assert.equal(c.status, 2);
    assert.doesNotMatch(c.stderr, /Warning|stringified/, c.stderr);
    assert.match(c.stderr, /invalid config file '\.mcp-aql\.yaml'/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
