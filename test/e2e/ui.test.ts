/**
 * Real-editor end-to-end tests: code-server (VS Code 1.100.3) with the extension installed
 * from the .vsix, driven by playwright-core in Debian's Chromium. Waits on conditions, never fixed
 * sleeps; a failure leaves a screenshot (its path is in the message). With E2E_SCREENSHOTS=1 the
 * README pictures in docs/images/ are taken from these runs.
 * Skipped, with one line saying how to enable them, when code-server or chromium is missing — except
 * under CI=true, where that is a failure.
 */
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import type { ElementHandle, Locator, Page } from 'playwright-core';
import { join } from 'node:path';
import { command, goTo, launch, missing, openFile, quickOpen, ROOT, until, webviewFrame, type Editor } from './codeServer';

const why = missing();
const skip = why && process.env.CI !== 'true' ? `e2e: skipped — ${why}; run \`npm run setup:e2e\` to enable` : false;
const FILE = 'broken-github-adapter.md';
const LINES = readFileSync(join(ROOT, 'test/fixtures', FILE), 'utf8').split('\n');
/** 1-based line and column of `sub` on the first line that contains `needle`. */
const loc = (needle: string, sub = needle, delta = 0): [number, number] => {
  const i = LINES.findIndex(l => l.includes(needle));
  return [i + 1, LINES[i]!.indexOf(sub) + 1 + delta];
};
/** 1-based line and column of `sub` on the first line of a fixture or example file that contains `needle`. */
const locIn = (file: string, needle: string, sub = needle, delta = 0): [number, number] => {
  const lines = readFileSync(
    join(ROOT, file === 'broken-adapter.md' ? 'examples/broken/broken-adapter.md' : `test/fixtures/${file}`),
    'utf8',
  ).split('\n');
  const i = lines.findIndex(l => l.includes(needle));
  return [i + 1, lines[i]!.indexOf(sub) + 1 + delta];
};
let ed: Editor | undefined;

async function step<T>(name: string, f: (e: Editor) => Promise<T>): Promise<T> {
  assert.ok(!why, `${why}: run npm run setup:e2e (required under CI=true)`);
  try {
    return await f(ed!);
  } catch (e) {
    const shot = ed ? await ed.shot(`failure-${name}`).catch(() => '(no screenshot)') : '(no editor)';
    throw new Error(`${(e as Error).message}\nscreenshot: ${shot}`);
  }
}
/**
 * A README picture (E2E_SCREENSHOTS=1): the page cropped to the union of what it shows — the widget and
 * the editor line it belongs to — with a margin, so the picture is legible at its own size.
 */
type Box = { x: number; y: number; width: number; height: number };
async function picture(name: string, ...parts: (Locator | ElementHandle | Box | null)[]): Promise<void> {
  if (process.env.E2E_SCREENSHOTS !== '1' || !ed) return;
  const boxes = (await Promise.all(parts.map(p => (p && 'boundingBox' in p ? p.boundingBox() : p)))).filter(b => !!b);
  assert.ok(boxes.length, `nothing to crop for ${name}`);
  const view = ed.page.viewportSize()!;
  const m = 8;
  const x = Math.max(0, Math.min(...boxes.map(b => b.x)) - m);
  const y = Math.max(0, Math.min(...boxes.map(b => b.y)) - m);
  const right = Math.min(view.width, Math.max(...boxes.map(b => b.x + b.width)) + m);
  const bottom = Math.min(view.height, Math.max(...boxes.map(b => b.y + b.height)) + m);
  mkdirSync(join(ROOT, 'docs', 'images'), { recursive: true });
  await ed.page.screenshot({ path: join(ROOT, 'docs', 'images', `${name}.png`), clip: { x, y, width: right - x, height: bottom - y } });
}
/** The cursor line of the editor, for a picture that shows a widget with the line it belongs to. */
const editorLines = (page: Page) => page.locator('.editor-instance .view-overlays .current-line').first();

before(
  async () => {
    if (why) return;
    ed = await launch({
      [FILE]: join(ROOT, 'test/fixtures/broken-github-adapter.md'),
      'broken-adapter.md': join(ROOT, 'examples/broken/broken-adapter.md'),
      'notes.yaml': join(ROOT, 'test/fixtures/notes.yaml'),
    });
  },
  { timeout: 240_000 },
);
after(async () => {
  await ed?.close();
});

test('Problems panel shows our diagnostics with their codes', { skip, timeout: 120_000 }, () =>
  step('problems', async ({ page }) => {
    await openFile(page, FILE);
    await page.locator('.monaco-editor textarea').first().focus();
    await page.keyboard.press('Control+Shift+M');
    const text = await until('the diagnostics in the Problems panel', async () => {
      const t = await page.locator('.markers-panel').innerText();
      return t.includes('template.unknown-placeholder') && t.includes('mapping.unknown-code') ? t : undefined;
    });
    assert.match(text, /mcp-aql/);
    await picture(
      'problems',
      page.locator('.part.panel .composite.title').first(),
      ...(await page.locator('.markers-panel .monaco-list-row').all()),
    );
  }),
);

test("a quick fix from the editor's own menu changes the text and the squiggle goes", { skip, timeout: 120_000 }, () =>
  step('quickfix', async ({ page }) => {
    await goTo(page, ...loc('{repos}', '{repos}', 2));
    await page.keyboard.press('Control+.');
    const item = page.locator('.action-widget .monaco-list-row', { hasText: "Change to '{repo}'" }).first();
    await item.waitFor({ timeout: 30_000 });
    await picture('quickfix', page.locator('.action-widget').first(), editorLines(page));
    // The preferred fix is focused first in the editor's own menu: accept it with Enter, as a user would.
    await until('the preferred fix to be focused', async () => (await item.getAttribute('class'))?.includes('focused'));
    await page.keyboard.press('Enter');
    await until('the fixed text', async () =>
      (await page.locator('.editor-instance .view-lines').first().innerText()).includes("'{owner}/{repo}'"),
    );
    await until(
      'the squiggle to go',
      async () => !(await page.locator('.markers-panel').innerText()).includes('template.unknown-placeholder'),
    );
  }),
);

test('completion after code: offers registry codes', { skip, timeout: 120_000 }, () =>
  step('completion', async ({ page }) => {
    await goTo(page, ...loc('code: PERMISSION_DENIE', 'PERMISSION_DENIE', 16));
    await page.keyboard.press('Control+Space');
    const row = page.locator('.suggest-widget .monaco-list-row', { hasText: 'PERMISSION_DENIED' }).first();
    await row.waitFor({ timeout: 30_000 });
    const line = process.env.E2E_SCREENSHOTS === '1' ? await editorLines(page).boundingBox() : null;
    // The widget with the mapping entry it completes: the cursor line and the three above it.
    await picture(
      'completion',
      page.locator('.suggest-widget').first(),
      line && { ...line, y: line.y - 3 * line.height, height: 4 * line.height },
    );
    await page.keyboard.press('Escape');
  }),
);

test('hover on a code shows its category and recovery', { skip, timeout: 120_000 }, () =>
  step('hover', async ({ page }) => {
    await goTo(page, ...loc('code: RATE_LIMIT_EXCEEDED', 'RATE_LIMIT', 3));
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+I');
    const text = await until('the hover', async () => {
      const t = await page
        .locator('.monaco-hover')
        .first()
        .innerText()
        .catch(() => '');
      return t.includes('RATE_LIMIT_EXCEEDED') ? t : undefined;
    });
    assert.match(text, /RATE_LIMIT/);
    assert.match(text, /Client recovery/);
    await picture('hover', page.locator('.monaco-hover').first(), editorLines(page));
    await page.keyboard.press('Escape');
  }),
);

test(
  'the preview panel shows the envelope of the code under the cursor, and the simulator explains a 403',
  { skip, timeout: 180_000 },
  () =>
    step('preview', async ({ page }) => {
      await goTo(page, ...loc('  RATE_LIMIT_ABUSE_DETECTED:', 'RATE', 2));
      await command(page, 'MCP-AQL: Preview Error Envelope');
      const frame = await until('the preview webview', () => webviewFrame(page, 'MCP-AQL envelope'));
      if (process.env.E2E_SCREENSHOTS === '1') {
        // Pictures of a side bar a reader can read: drag its edge 340 px to the right.
        const sb = (await page.locator('.part.sidebar').boundingBox())!;
        await page.mouse.move(sb.x + sb.width + 1, sb.y + sb.height / 2);
        await page.mouse.down();
        await page.mouse.move(sb.x + sb.width + 341, sb.y + sb.height / 2, { steps: 8 });
        await page.mouse.up();
      }
      const code = await frame.locator('.code').innerText();
      assert.equal(code, 'RATE_LIMIT_ABUSE_DETECTED');
      assert.match(await frame.locator('pre.envelope').innerText(), /"success": false/);
      assert.match(await frame.locator('.tabs').innerText(), /MCP tool result ✓/);
      await picture('preview', frame.locator('header.head'), frame.locator('#preview-dialects'));
      await frame.locator('#sim-status').fill('403');
      await frame.locator('#sim-body').fill('{"message": "You have triggered an abuse detection mechanism"}');
      await frame.locator('#sim-run').click();
      const fired = await until('the simulation', async () => {
        const t = await frame
          .locator('.fired')
          .innerText()
          .catch(() => '');
        return t.includes('→') ? t : undefined;
      });
      assert.match(fired, /Upstream 403 → RATE_LIMIT_ABUSE_DETECTED \(rule: error_codes\.RATE_LIMIT_ABUSE_DETECTED\)/);
      assert.match(await frame.locator('.considered').innerText(), /contains "abuse" → true/);
      await frame.locator('#simulation .considered').scrollIntoViewIfNeeded();
      await picture('simulator', frame.locator('.simulator'), frame.locator('#simulation .considered'));
    }),
);

test("the language status item names the adapter file's problems in words, on adapter files only", { skip, timeout: 120_000 }, () =>
  step('language-status', async ({ page }) => {
    const entry = page.locator('[id="status.languageStatus"]');
    const label = async () => (await entry.getAttribute('aria-label', { timeout: 2000 }).catch(() => null)) ?? '';
    await quickOpen(page, 'broken-adapter.md');
    // broken-adapter.md has errors, warnings and information problems (the other adapter, one error).
    const text = await until('the language status of broken-adapter.md', async () => {
      const t = await label();
      return /MCP-AQL: \d+ errors, \d+ warnings/.test(t) ? t : undefined;
    });
    assert.match(text, /\$\(error\) MCP-AQL: \d+ errors, \d+ warnings, \d+ info\/hint, in this adapter file/);
    await quickOpen(page, 'notes.yaml');
    await until('no MCP-AQL status on a file that is not an adapter', async () => !(await label()).includes('MCP-AQL'));
  }),
);

test('the preview opens beside the editor with accessible tabs that arrow keys move', { skip, timeout: 180_000 }, () =>
  step('preview-panel', async ({ page }) => {
    await quickOpen(page, 'broken-adapter.md');
    await goTo(page, ...locIn('broken-adapter.md', '  SHOP_OUT_OF_STOCK:', 'SHOP', 2));
    await command(page, 'MCP-AQL: Open Error Envelope Preview to the Side');
    await page.locator('.tab', { hasText: 'Error Envelope Preview' }).first().waitFor({ timeout: 30_000 });
    const frame = await until('the panel webview with its tabs', async () => {
      for (const f of page.frames()) {
        const code = await f
          .locator('.code')
          .innerText({ timeout: 500 })
          .catch(() => '');
        if (code === 'SHOP_OUT_OF_STOCK' && (await f.locator('#preview-dialects [role="tab"]').count()) === 4) return f;
      }
      return undefined;
    });
    const tabs = frame.locator('#preview-dialects [role="tab"]');
    assert.equal(await frame.locator('#preview-dialects [role="tablist"]').getAttribute('aria-label'), 'Envelope dialects');
    await tabs.first().focus();
    await page.keyboard.press('ArrowRight');
    await until(
      'the second tab to be selected and focused',
      async () =>
        (await tabs.nth(1).getAttribute('aria-selected')) === 'true' && (await tabs.nth(1).evaluate(e => e === document.activeElement)),
    );
    assert.equal(await frame.locator('pre.envelope').getAttribute('data-dialect'), 'mcp-tool-result');
    assert.equal(await frame.locator('#preview-panel').getAttribute('aria-labelledby'), await tabs.nth(1).getAttribute('id'));
  }),
);

test('Show Error Registry opens a read-only document, never an Untitled one', { skip, timeout: 120_000 }, () =>
  step('registry', async ({ page }) => {
    await quickOpen(page, 'broken-adapter.md');
    await command(page, 'MCP-AQL: Show Error Registry');
    const input = page.locator('.quick-input-widget input');
    await input.fill('RATE_LIMIT_EXCEEDED');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'RATE_LIMIT_EXCEEDED' }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.tab', { hasText: 'RATE_LIMIT_EXCEEDED' }).first().waitFor({ timeout: 30_000 });
    const titles = await page.locator('.tabs-container .tab').allInnerTexts();
    assert.ok(!titles.some(t => /Untitled/.test(t)), titles.join(' | '));
    await until('the rendered registry card', () => webviewFrame(page, 'Client recovery'));
  }),
);

test('adapter commands are offered on adapter files only', { skip, timeout: 120_000 }, () =>
  step('when-clauses', async ({ page }) => {
    const offered = async () => {
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor();
      await input.fill('>MCP-AQL: Fix All');
      await page.waitForTimeout(500); // the list settles; absence cannot be awaited
      const n = await page.locator('.quick-input-list .monaco-list-row', { hasText: 'MCP-AQL: Fix All' }).count();
      await page.keyboard.press('Escape');
      return n;
    };
    await quickOpen(page, 'notes.yaml');
    await until('Fix All hidden on a non-adapter file', async () => (await offered()) === 0, 30_000);
    await quickOpen(page, 'broken-adapter.md');
    await until('Fix All offered on an adapter file', async () => (await offered()) === 1, 30_000);
  }),
);
