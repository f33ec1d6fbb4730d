/**
 * A Chromium trace of the page (CDP `Tracing`), for what the page's main thread does between two moments of a
 * real-editor run: its tasks, the scripts they ran (with CPU samples), style, layout and paint, and the
 * websocket frames it received. bench/pageTrace.ts reads the file.
 */
import { writeFileSync } from 'node:fs';
import type { CDPSession, Page } from 'playwright-core';

const CATEGORIES = ['toplevel', 'devtools.timeline', 'v8.execute', 'disabled-by-default-v8.cpu_profiler', 'blink.user_timing'];

/** A websocket frame the page received: when (the page's network clock, s; and this process's Date.now()), its size,
 * and which of the watched files' diagnostics it carries (the extension host's `$changeMany` naming the file). */
export interface PageFrame {
  at: number;
  ts: number;
  bytes: number;
  diagnosticsOf?: string;
}

async function recordFrames(cdp: CDPSession, names: readonly string[]): Promise<PageFrame[]> {
  const frames: PageFrame[] = [];
  cdp.on('Network.webSocketFrameReceived', (e: { timestamp: number; response: { opcode: number; payloadData: string } }) => {
    const data = e.response.opcode === 2 ? Buffer.from(e.response.payloadData, 'base64').toString('latin1') : e.response.payloadData;
    const diagnosticsOf = data.includes('$changeMany') ? names.find(n => data.includes(n)) : undefined;
    frames.push({ at: Date.now(), ts: e.timestamp, bytes: data.length, ...(diagnosticsOf ? { diagnosticsOf } : {}) });
  });
  await cdp.send('Network.enable');
  return frames;
}

/**
 * The frames' network clock as Date.now(): the smallest gap between a frame's arrival here and its timestamp (CDP's
 * events reach this process a few ms after the page had them when the page is idle, later when it is busy).
 */
export function frameClock(frames: readonly PageFrame[]): (frame: PageFrame) => number {
  const offset = Math.min(...frames.map(f => f.at - f.ts * 1000));
  return f => f.ts * 1000 + offset;
}

/** Records the websocket frames the page receives from now on; `stop` returns them. */
export async function pageFrames(page: Page, names: readonly string[]): Promise<{ stop(): Promise<PageFrame[]> }> {
  const cdp = await page.context().newCDPSession(page);
  const frames = await recordFrames(cdp, names);
  return {
    async stop() {
      await cdp.detach().catch(() => undefined);
      return frames;
    },
  };
}

/** Starts tracing the page; the function returned stops it and writes the trace's events and the frames (JSON) to `file`. */
export async function pageTrace(page: Page, names: readonly string[]): Promise<(file: string) => Promise<void>> {
  const cdp = await page.context().newCDPSession(page);
  const events: unknown[] = [];
  const frames = await recordFrames(cdp, names);
  cdp.on('Tracing.dataCollected', (e: { value: unknown[] }) => events.push(...e.value));
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: { includedCategories: process.env.E2E_TRACE_CATEGORIES?.split(',') ?? CATEGORIES, recordMode: 'recordContinuously' },
  });
  return async (file: string) => {
    const done = new Promise<void>(res => cdp.once('Tracing.tracingComplete', () => res()));
    await cdp.send('Tracing.end');
    await done;
    await cdp.detach().catch(() => undefined);
    writeFileSync(file, JSON.stringify({ frames, traceEvents: events }));
  };
}
