/**
 * "MCP-AQL: Probe a Server…" in a real editor: code-server with the extension installed from
 * the .vsix (its Node extension host runs the bundled dist/cli.js), the example server and its adapter
 * in a folder whose name has a space. The command is run from the palette, its input box answered with
 * a quoted command, and the findings read in the Problems panel: on the adapter's declarations they
 * concern and on the recorded transcript; then a clean server leaves none; a server that never answers
 * gets the timeout's error and is stopped; Cancel is no error and stops the server. Skipped like ui.test.ts
 * without code-server and Chromium, except under CI=true.
 */
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launch, missing, quickOpen, ROOT, runCommand, until, type Editor } from './codeServer';
import { alive } from '../processes';

const why = missing();
const skip = why && process.env.CI !== 'true' ? `e2e: skipped — ${why}; run \`npm run setup:e2e\` to enable` : false;
const DIR = 'probe me';
const ADAPTER = 'notes.adapter.yaml';
const LINES = readFileSync(join(ROOT, 'examples/server', ADAPTER), 'utf8').split('\n');
/** `[Ln l, Col c]` of the first line holding `needle`, at `sub` (as the Problems panel writes it). */
const at = (needle: string, sub = needle): string => {
  const i = LINES.findIndex(l => l.includes(needle));
  assert.ok(i >= 0, needle);
  return `[Ln ${i + 1}, Col ${LINES[i]!.indexOf(sub) + 1}]`;
};
let ed: Editor | undefined;
/** Where the server that never answers writes its pid (the extension host, the CLI and the server inherit it). */
const PID_FILE = join(mkdtempSync(join(tmpdir(), 'mcp-aql-e2e-probe-')), 'pid');

async function step<T>(name: string, f: (e: Editor) => Promise<T>): Promise<T> {
  assert.ok(!why, `${why}: run npm run setup:e2e (required under CI=true)`);
  try {
    return await f(ed!);
  } catch (e) {
    const shot = ed ? await ed.shot(`failure-${name}`).catch(() => '(no screenshot)') : '(no editor)';
    throw new Error(`${(e as Error).message}\nscreenshot: ${shot}\n${ed?.log().slice(-3000) ?? ''}`);
  }
}

/** Probe from the adapter's editor: the command, its input box answered with `serverCommand`. */
async function startProbe(page: Page, serverCommand: string): Promise<void> {
  await quickOpen(page, ADAPTER);
  await runCommand(page, 'MCP-AQL: Probe a Server…');
  const box = page.locator('.quick-input-widget', { hasText: 'Probe a Server' });
  await box.waitFor({ timeout: 30_000 });
  const input = box.locator('input');
  await input.fill(serverCommand);
  await page.keyboard.press('Enter');
}

/** Probe and wait for the notification it ends with. */
async function probe(page: Page, serverCommand: string): Promise<string> {
  await startProbe(page, serverCommand);
  const toast = page.locator('.notifications-toasts .notification-toast', { hasText: /MCP-AQL: \d+ findings?/ }).last();
  await toast.waitFor({ timeout: 120_000 });
  return toast.innerText();
}

/** The Problems panel's rows under the file header whose name is `file`: each row's text on one line. */
async function problemsOf(page: Page, file: string): Promise<string[]> {
  await page.keyboard.press('Escape');
  const panel = page.locator('.markers-panel');
  if (!(await panel.isVisible().catch(() => false))) await runCommand(page, 'View: Focus Problems');
  await panel.waitFor();
  // The Problems panel lists every row when it has the whole window.
  if (((await page.locator('.part.panel').boundingBox())?.height ?? 0) < 500) await runCommand(page, 'View: Toggle Maximized Panel');
  const out: string[] = [];
  let inFile = false;
  for (const r of await panel.locator('.monaco-list-row').all()) {
    const text = (await r.innerText()).replace(/\s+/g, ' ').trim();
    // A marker row ends with its place; a file's header row has none.
    if (!/\[Ln \d+, Col \d+\]$/.test(text)) inFile = text.startsWith(file);
    else if (inFile) out.push(text);
  }
  return out;
}

before(
  async () => {
    if (why) return;
    ed = await launch(
      {
        [`${DIR}/${ADAPTER}`]: join(ROOT, 'examples/server', ADAPTER),
        [`${DIR}/server.mjs`]: join(ROOT, 'examples/server/server.mjs'),
        [`${DIR}/stubborn.js`]: join(ROOT, 'test/fixtures/runtime/stubbornServer.js'),
      },
      { env: { STUBBORN_PID: PID_FILE } },
    );
  },
  { timeout: 600_000 },
);
after(async () => {
  await ed?.close();
  rmSync(join(PID_FILE, '..'), { recursive: true, force: true });
});

/** The pid the server that never answers wrote, once it is up (the file is removed first). */
async function stubbornPid(): Promise<number> {
  return until('the server to start', async () => (existsSync(PID_FILE) ? Number(readFileSync(PID_FILE, 'utf8')) || undefined : undefined));
}

test('a server with a slip: each finding on the declaration it concerns and on the transcript line', { skip, timeout: 300_000 }, () =>
  step('probe-slip', async ({ page }) => {
    const toast = await probe(page, `node "${DIR}/server.mjs" --slip missing-detail`);
    assert.match(toast, /MCP-AQL: 6 findings/);
    const adapter = await until('the probe findings on the adapter', async () => {
      const rows = await problemsOf(page, ADAPTER);
      return rows.filter(r => r.includes('mcp-aql probe')).length === 6 ? rows : undefined;
    });
    const where = (n: number) => adapter.find(r => r.includes(`(transcript line ${n})`)) ?? `no row for transcript line ${n}`;
    // A code the adapter declares: its error_codes entry. A registry code: the operation the call named.
    // An operation the adapter does not have (the probe's made-up one): the adapter's first line.
    assert.match(where(2), /details\.operation \(string\) is required by NOT_FOUND_OPERATION/);
    assert.ok(where(2).endsWith('[Ln 1, Col 1]'), where(2));
    assert.ok(where(4).endsWith(at('- name: get_note', 'get_note')), where(4));
    assert.ok(where(6).endsWith(at('- name: get_note', 'get_note')), where(6));
    assert.ok(where(8).endsWith(at('  VALIDATION_NOT_ALLOWED:', 'VALIDATION_NOT_ALLOWED')), where(8));
    // The note no one created (the server's own not-found path): the code the adapter declares for it.
    assert.ok(where(10).endsWith(at('  NOT_FOUND_NOTE:', 'NOT_FOUND_NOTE')), where(10));
    assert.ok(where(12).endsWith(at('- name: list_notes', 'list_notes')), where(12));
    for (const r of adapter) assert.match(r, /verify\.missing-detail/);
    const transcript = await problemsOf(page, 'probe.responses.jsonl');
    assert.deepEqual(
      transcript.map(r => /\[Ln (\d+), Col \d+\]$/.exec(r)?.[1]),
      ['2', '4', '6', '8', '10', '12'],
      transcript.join('\n'),
    );
  }),
);

test('a clean server: no finding, and the last probe’s are gone', { skip, timeout: 300_000 }, () =>
  step('probe-clean', async ({ page }) => {
    const toast = await probe(page, `node "${DIR}/server.mjs"`);
    assert.match(toast, /MCP-AQL: 0 findings/);
    const rows = await problemsOf(page, ADAPTER);
    assert.deepEqual(
      rows.filter(r => r.includes('mcp-aql probe')),
      [],
    );
    assert.deepEqual(await problemsOf(page, 'probe.responses.jsonl'), []);
  }),
);

test('a server that never answers: an error naming the timeout, and the server is stopped', { skip, timeout: 300_000 }, () =>
  step('probe-silent', async ({ page }) => {
    rmSync(PID_FILE, { force: true });
    await startProbe(page, `node "${DIR}/stubborn.js"`);
    const pid = await stubbornPid();
    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'the probe did not run' }).last();
    await toast.waitFor({ timeout: 120_000 });
    assert.match(
      await toast.innerText(),
      /cannot start 'node' as an MCP server: the server did not answer the handshake \(10 s for each request/,
    );
    await until('the server to be stopped', async () => !alive(pid));
    await toast
      .locator('.codicon-notifications-clear')
      .click()
      .catch(() => undefined);
  }),
);

test('Cancel while a server does not answer: no error, the server is stopped', { skip, timeout: 300_000 }, () =>
  step('probe-cancel', async ({ page }) => {
    await runCommand(page, 'Notifications: Clear All Notifications');
    rmSync(PID_FILE, { force: true });
    await startProbe(page, `node "${DIR}/stubborn.js"`);
    const pid = await stubbornPid();
    const progress = page.locator('.notifications-toasts .notification-toast', { hasText: 'MCP-AQL: probing' }).last();
    await progress.getByRole('button', { name: 'Cancel' }).click();
    await until('the server to be stopped', async () => !alive(pid));
    await until('the progress to go', async () => !(await progress.isVisible().catch(() => false)));
    assert.equal(await page.locator('.notifications-toasts .notification-toast', { hasText: 'the probe did not run' }).count(), 0);
  }),
);
