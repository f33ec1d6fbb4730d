/**
 * Runs the extension-host suite (test/e2e/suite, mocha TDD) inside code-server's real extension host,
 * with the extension loaded from this checkout (extensionDevelopmentPath) — the recipe's equivalent of
 * @vscode/test-electron's runTests(), which cannot download desktop VS Code here.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { build } from 'esbuild';
import { launch, missing, ROOT, until, type Editor } from './codeServer';

const why = missing();
const skip = why && process.env.CI !== 'true' ? `e2e: skipped — ${why}; run \`npm run setup:e2e\` to enable` : false;

test('extension-host API tests pass in the real VS Code extension host', { skip, timeout: 300_000 }, async () => {
  assert.ok(!why, `${why}: run npm run setup:e2e (required under CI=true)`);
  const out = join(ROOT, '.e2e', 'suite');
  await build({
    entryPoints: [
      join(ROOT, 'test/e2e/suite/index.ts'),
      join(ROOT, 'test/e2e/suite/extension.test.ts'),
      join(ROOT, 'test/e2e/suite/editorPolish.test.ts'),
    ],
    outdir: out,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    external: ['vscode', 'mocha'],
    logLevel: 'error',
  });
  let ed: Editor | undefined;
  try {
    ed = await launch(
      { 'broken-github-adapter.md': join(ROOT, 'test/fixtures/broken-github-adapter.md') },
      {
        extensionDevelopmentPath: ROOT,
        extensionTestsPath: join(out, 'index.js'),
        env: { MCP_AQL_ROOT: ROOT },
      },
    );
    const code = await until('the extension-host run to finish', async () => ed!.exitCode(), 240_000).catch(async e => {
      throw new Error(`${(e as Error).message}\n${ed!.log()}\nscreenshot: ${await ed!.shot('exthost-timeout')}`);
    });
    assert.equal(code.value, 0, `extension-host tests failed:\n${ed.log()}`);
    assert.match(ed.log(), /passing/);
  } finally {
    await ed?.close();
  }
});
