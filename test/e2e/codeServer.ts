/**
 * A real VS Code (code-server 4.100.3 = VS Code 1.100.3, from npm, installed by `npm run setup:e2e`)
 * with the built extension installed from the .vsix, driven by playwright-core in Debian's Chromium
 * (e2e-recipe.md). Everything it writes lives under .e2e/ in the project; servers bind 127.0.0.1 only.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Frame, type Page } from 'playwright-core';

export const ROOT = join(__dirname, '..', '..');
export const CODE_SERVER = join(ROOT, '.cache', 'code-server', 'node_modules', '.bin', 'code-server');
export const CHROMIUM = '/usr/bin/chromium';

/** Why the real-editor tests cannot run here, or undefined when they can. */
export function missing(): string | undefined {
  if (!existsSync(CODE_SERVER)) return 'code-server is not installed';
  if (!existsSync(CHROMIUM)) return 'Debian chromium is not installed';
  return undefined;
}

const freePort = () =>
  new Promise<number>((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => res(p));
    });
  });

export function buildVsix(dir: string): string {
  const out = join(dir, 'mcp-aql-errors.vsix');
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts/package-vsix.mjs'), '-o', out], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`vsce package failed: ${r.stderr}${r.stdout}`);
  return out;
}

export interface Editor {
  page: Page;
  ctx: BrowserContext;
  server: ChildProcess;
  dir: string;
  ws: string;
  close(): Promise<void>;
  shot(name: string): Promise<string>;
  /** The exit code the extension host reported (extension-host test runs only). */
  exitCode(): { value: number } | undefined;
  /** What the page's console printed (extension-host output arrives there). */
  log(): string;
}

export interface LaunchOptions {
  /** Load the extension from this folder instead of installing the .vsix (extension-host tests). */
  readonly extensionDevelopmentPath?: string;
  readonly extensionTestsPath?: string;
  readonly env?: Record<string, string>;
  /** Install this .vsix instead of packaging one (scripts/package-vsix.mjs). */
  readonly vsix?: string;
  /** Extra user settings. */
  readonly settings?: Record<string, unknown>;
}

export async function launch(files: Record<string, string>, opts: LaunchOptions = {}): Promise<Editor> {
  mkdirSync(join(ROOT, '.e2e'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, '.e2e', 'run-'));
  const ws = join(dir, 'ws');
  for (const [to, from] of Object.entries(files)) {
    mkdirSync(join(ws, to, '..'), { recursive: true });
    cpSync(from, join(ws, to));
  }
  const env = {
    ...process.env,
    ...opts.env,
    TMPDIR: join(dir, 'tmp'),
    XDG_CONFIG_HOME: join(dir, 'xdg/config'),
    XDG_DATA_HOME: join(dir, 'xdg/data'),
    XDG_CACHE_HOME: join(dir, 'xdg/cache'),
  };
  for (const d of [env.TMPDIR, join(dir, 'user/User'), join(dir, 'ext')]) mkdirSync(d!, { recursive: true });
  writeFileSync(
    join(dir, 'user/User/settings.json'),
    JSON.stringify({
      'workbench.startupEditor': 'none',
      'telemetry.telemetryLevel': 'off',
      'update.mode': 'none',
      'extensions.autoUpdate': false,
      'extensions.autoCheckUpdates': false,
      'workbench.enableExperiments': false,
      'security.workspace.trust.enabled': false,
      'chat.disableAIFeatures': true,
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
      'git.enabled': false,
      'editor.quickSuggestions': { other: false, comments: false, strings: false },
      'editor.hover.delay': 100,
      'workbench.tips.enabled': false,
      ...opts.settings,
    }),
  );
  const port = await freePort();
  writeFileSync(join(dir, 'config.yaml'), `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const common = ['--config', join(dir, 'config.yaml'), '--user-data-dir', join(dir, 'user'), '--extensions-dir', join(dir, 'ext')];
  if (!opts.extensionDevelopmentPath) {
    const vsix = opts.vsix ?? buildVsix(dir);
    const inst = spawnSync(CODE_SERVER, [...common, '--install-extension', vsix], { env, encoding: 'utf8', timeout: 120_000 });
    if (inst.status !== 0) throw new Error(`install-extension failed: ${inst.stderr}${inst.stdout}`);
  }
  const server = spawn(
    CODE_SERVER,
    [
      ...common,
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      ws,
    ],
    { env, stdio: 'ignore', detached: true },
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (r.ok) break;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error('code-server did not become healthy');
    await new Promise(r => setTimeout(r, 200));
  }
  const ctx = await chromium.launchPersistentContext(join(dir, 'chrome'), {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    env,
  });
  const page = ctx.pages()[0] ?? (await ctx.newPage());
  const logs: string[] = [];
  let exit: { value: number } | undefined;
  page.on('console', m => logs.push(m.text()));
  await page.exposeFunction('codeAutomationExit', (code: number) => {
    exit = { value: code };
  });
  let url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}`;
  if (opts.extensionDevelopmentPath) {
    const payload: [string, string][] = [['extensionDevelopmentPath', `vscode-remote://127.0.0.1:${port}${opts.extensionDevelopmentPath}`]];
    if (opts.extensionTestsPath) payload.push(['extensionTestsPath', `vscode-remote://127.0.0.1:${port}${opts.extensionTestsPath}`]);
    url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  }
  await page.goto(url);
  await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
  return {
    page,
    ctx,
    server,
    dir,
    ws,
    exitCode: () => exit,
    log: () => logs.join('\n'),
    async close() {
      await ctx.close().catch(() => undefined);
      try {
        process.kill(-server.pid!, 'SIGTERM');
      } catch {
        server.kill('SIGTERM');
      }
    },
    async shot(name: string) {
      const p = join(dir, `${name}.png`);
      await page.screenshot({ path: p });
      return p;
    },
  };
}

export async function openFile(page: Page, name: string): Promise<void> {
  const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first();
  await row.waitFor({ timeout: 60_000 });
  await row.click();
  await page.locator(`.tab.active`, { hasText: name }).first().waitFor({ timeout: 30_000 });
  await page.locator('.editor-instance .view-lines').first().waitFor();
}

/**
 * Open the quick input with `text` (a file name, or `>` and a command). A webview (a preview, a rule's
 * Markdown preview) that has the focus keeps keyboard shortcuts, so the command center in the title bar
 * is clicked instead; without one, the active tab takes the focus and Ctrl+P opens it.
 */
export async function openQuickInput(page: Page, text: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  const clicked = await page
    .locator('.command-center .command-center-center')
    .first()
    .click({ timeout: 5000 })
    .then(() => true)
    .catch(() => false);
  if (!clicked || !(await input.isVisible().catch(() => false))) {
    await page
      .locator('.tabs-container .tab.active')
      .first()
      .click({ timeout: 5000 })
      .catch(() => undefined);
    await page.keyboard.press('Control+P');
  }
  await input.waitFor();
  await input.fill(text);
}

/**
 * Open a workspace file by name through Quick Open (works whatever the side bar shows). Quick Open
 * sometimes lays its list out with the matching row hidden for good (seen once in a CI run); then it
 * is closed and asked again, up to three times.
 */
export async function quickOpen(page: Page, name: string): Promise<void> {
  const exact = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  for (let attempt = 1; ; attempt++) {
    await openQuickInput(page, name);
    // Click the row whose file name is exactly `name` (fuzzy matching also lists longer names, maybe first).
    const row = page.locator('.quick-input-list .monaco-list-row', { has: page.locator('.label-name', { hasText: exact }) }).first();
    try {
      await row.waitFor({ timeout: attempt < 3 ? 10_000 : 30_000 });
    } catch (err) {
      if (attempt >= 3) throw err;
      await page.keyboard.press('Escape');
      continue;
    }
    await row.click();
    break;
  }
  await page.locator(`.tab.active`, { hasText: name }).first().waitFor({ timeout: 30_000 });
  await page.locator('.editor-instance .view-lines').first().waitFor();
}

/** Runs a command from the palette, asking again while the workbench has not listed it yet. */
export async function runCommand(page: Page, title: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  await until(
    `the command ${title}`,
    async () => {
      await page.keyboard.press('Escape');
      await page.keyboard.press('F1');
      await input.waitFor();
      await input.fill(`>${title}`);
      return row.waitFor({ timeout: 5000 }).then(
        () => true,
        () => false,
      );
    },
    60_000,
  );
  await page.keyboard.press('Enter');
}

export async function command(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor();
  await page.keyboard.press('Enter');
}

export async function goTo(page: Page, line: number, column: number): Promise<void> {
  await page.locator('.monaco-editor textarea').first().focus();
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(`:${line}:${column}`);
  await page.keyboard.press('Enter');
  await page.locator('.monaco-editor textarea').first().focus();
}

/** Poll a condition until it holds (no fixed sleeps). */
export async function until<T>(what: string, f: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await f();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise(r => setTimeout(r, 250));
  }
}

/** The webview frame whose text contains `needle`. */
export async function webviewFrame(page: Page, needle: string): Promise<Frame | undefined> {
  for (const f of page.frames()) {
    const t = await f.evaluate<string>('document.body ? document.body.innerText : ""').catch(() => '');
    if (t.includes(needle)) return f;
  }
  return undefined;
}
