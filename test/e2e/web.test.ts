/**
 * The web extension in a real VS Code: code-server with `remote.extensionKind` set to "web" for our
 * extension, so the workbench runs it in the browser's extension host (as vscode.dev does): the
 * browser client (dist/browser-client.js) starts the server in a Web Worker (dist/browser-server.js).
 */
import test from 'node:test';
import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, missing, quickOpen, ROOT, until, webviewFrame, type Editor } from './codeServer';

const why = missing();
const skip = why && process.env.CI !== 'true' ? `e2e: skipped — ${why}; run \`npm run setup:e2e\` to enable` : false;

test(
  'in the browser extension host: diagnostics from the Web Worker server, and the code link opens the rule doc',
  { skip, timeout: 300_000 },
  async () => {
    assert.ok(!why, `${why}: run npm run setup:e2e (required under CI=true)`);
    let ed: Editor | undefined;
    try {
      ed = await launch(
        { 'broken-github-adapter.md': join(ROOT, 'test/fixtures/broken-github-adapter.md') },
        { settings: { 'remote.extensionKind': { 'mcp-aql.mcp-aql-errors': ['web'] } } },
      );
      const { page } = ed;
      await quickOpen(page, 'broken-github-adapter.md');
      await page.keyboard.press('Control+Shift+M');
      const text = await until(
        'the diagnostics in the Problems panel',
        async () => {
          const t = await page.locator('.markers-panel').innerText();
          return t.includes('template.unknown-placeholder') && t.includes('mapping.unknown-code') ? t : undefined;
        },
        90_000,
      ).catch(async e => {
        throw new Error(
          `${(e as Error).message}\nscreenshot: ${await ed!.shot('web-failure')}\n${ed!
            .log()
            .split('\n')
            .filter(l => /mcp-aql|MCP-AQL|Worker|rror/.test(l))
            .slice(-30)
            .join('\n')}`,
        );
      });
      assert.match(text, /mcp-aql/);
      // It ran in the browser: no Node server process was started for this editor.
      const nodeServers = execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' })
        .split('\n')
        .filter(l => l.includes(ed!.dir) && l.includes('dist/server.js'));
      assert.deepEqual(nodeServers, []);
      // The code link of a problem opens the bundled rule doc (a command: link, allowed in the Problems panel).
      await page.locator('.markers-panel .monaco-link', { hasText: 'mapping.unknown-code' }).first().click();
      await page.locator('.tab', { hasText: 'mapping.unknown-code.md' }).first().waitFor({ timeout: 30_000 });
      // With the rule's real text: the web build reads docs/rules.md from the installed extension (not the README, which vsce renames).
      const doc = await until('the rule text', () => webviewFrame(page, 'Default level'), 60_000);
      const ruleText = await doc.evaluate<string>('document.body.innerText');
      assert.match(ruleText, /neither in the registry nor in any/);
      assert.doesNotMatch(ruleText, /No documentation is bundled/);
    } finally {
      await ed?.close();
    }
  },
);
