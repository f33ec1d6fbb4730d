/**
 * The HTML error reference (`mcp-aql-errors docs --format html`) in a real browser: that of
 * the examples, plus a hostile adapter, opened from disk in Debian's Chromium through playwright-core
 * with JavaScript disabled. It asserts the page's text at a code's anchor, that the anchor is the
 * `:target`, that no request other than the file itself is made and no script or image element exists,
 * and saves a screenshot (docs/images/error-reference.png with E2E_SCREENSHOTS=1, else in a temp folder
 * it removes). Skipped (one line) without Chromium, except under CI=true.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { run } from '../cli/helpers';

const ROOT = join(__dirname, '..', '..');
const CHROMIUM = '/usr/bin/chromium';
const why = !existsSync(CHROMIUM) ? 'Debian chromium is not installed' : undefined;
const skip = why && process.env.CI !== 'true' ? `web: skipped — ${why}; run \`npm run setup:e2e\`` : false;

const EVIL = [
  'name: evil',
  'error_codes:',
  '  NOT_FOUND_EVIL:',
  '    category: NOT_FOUND',
  '    description: "<img src=https://evil.example/x.png onerror=alert(1)><script>document.title=1</script><link rel=stylesheet href=https://evil.example/s.css>"',
  '    message_template: "<iframe src=https://evil.example></iframe>"',
  '',
].join('\n');

test(
  'the HTML error reference in Chromium without JavaScript: text at an anchor, no request but the file, a screenshot',
  { skip, timeout: 120_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-aql-ref-'));
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    try {
      writeFileSync(join(dir, 'evil.adapter.yaml'), EVIL);
      const files = ['shop.adapter.yaml', 'github-adapter.md', 'weather.adapter.json'].map(f => join(ROOT, 'examples', f));
      const r = await run(['docs', ...files, join(dir, 'evil.adapter.yaml'), '--format', 'html', '-o', dir], dir);
      assert.equal(r.code, 0, r.err);
      const file = join(dir, 'error-reference.html');
      const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1100, height: 900 } });
      const page = await context.newPage();
      const requests: string[] = [];
      page.on('request', q => requests.push(q.url()));
      const url = `${pathToFileURL(file).href}#code-NOT_FOUND_ORDER`;
      await page.goto(url, { waitUntil: 'load' });
      assert.deepEqual(requests, [url.replace(/#.*$/, '')]);
      const section = page.locator('#code-NOT_FOUND_ORDER');
      const text = (await section.innerText()).replace(/\s+/g, ' ');
      assert.match(
        text,
        /^NOT_FOUND_ORDER NOT_FOUND No order with this id exists for the customer\. HTTP statuses 404 Message template Order '\{order_id\}' not found Recovery stop, or choose another target; retrying the same request will not help Retry retry-after-change \(the category's default\) Details key type required notes order_id string yes /,
      );
      assert.match(
        text,
        /MCP-AQL envelope — The operation result \(ADR-006\), inside the tool result below\. \{ "success": false, "error": \{ "code": "NOT_FOUND_ORDER", "message": "Order 'ord_123' not found"/,
      );
      assert.equal(await page.evaluate(() => document.querySelector(':target')?.id), 'code-NOT_FOUND_ORDER');
      // Links to a code's section: the contents, its own heading, and the four error_mapping rows that target it.
      assert.equal(await page.locator('a[href="#code-PERMISSION_DENIED"]').count(), 6);
      assert.equal(await page.locator('#error-mapping ~ table a[href="#code-PERMISSION_DENIED"]').count(), 4);
      // The hostile adapter's text is text: no element it wrote, no request it asked for.
      assert.equal(await page.locator('script, img, iframe, link, object, embed').count(), 0);
      assert.match(
        await page.locator('#code-NOT_FOUND_EVIL').innerText(),
        /<img src=https:\/\/evil\.example\/x\.png onerror=alert\(1\)><script>/,
      );
      assert.equal(await page.title(), 'Error reference: evil, github-api, shop, weather');
      const shot = process.env.E2E_SCREENSHOTS === '1' ? join(ROOT, 'docs/images/error-reference.png') : join(dir, 'error-reference.png');
      await page.screenshot({ path: shot });
      assert.ok(existsSync(shot));
      assert.deepEqual(requests, [url.replace(/#.*$/, '')], 'no request after load either');
      await context.close();
    } finally {
      await browser.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
