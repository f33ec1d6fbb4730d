/**
 * The first squiggle in a real editor, in a folder that holds 12 MiB of other adapters: code-server with
 * the extension installed from the .vsix (codeServer.ts), the small adapter of bench/firstDiagnostics.ts
 * opened 1 s after the window's first editor (a file of another language, opened as the workbench shows), then a
 * broken .json in the same run (the editor's own JSON features: their extension's activation and language server
 * start on that open). Asserts what the user
 * sees — the adapter's own error, never an unknown code for the code the last big file declares, and the
 * true unknown code once the scan is complete — and reports the times apart (activation, server start,
 * scan, first check, from the extension host's and the extension's logs), never asserting on them.
 * Skipped like ui.test.ts without code-server and Chromium, except under CI=true. E2E_VSIX=<file> tests that
 * .vsix instead of packaging this build (another build's figures: they are written before the assertions).
 * E2E_ACTIVATION=onLanguage names the folder's adapters `*.yaml` (adapters by their content, design s1), which no
 * `workspaceContains` glob of package.json matches: opening the file itself activates the extension
 * (`onLanguage:yaml`), the case where the activation and the server's start lie on the first squiggle's path.
 * E2E_ORDER=adapterFirst opens the adapter as the window's first editor, as soon as the workbench shows (the default
 * until the thirteenth sitting); E2E_ORDER=jsonFirst the .json, and the adapter after its squiggle: which of the two
 * pays for opening while the workbench still starts (bench/NOTES.md, "eleventh" and "thirteenth sitting").
 * E2E_CODELENS=on keeps the editor's CodeLens on (the default for a user; off otherwise, as before): the page's work
 * for our other features on open (bench/NOTES.md, "twelfth sitting"); the squiggled lines are then read from the
 * line numbers beside them, which the lenses' rows do not shift.
 */
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAR_CODE, NOWHERE_CODE, SMALL_ADAPTER, writeFirstDiagnosticsWorkspace } from '../../bench/firstDiagnostics';
import { tempDir } from '../tempDirs';
import { launch, missing, quickOpen, until, type Editor } from './codeServer';
import { frameClock, pageFrames, pageTrace, type PageFrame } from './pageTrace';

const why = missing();
const skip = why && process.env.CI !== 'true' ? `e2e: skipped — ${why}; run \`npm run setup:e2e\` to enable` : false;
/** 23 adapters of 2,400 codes: 12.6 MB, the folder of the report. */
const FILES = 23;
const CODES = 2400;
const BROKEN_JSON = '{\n  "name": "broken",\n  "items": [1, 2,, 3]\n}\n';
/** The activation the run forces: by opening the file (`onLanguage`), or whichever the editor gets to first. */
const ON_LANGUAGE = process.env.E2E_ACTIVATION === 'onLanguage';
const ORDERS = ['otherFirst', 'adapterFirst', 'jsonFirst'] as const;
/** Which file opens first, as the workbench shows: one of another language (the default), the adapter or the `.json`. */
const ORDER = (process.env.E2E_ORDER || 'otherFirst') as (typeof ORDERS)[number];
if (!ORDERS.includes(ORDER)) throw new Error(`E2E_ORDER=${ORDER}: expected one of ${ORDERS.join(', ')}`);
const JSON_FIRST = ORDER === 'jsonFirst';
/**
 * The default order: a file of another language (an `.ini`: a TextMate grammar, no extension of its own to activate)
 * opens first, as the workbench shows, and the adapter 1 s after its text. The window's first editor starts VS Code's
 * editor worker and TextMate worker (their modules compiled, with the page's garbage collection, on both cores of this
 * machine); the adapter then no longer pays for them, and the `.json`, opened later, never did (bench/NOTES.md,
 * "thirteenth sitting").
 */
const OTHER_FIRST = ORDER === 'otherFirst';
/** Whether the editor shows CodeLens (the user's default), or not (the figures before, and the default here). */
const CODE_LENS = process.env.E2E_CODELENS === 'on';
/**
 * E2E_TRACE=<file>: a Chromium trace of the page from the adapter's open to its squiggle, with the websocket frames the
 * page received (bench/pageTrace.ts reads it; test/e2e/pageTrace.ts; E2E_TRACE_CATEGORIES=a,b its categories). A trace
 * slows the page (1.5–3 × here): read it for what runs, not for how long. E2E_FRAMES=on records only the frames, over the
 * whole run, and reports when each file's diagnostics reached the page (`diagnosticsReceived`).
 */
const TRACE = process.env.E2E_TRACE;
const FRAMES = process.env.E2E_FRAMES === 'on';
const named = (file: string) => (ON_LANGUAGE ? file.replace(/\.adapter\.yaml$/, '.yaml') : file);
/** The small adapter, as the folder names it. */
const SMALL = named('small.adapter.yaml');
let ed: Editor | undefined;
let launchedAt = 0;

/** Every file of the generated folder, for launch() to copy into its workspace. */
function listFiles(dir: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) Object.assign(out, listFiles(dir, p));
    else out[p] = join(dir, p);
  }
  return out;
}

before(
  async () => {
    if (why) return;
    const src = tempDir('mcp-aql-e2e-first-');
    writeFirstDiagnosticsWorkspace(src, FILES, CODES);
    writeFileSync(join(src, 'broken.json'), BROKEN_JSON);
    writeFileSync(join(src, 'notes.ini'), '[adapters]\nfolder = .\n');
    const files = Object.fromEntries(Object.entries(listFiles(src)).map(([to, from]) => [named(to), from]));
    launchedAt = Date.now();
    // No code lenses unless E2E_CODELENS=on (the figures before were taken without).
    // MCP_AQL_TIMELINE: the client and the server log each hop with the time (client/src/timeline.ts).
    ed = await launch(files, {
      settings: CODE_LENS ? {} : { 'editor.codeLens': false },
      vsix: process.env.E2E_VSIX || undefined,
      env: { MCP_AQL_TIMELINE: '1' },
    });
  },
  { timeout: 300_000 },
);
after(async () => {
  await ed?.close();
});

/** Error squiggles of the editor showing `name` (monaco marks its editor with the model's URI). */
const squiggles = (name: string) => ed!.page.locator(`.monaco-editor[data-uri$="/${name}"] .squiggly-error`);

/**
 * Watch the page, from now on, for the editor of `name` and its first error squiggle: the page's own clock
 * (Date.now(), the same as this process's), read by `watched`, not the polling of a locator. Also when the page
 * first shows what our other features draw in that editor (a CodeLens, the lightbulb, sticky scroll's lines, the
 * breadcrumbs' symbols) and its long tasks (over 50 ms of the page's main thread), for what competes with the squiggle.
 */
async function watch(name: string): Promise<void> {
  // A string, not a function: tsx names the functions it compiles (a helper the page does not have).
  await ed!.page.evaluate(`(() => {
    const n = ${JSON.stringify(name)};
    const seen = (window.__firstSeen ??= {});
    const busy = (window.__longTasks ??= []);
    if (!window.__longTaskObserver) {
      window.__longTaskObserver = new PerformanceObserver(list => {
        for (const e of list.getEntries()) busy.push([Math.round(performance.timeOrigin + e.startTime), Math.round(e.duration)]);
      });
      window.__longTaskObserver.observe({ type: 'longtask' });
    }
    const mark = (key, found) => {
      if (found && !seen[n + ':' + key]) {
        seen[n + ':' + key] = Date.now();
        // For a trace of the page (E2E_TRACE): the moment on the trace's own clock.
        performance.mark('seen:' + n + ':' + key);
      }
    };
    const observer = new MutationObserver(() => {
      const editor = document.querySelector('.monaco-editor[data-uri$="/' + n + '"]');
      if (!editor) return;
      mark('editor', true);
      mark('text', editor.querySelector('.view-line'));
      mark('squiggle', editor.querySelector('.squiggly-error'));
      mark('codeLens', editor.querySelector('.codelens-decoration a, .codelens-decoration span'));
      mark('lightbulb', editor.querySelector('.lightBulbWidget [class*="codicon"]'));
      mark('stickyScroll', editor.querySelector('.sticky-widget .sticky-line-content'));
      mark('breadcrumbs', document.querySelector('.editor-group-container.active .breadcrumbs-control .outline-element'));
      mark('titleButton', document.querySelector('.editor-group-container.active .editor-actions [aria-label*="Error Envelope Preview"]'));
      if (['squiggle', 'codeLens', 'stickyScroll'].every(k => seen[n + ':' + k] || (k === 'codeLens' && !${JSON.stringify(CODE_LENS)})))
        observer.disconnect();
    });
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
  })()`);
}
const watched = async (name: string): Promise<Record<string, number>> =>
  ed!.page.evaluate(n => {
    const all = (window as unknown as Record<string, Record<string, number>>).__firstSeen ?? {};
    return Object.fromEntries(
      Object.entries(all)
        .filter(([k]) => k.startsWith(`${n}:`))
        .map(([k, v]) => [k.slice(n.length + 1), v]),
    );
  }, name);

/**
 * Lines (0-based) that hold an error squiggle in the editor showing `name`: the line number beside the overlay (the
 * margin's row at the same offset), else from the overlays' top offsets (without CodeLens rows between them).
 */
async function squiggleLines(name: string): Promise<number[]> {
  return ed!.page.evaluate(n => {
    const editor = document.querySelector(`.monaco-editor[data-uri$="/${n}"]`);
    if (!editor) return [];
    const numbers = new Map(
      [...editor.querySelectorAll('.margin-view-overlays > div')].map(d => [
        Number.parseFloat((d as HTMLElement).style.top),
        Number(d.querySelector('.line-numbers')?.textContent),
      ]),
    );
    const byNumber = [...editor.querySelectorAll('.view-overlays > div')]
      .filter(d => d.querySelector('.squiggly-error'))
      .map(d => numbers.get(Number.parseFloat((d as HTMLElement).style.top)));
    if (byNumber.length && byNumber.every(x => typeof x === 'number' && x > 0)) return byNumber.map(x => x! - 1);
    const lineHeight = Number.parseFloat(getComputedStyle(editor.querySelector('.view-line') ?? editor).lineHeight) || 19;
    const tops = [...editor.querySelectorAll('.view-overlays > div')].map(d => ({
      top: Number.parseFloat((d as HTMLElement).style.top),
      hit: !!d.querySelector('.squiggly-error'),
    }));
    const first = Math.min(...tops.map(t => t.top));
    // The overlays are those of the lines in view, from the first line (the file is short, all in view).
    return tops.filter(t => t.hit).map(t => Math.round((t.top - first) / lineHeight));
  }, name);
}

/** The first line of `text` in `file` under the run's logs (newest session), with its time, or undefined. */
function logLine(dir: string, file: RegExp, text: RegExp): { at: number; line: string } | undefined {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (file.test(e.name)) found.push(join(d, e.name));
    }
  };
  walk(dir);
  for (const f of found.sort()) {
    for (const line of readFileSync(f, 'utf8').split('\n')) {
      if (!text.test(line)) continue;
      const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d{3})/.exec(line);
      if (m) return { at: new Date(`${m[1]}T${m[2]}`).getTime(), line };
    }
  }
  return undefined;
}

/**
 * The timeline lines of our log (client/src/timeline.ts, server/src/lsp/timeline.ts): each hop's first time (ms,
 * the wall clock of the process that logged it), by the line's words before the time.
 */
function timelineOf(dir: string): Map<string, number> & { activateLine?: string } {
  const out: Map<string, number> & { activateLine?: string } = new Map<string, number>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name === 'MCP-AQL.log')
        for (const m of readFileSync(join(d, e.name), 'utf8').matchAll(/timeline (.*?) @(\d+)$/gm)) {
          // Without the values a line carries (a count of diagnostics, the process's start).
          const key = m[1]!.replace(/ process-start=\d+| bundle=\S*| loader=\S*| cache=\w+| called=\d+| forked=\d+| (?:\d+|-)$/g, '');
          if (!out.has(key)) out.set(key, Number(m[2]));
          if (key === 'client activate') out.activateLine ??= m[1];
          const start = /process-start=(\d+)/.exec(m[1]!);
          if (start && !out.has('server process')) out.set('server process', Number(start[1]));
          // The client's loader forked the server (client/src/earlyServer.ts): when, by the extension host's clock.
          const forked = /forked=(\d+)/.exec(m[1]!);
          if (forked && !out.has('server forked')) out.set('server forked', Number(forked[1]));
        }
    }
  };
  walk(dir);
  return out;
}

/**
 * The frame that brought `name`'s squiggled diagnostics: the last `$changeMany` naming it before its squiggle (an earlier
 * one may clear or set none). ms after its editor showed, and from it to the squiggle.
 */
function receivedAfter(frames: PageFrame[], name: string, seen: Record<string, number>) {
  const wall = frameClock(frames);
  if (seen.editor === undefined || seen.squiggle === undefined) return undefined;
  const last = frames.filter(f => f.diagnosticsOf === name && wall(f) <= seen.squiggle!).at(-1);
  if (!last) return undefined;
  const at = Math.round(wall(last));
  return { afterEditorMs: at - seen.editor, toSquiggleMs: seen.squiggle - at };
}

test('first squiggle in a folder of 12 MiB of adapters, and the JSON features in the same run', { skip, timeout: 300_000 }, async t => {
  assert.ok(!why, `${why}: run npm run setup:e2e (required under CI=true)`);
  const page = ed!.page;
  const workbench = Date.now();
  const frames = FRAMES ? await pageFrames(page, [SMALL, 'broken.json']) : undefined;
  const openJson = async () => {
    await watch('broken.json');
    await quickOpen(page, 'broken.json');
    const opened = Date.now();
    await squiggles('broken.json').first().waitFor({ state: 'attached', timeout: 120_000 });
    return { ms: Date.now() - opened, seen: await watched('broken.json') };
  };
  if (OTHER_FIRST) {
    await quickOpen(page, 'notes.ini');
    await new Promise(r => setTimeout(r, 1000));
  }
  const jsonBefore = JSON_FIRST ? await openJson() : undefined;
  const trace = TRACE ? await pageTrace(page, [SMALL, 'broken.json']) : undefined;
  await watch(SMALL);
  await quickOpen(page, SMALL);
  const opened = Date.now();
  await squiggles(SMALL).first().waitFor({ state: 'attached', timeout: 120_000 });
  const oursMs = Date.now() - opened;
  if (trace) await trace(TRACE!);
  // Until the scan is complete, the adapter's own error only; then the code no file declares too. The code
  // the last big file declares is never squiggled.
  const farLine = SMALL_ADAPTER.split('\n').findIndex(l => l.endsWith(FAR_CODE));
  const nowhereLine = SMALL_ADAPTER.split('\n').findIndex(l => l.endsWith(NOWHERE_CODE));
  const categoryLine = SMALL_ADAPTER.split('\n').findIndex(l => l.includes('category: BOGUS'));
  const seen = new Set<number>();
  await until(
    'the unknown code, once the scan is complete',
    async () => {
      for (const l of await squiggleLines(SMALL)) seen.add(l);
      return seen.has(nowhereLine);
    },
    180_000,
  ).catch(async e => {
    throw new Error(`${(e as Error).message}; squiggled lines ${[...seen].join(', ')}; screenshot ${await ed!.shot('failure-first')}`);
  });

  const oursSeen = await watched(SMALL);
  const { ms: jsonMs, seen: jsonSeen } = jsonBefore ?? (await openJson());
  // When each file's diagnostics reached the page (E2E_FRAMES=on), after its editor showed, and → its squiggle.
  const received = frames ? await frames.stop() : undefined;
  const diagnosticsReceived = received && {
    ours: receivedAfter(received, SMALL, oursSeen),
    json: receivedAfter(received, 'broken.json', jsonSeen),
  };

  // The parts, from the logs the run wrote (the extension host's and our output channel's, both timestamped).
  const logs = ed!.dir;
  const ours = /MCP-AQL\.log$/;
  const activated = logLine(logs, /^remoteexthost\.log$|^exthost\.log$/, /ExtensionService#_doActivateExtension mcp-aql\./);
  // The JSON features' own activation, by the same log: where their open's time goes beside ours.
  const jsonActivated = logLine(
    logs,
    /^remoteexthost\.log$|^exthost\.log$/,
    /ExtensionService#_doActivateExtension vscode\.json-language-features/,
  );
  const starting = logLine(logs, ours, /starting the language server/);
  const started = logLine(logs, ours, /language server started/);
  // The server's own line: how long its process took to reach initialize, and whether its bundle came compiled.
  const initialize = logLine(logs, ours, /initialize \d+ ms after the process started/);
  const scanning = logLine(logs, ours, /scanning \d+ folder/);
  const scanned = logLine(logs, ours, /indexed \d+ adapter file/);
  const apart = (a?: { at: number }, b?: { at: number }) => (a && b ? b.at - a.at : undefined);
  const span = (seen: Record<string, number>) => (seen.editor && seen.squiggle ? seen.squiggle - seen.editor : undefined);
  const oursPage = span(oursSeen);
  const jsonPage = span(jsonSeen);
  // Each hop of the small adapter's way to its squiggle, in ms after its editor showed in the page (negative: before).
  const hops: Record<string, number | undefined> = {};
  const times = timelineOf(logs);
  const f = SMALL;
  for (const [name, key] of [
    ['activate', 'client activate'],
    ['serverForked', 'server forked'],
    ['serverProcess', 'server process'],
    ['initialize', 'server initialize'],
    ['extensionHostOpened', `client opened ${f}`],
    ['didOpen', `client didOpen ${f}`],
    ['serverDidOpen', `server didOpen ${f}`],
    ['serverPull', `server pull ${f}`],
    ['serverSettingsKnown', `server settings-known ${f}`],
    ['serverAnswered', `server pull-answered ${f}`],
    ['clientAnswered', `client pull-answered ${f}`],
    ['scan', 'server scan'],
    // What VS Code asks for our other features on open (client/src/clientOptions.ts), asked and answered.
    ['symbols', `client symbols ${f}`],
    ['symbolsAnswered', `client symbols-answered ${f}`],
    ['codeLens', `client codeLens ${f}`],
    ['codeLensAnswered', `client codeLens-answered ${f}`],
    ['codeActions', `client codeActions ${f}`],
    ['codeActionsAnswered', `client codeActions-answered ${f}`],
    // The language status item and the context key of the editor title's button (client/src/adapterStatus.ts).
    ['statusSet', `client status-set ${f}`],
  ] as const) {
    const at = times.get(key);
    hops[name] = at !== undefined && oursSeen.editor ? at - oursSeen.editor : undefined;
  }
  hops.squiggle = oursPage;
  // What the page drew for our other features, and when (after the editor showed; undefined: not before the squiggle
  // was read, or never).
  for (const k of ['codeLens', 'lightbulb', 'stickyScroll', 'breadcrumbs', 'titleButton'] as const)
    hops[`${k}Drawn`] = oursSeen[k] !== undefined && oursSeen.editor ? oursSeen[k] - oursSeen.editor : undefined;
  // The page's long tasks from the editor's showing to the squiggle: how many, their sum and the longest (ms).
  const tasks = (await page.evaluate('window.__longTasks ?? []')) as [number, number][];
  const during = oursSeen.editor && oursSeen.squiggle ? tasks.filter(([at]) => at >= oursSeen.editor! && at < oursSeen.squiggle!) : [];
  const pageBusy = {
    tasks: during.length,
    ms: during.reduce((a, [, d]) => a + d, 0),
    longestMs: Math.max(0, ...during.map(([, d]) => d)),
    // Each one's start after the editor showed and its length.
    list: during.map(([at, d]) => [at - oursSeen.editor!, d]),
  };
  // The client's load (client/src/activateWith.ts's timeline line): the loader's compile, the bundle's evaluation,
  // the wait before VS Code called activate, and whether the bundle's code cache was used.
  const nums = (re: RegExp) =>
    re
      .exec(times.activateLine ?? '')
      ?.slice(1)
      .map(Number);
  const bundle = nums(/bundle=(\d+)-(\d+)/);
  const loader = nums(/loader=(\d+)-(\d+)/);
  const called = nums(/called=(\d+)/)?.[0];
  const clientLoad = {
    codeCache: /cache=(\w+)/.exec(times.activateLine ?? '')?.[1],
    compileMs: loader ? loader[1]! - loader[0]! : undefined,
    evaluateMs: bundle ? bundle[1]! - bundle[0]! : undefined,
    activateCalledAfterMs: bundle && called ? called - bundle[1]! : undefined,
  };
  const figures = {
    order: ORDER,
    codeLens: CODE_LENS,
    pageBusy,
    launchToWorkbenchMs: workbench - launchedAt,
    activationEvent: activated && /activationEvent: '([^:']*)/.exec(activated.line)?.[1],
    activationMs: apart(activated, starting),
    clientLoad,
    serverStartMs: apart(starting, started),
    processToInitializeMs: initialize && Number(/initialize (\d+) ms/.exec(initialize.line)?.[1]),
    codeCache: initialize && /code cache: (\w+)/.exec(initialize.line)?.[1],
    scanMs: apart(scanning, scanned),
    fileOpenedAfterActivationMs: activated && oursSeen.editor ? oursSeen.editor - activated.at : undefined,
    // Each extension's activation began N ms after its file's editor showed (the extension host's log line; negative:
    // before, as when `workspaceContains` activated ours).
    activationAfterEditorMs: {
      ours: activated && oursSeen.editor ? activated.at - oursSeen.editor : undefined,
      json: jsonActivated && jsonSeen.editor ? jsonActivated.at - jsonSeen.editor : undefined,
    },
    // The client's "language server started" (initialize answered) after the editor showed; negative: the server
    // was ready before the file opened (the log's own stamp, rough when the extension host is busy).
    serverReadyAfterEditorMs: started && oursSeen.editor ? started.at - oursSeen.editor : undefined,
    // On the page's clock: from the file's editor in the page to its first error squiggle there.
    firstSquiggleMs: oursPage,
    jsonFirstSquiggleMs: jsonPage,
    ratio: oursPage !== undefined && jsonPage ? Number((oursPage / jsonPage).toFixed(2)) : undefined,
    // As this test measured them before: from Quick Open's return (the tab and its text shown) until a
    // locator's wait saw the squiggle, which adds the wait's polling (up to a few hundred ms under load).
    polledMs: { ours: oursMs, json: jsonMs },
    ...(diagnosticsReceived ? { diagnosticsReceived } : {}),
    // Each file's editor in the page (Date.now()), to join these figures with other logs of the run.
    editorShownAt: { ours: oursSeen.editor, json: jsonSeen.editor },
    hops,
  };
  t.diagnostic(JSON.stringify(figures));
  writeFileSync(join(ed!.dir, 'first-diagnostics.json'), JSON.stringify(figures, null, 2) + '\n');
  if (TRACE) writeFileSync(TRACE.replace(/\.json$/, '') + '.figures.json', JSON.stringify(figures, null, 2) + '\n');
  assert.ok(!seen.has(farLine), `no squiggle on ${FAR_CODE} (line ${farLine}): squiggled lines ${[...seen].join(', ')}`);
  assert.ok(seen.has(categoryLine), `the unknown category squiggled (line ${categoryLine}): ${[...seen].join(', ')}`);
});
