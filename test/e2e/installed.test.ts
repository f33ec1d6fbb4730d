/**
 * The first hour of a new user in the installed extension: `npm run package` builds the
 * .vsix, code-server installs it, and these tests look at what that installed copy shows — the rule
 * docs of Explain Rule, a rule doc that stays open beside the adapter, our own title-bar icon, and the
 * extension page at 1,000 px (screenshots under .e2e/, kept after the run). Skipped like ui.test.ts
 * without code-server and Chromium, except under CI=true.
 */
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  goTo,
  launch,
  missing,
  openFile,
  openQuickInput,
  quickOpen,
  ROOT,
  runCommand,
  until,
  webviewFrame,
  type Editor,
} from './codeServer';

const why = missing();
const skip = why && process.env.CI !== 'true' ? `e2e: skipped — ${why}; run \`npm run setup:e2e\` to enable` : false;
const FILE = 'broken-github-adapter.md';
const LINES = readFileSync(join(ROOT, 'test/fixtures', FILE), 'utf8').split('\n');
/** A sentence of the rule doc of template.unknown-placeholder (docs/rules.md), as the preview renders it. */
const RULE_TEXT = 'is not a details key the template can see';
let ed: Editor | undefined;

async function step<T>(name: string, f: (e: Editor) => Promise<T>): Promise<T> {
  assert.ok(!why, `${why}: run npm run setup:e2e (required under CI=true)`);
  try {
    await ed!.page.keyboard.press('Escape');
    return await f(ed!);
  } catch (e) {
    const shot = ed ? await ed.shot(`failure-${name}`).catch(() => '(no screenshot)') : '(no editor)';
    throw new Error(`${(e as Error).message}\nscreenshot: ${shot}`);
  }
}

/** The .vsix exactly as a user builds it: `npm run package` (type check, production build, vsce). */
function npmRunPackage(): string {
  const dir = mkdtempSync(join(ROOT, '.e2e', 'package-'));
  const out = join(dir, 'mcp-aql-errors.vsix');
  const r = spawnSync('npm', ['run', 'package', '--', '-o', out], { cwd: ROOT, encoding: 'utf8', timeout: 300_000 });
  assert.equal(r.status, 0, `npm run package failed:\n${r.stdout}${r.stderr}`);
  assert.ok(existsSync(out));
  return out;
}

before(
  async () => {
    if (why) return;
    mkdirSync(join(ROOT, '.e2e'), { recursive: true });
    const vsix = npmRunPackage();
    ed = await launch(
      {
        [FILE]: join(ROOT, 'test/fixtures', FILE),
        // An adapter by the mcpAql.files setting, and Markdown that is no adapter, both with front matter.
        'errors.md': join(ROOT, 'test/fixtures', FILE),
        'post.md': join(ROOT, 'test/fixtures/post-with-front-matter.md'),
      },
      { vsix, settings: { 'mcpAql.files': ['**/errors.md'] } },
    );
    rmSync(join(vsix, '..'), { recursive: true, force: true });
  },
  { timeout: 600_000 },
);
after(async () => {
  await ed?.close();
});

test('Explain Rule lists the rules and shows the real text of a rule doc in the installed copy', { skip, timeout: 180_000 }, () =>
  step('explain-rule', async ({ page }) => {
    await openFile(page, FILE);
    await runCommand(page, 'MCP-AQL: Explain Rule…');
    const rows = page.locator('.quick-input-list .monaco-list-row');
    await until('the rule picker to list rules', async () => (await rows.count()) >= 5, 30_000);
    const input = page.locator('.quick-input-widget input');
    await input.fill('verify.detail-type');
    await rows.filter({ hasText: 'verify.detail-type' }).first().waitFor({ timeout: 10_000 });
    await input.fill('template.unknown-placeholder');
    await rows.filter({ hasText: 'template.unknown-placeholder' }).first().waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    const frame = await until('the rule doc', () => webviewFrame(page, 'Default level'), 60_000);
    const text = await until('the rule text', async () => {
      const t = await frame.evaluate<string>('document.body.innerText');
      return t.includes('Default level') ? t : undefined;
    });
    assert.match(text, new RegExp(RULE_TEXT));
    assert.doesNotMatch(text, /No documentation is bundled/);
    assert.match(text, /In depth/);
  }),
);

test('the rule doc stays open and unchanged when the user clicks back into the adapter', { skip, timeout: 120_000 }, () =>
  step('doc-stays', async ({ page }) => {
    const docTab = page.locator('.tab', { hasText: 'template.unknown-placeholder' });
    await docTab.first().waitFor({ timeout: 30_000 });
    // Back into the adapter (a Markdown file: a preview that follows the active editor would switch to it).
    await page.locator('.tab', { hasText: FILE }).first().click();
    await goTo(page, 5, 1);
    await page.keyboard.type(' ');
    await page.keyboard.press('Backspace');
    // A following preview re-renders within a few hundred ms of the editor change; watch for 3 s.
    for (let i = 0; i < 12; i++) {
      assert.ok(await webviewFrame(page, RULE_TEXT), 'the rule text is still shown');
      assert.equal(await docTab.count(), 1, 'the rule doc tab is still there');
      await page.waitForTimeout(250);
    }
    const titles = await page.locator('.tabs-container .tab').allInnerTexts();
    assert.ok(!titles.some(t => t.includes(`Preview ${FILE}`)), titles.join(' | '));
  }),
);

test('the title-bar icon of the preview is ours, not Markdown’s preview icon', { skip, timeout: 60_000 }, () =>
  step('title-icon', async ({ page }) => {
    await page.locator('.tab', { hasText: FILE }).first().click();
    const ours = page.locator('.editor-actions .action-label[aria-label^="Open Error Envelope Preview to the Side"]').first();
    await ours.waitFor({ timeout: 30_000 });
    const cls = (await ours.getAttribute('class')) ?? '';
    assert.match(cls, /codicon-bracket-error/);
    assert.doesNotMatch(cls, /codicon-open-preview/);
  }),
);

test(
  'front matter editing: Enter after a key indents as YAML, and a new code name offers the entry snippet',
  { skip, timeout: 120_000 },
  () =>
    step('front-matter', async ({ page }) => {
      await page.locator('.tab', { hasText: FILE }).first().click();
      const line = LINES.findIndex(l => l === 'error_codes:') + 1;
      await goTo(page, line, 'error_codes:'.length + 1);
      await page.keyboard.press('Enter');
      const cursor = page.locator('[id="status.editor.selection"]');
      await until(
        'the cursor to be indented under error_codes:',
        async () => (await cursor.innerText()) === `Ln ${line + 1}, Col 3`,
        10_000,
      );
      await page.keyboard.type('NOT_FOUND_Z');
      await page.keyboard.press('Control+Space');
      await page.locator('.suggest-widget .monaco-list-row', { hasText: 'new error code' }).first().waitFor({ timeout: 30_000 });
      await page.keyboard.press('Escape');
      await runCommand(page, 'File: Revert File');
    }),
);

test('no word suggestions in the front matter where we offer nothing; the Markdown body keeps them', { skip, timeout: 120_000 }, () =>
  step('word-fallback', async ({ page }) => {
    await page.locator('.tab', { hasText: FILE }).first().click();
    const widget = page.locator('.editor-widget.suggest-widget');
    const rows = widget.locator('.monaco-list-row:visible');
    /** Type a word start and ask for completion: the widget says "No suggestions." and lists no row. */
    const noSuggestions = async (what: string) => {
      await page.keyboard.type(' rep');
      await page.keyboard.press('Control+Space');
      await until(
        what,
        async () =>
          (await widget
            .locator('.message')
            .innerText({ timeout: 1000 })
            .catch(() => '')) === 'No suggestions.',
        30_000,
      );
      assert.equal(await rows.count(), 0, (await rows.allInnerTexts()).join(' | '));
    };
    // Inside the description's text (front matter): the server offers nothing there, and VS Code would
    // fall back to the words of the Markdown documents (repository, repos, …).
    const desc = 'description: "Adapter for GitHub REST API v3,';
    const line = LINES.findIndex(l => l.startsWith(desc)) + 1;
    await goTo(page, line, desc.length + 1);
    await noSuggestions('the suggest widget to say "No suggestions."');
    await page.keyboard.press('Escape');
    // The Markdown body of the same file: word suggestions as before.
    const last = LINES.findIndex(l => l.startsWith('The adapter does not currently enforce'));
    await goTo(page, last + 1, LINES[last]!.length + 1);
    await page.keyboard.type(' rep');
    await page.keyboard.press('Control+Space');
    const words = await until(
      'word suggestions in the Markdown body',
      async () => {
        const t = await rows.allInnerTexts();
        return t.some(x => /^repositor/m.test(x)) ? t : undefined;
      },
      30_000,
    );
    assert.ok(words.length > 0);
    await page.keyboard.press('Escape');
    await runCommand(page, 'File: Revert File');
    // An adapter by the mcpAql.files setting (the server says so): no words in its front matter either.
    await quickOpen(page, 'errors.md');
    await goTo(page, line, desc.length + 1);
    await noSuggestions('errors.md: the suggest widget to say "No suggestions."');
    await page.keyboard.press('Escape');
    await runCommand(page, 'File: Revert File');
    // Another Markdown file's front matter (no adapter): its word suggestions as before.
    await quickOpen(page, 'post.md');
    await goTo(page, 2, 'title: Moving our repository'.length + 1);
    await page.keyboard.type(' rep');
    await page.keyboard.press('Control+Space');
    await until(
      'word suggestions in the front matter of Markdown that is no adapter',
      async () => (await rows.allInnerTexts()).some(x => /^repositor/m.test(x)),
      30_000,
    );
    await page.keyboard.press('Escape');
    await runCommand(page, 'File: Revert File');
    await quickOpen(page, FILE);
  }),
);

test('the extension page at 1,000 px: screenshots of the README as a user sees it', { skip, timeout: 120_000 }, () =>
  step('extension-page', async ({ page }) => {
    await page.setViewportSize({ width: 1000, height: 900 });
    await runCommand(page, 'View: Close All Editors');
    await openQuickInput(page, '>View: Show Extensions');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'View: Show Extensions' }).first().waitFor();
    await page.keyboard.press('Enter');
    const search = page.locator('.extensions-viewlet .suggest-input-container').first();
    await search.waitFor({ timeout: 30_000 });
    await search.click();
    await page.keyboard.type('@installed MCP-AQL');
    const row = page.locator('.extensions-viewlet .monaco-list-row', { hasText: 'MCP-AQL Error Contracts' }).first();
    await row.waitFor({ timeout: 30_000 });
    await row.click();
    const frame = await until('the README in the extension page', () => webviewFrame(page, 'Getting started'));
    // The page as a user reads it once the extension is found: the side bar closed.
    await runCommand(page, 'View: Close Primary Side Bar');
    // No pictures in the .vsix README (the page allows https: and data: only): a link to them instead.
    const page1 = await frame.evaluate(() => ({ images: document.images.length, text: document.body.innerText }));
    assert.equal(page1.images, 0);
    assert.match(page1.text, /Pictures of each feature: the README in the repository/);
    assert.match(page1.text, /Explain rule/);
    const out = join(ROOT, '.e2e', 'extension-page');
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    const height = await frame.evaluate(() => document.documentElement.scrollHeight);
    for (let y = 0, i = 1; y < height && i <= 8; y += 800, i++) {
      await frame.evaluate(top => window.scrollTo(0, top), y);
      copyFileSync(await ed!.shot(`extension-page-${i}`), join(out, `${i}.png`));
    }
    assert.ok(readdirSync(out).length >= 1);
  }),
);

test('the settings read MCP-AQL: the section of the Settings editor, and each setting by its own name', { skip, timeout: 120_000 }, () =>
  step('settings', async ({ page }) => {
    await runCommand(page, 'Preferences: Open Settings (UI)');
    const search = page.locator('.settings-editor .suggest-input-container').first();
    await search.waitFor({ timeout: 30_000 });
    await search.click();
    await page.keyboard.type('@ext:mcp-aql.mcp-aql-errors');
    const ours = page.locator('.settings-editor .settings-tree-container [data-key^="mcpAql."]');
    const read = async () =>
      Promise.all(
        (await ours.all()).map(async r => ({
          key: await r.getAttribute('data-key'),
          category: await r.locator('.setting-item-category').first().innerText(),
          label: await r.locator('.setting-item-label').first().innerText(),
        })),
      );
    const found = await until(
      'the extension settings',
      async () => {
        const t = await read();
        return t.some(x => x.key === 'mcpAql.maxFileSize') ? t : undefined;
      },
      30_000,
    );
    console.log(`settings as listed: ${found.map(s => `${s.category}${s.label}`).join(' | ')}`);
    mkdirSync(join(ROOT, '.e2e', 'extension-page'), { recursive: true });
    copyFileSync(await ed!.shot('settings'), join(ROOT, '.e2e', 'extension-page', 'settings.png'));
    // The table of contents names the section as the commands' category does.
    const toc = await page.locator('.settings-editor .settings-toc-container .monaco-list-row').allInnerTexts();
    assert.ok(
      toc.some(t => t.split('\n')[0]!.trim() === 'MCP-AQL'),
      toc.join(' | '),
    );
    // Each setting by its own name (the prefix before it comes from the key: settingKeyToDisplayFormat).
    const label = Object.fromEntries(found.map(s => [s.key, s.label]));
    assert.equal(label['mcpAql.files'], 'Files');
    assert.equal(label['mcpAql.responseFiles'], 'Response Files');
    assert.equal(label['mcpAql.codeScope'], 'Code Scope');
    assert.equal(label['mcpAql.maxFileSize'], 'Max File Size');
    // Outside a search the section is headed MCP-AQL and the settings read "Files", "Response Files", …
    // with no prefix: the key's prefix `mcpAql` matches the extension id's `mcp-aql` and is dropped.
    await search.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    const tocRow = (name: RegExp) => page.locator('.settings-editor .settings-toc-container .monaco-list-row', { hasText: name }).first();
    // The whole table of contents again (the search is cleared), then Extensions opened to its sections.
    await tocRow(/^Commonly Used/).waitFor({ timeout: 30_000 });
    const extensions = tocRow(/^Extensions/);
    const section = tocRow(/^MCP-AQL/);
    await until(
      'the MCP-AQL section under Extensions',
      async () => {
        if (await section.isVisible()) return true;
        if ((await extensions.getAttribute('aria-expanded')) !== 'true') await extensions.locator('.monaco-tl-twistie').click();
        return false;
      },
      30_000,
    );
    await section.click();
    await page
      .locator('.settings-editor .settings-group-title-label', { hasText: /^MCP-AQL$/ })
      .first()
      .waitFor({ timeout: 30_000 });
    const browsed = await until(
      'the settings of the MCP-AQL section',
      async () => {
        const t = await read();
        return t.some(x => x.key === 'mcpAql.files') ? t : undefined;
      },
      30_000,
    );
    const files = browsed.find(s => s.key === 'mcpAql.files')!;
    assert.equal(`${files.category}${files.label}`, 'Files');
  }),
);
