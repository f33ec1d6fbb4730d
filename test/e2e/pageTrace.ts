/**
 * A Chromium trace of the page (CDP `Tracing`), for what the page's main thread does between two moments of a
 * real-editor run: its tasks, the scripts they ran (with CPU samples), style, layout and paint, and the
 * websocket frames it received. bench/pageTrace.ts reads the file.
 */
import { writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

const CATEGORIES = ['toplevel', 'devtools.timeline', 'v8.execute', 'disabled-by-default-v8.cpu_profiler', 'blink.user_timing'];

/** Starts tracing the page; the function returned stops it and writes the trace's events (JSON) to `file`. */
export async function pageTrace(page: Page, framesOnly = false): Promise<(file: string) => Promise<void>> {
  const cdp = await page.context().newCDPSession(page);
  const events: unknown[] = [];
  // The page's clock beside the trace's: the trace's timestamps are monotonic microseconds.
  const frames: { at: number; ts: number; bytes: number; ours: boolean }[] = [];
  cdp.on('Network.webSocketFrameReceived', (e: { timestamp: number; response: { opcode: number; payloadData: string } }) => {
    const data = e.response.opcode === 2 ? Buffer.from(e.response.payloadData, 'base64').toString('latin1') : e.response.payloadData;
    // Our diagnostics reach the page as the extension host's $changeMany, naming the collection's owner.
    frames.push({ at: Date.now(), ts: e.timestamp, bytes: data.length, ours: data.includes('mcp-aql') && data.includes('small') });
  });
  await cdp.send('Network.enable');
  cdp.on('Tracing.dataCollected', (e: { value: unknown[] }) => events.push(...e.value));
  const clock = await page.evaluate('[Date.now(), performance.timeOrigin + performance.now()]');
  if (!framesOnly)
    await cdp.send('Tracing.start', {
      transferMode: 'ReportEvents',
      traceConfig: { includedCategories: process.env.E2E_TRACE_CATEGORIES?.split(',') ?? CATEGORIES, recordMode: 'recordContinuously' },
    });
  // A mark the page makes on its own clock, to join the trace's clock to Date.now().
  await page.evaluate(`performance.mark('trace-clock:' + Date.now())`);
  return async (file: string) => {
    await page.evaluate(`performance.mark('trace-clock:' + Date.now())`);
    if (!framesOnly) {
      const done = new Promise<void>(res => cdp.once('Tracing.tracingComplete', () => res()));
      await cdp.send('Tracing.end');
      await done;
    }
    await cdp.detach().catch(() => undefined);
    writeFileSync(file, JSON.stringify({ clock, frames, traceEvents: events }));
  };
}
