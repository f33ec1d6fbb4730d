/** dist/webview.js in jsdom, with a fake VS Code webview API that records what the page posts and its state. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';

const ROOT = join(__dirname, '..', '..');

export function page() {
  const dom = new JSDOM('<!doctype html><html><body><main id="app"></main></body></html>', {
    runScripts: 'outside-only',
    url: 'https://webview.test/',
  });
  const posted: unknown[] = [];
  let state: unknown;
  const w = dom.window as unknown as Record<string, unknown> & { eval(s: string): unknown };
  w.acquireVsCodeApi = () => ({
    postMessage: (m: unknown) => posted.push(JSON.parse(JSON.stringify(m))),
    getState: () => state,
    setState: (s: unknown) => {
      state = s;
    },
  });
  w.eval(readFileSync(join(ROOT, 'dist', 'webview.js'), 'utf8'));
  const send = (data: unknown) => dom.window.dispatchEvent(new dom.window.MessageEvent('message', { data }));
  return { dom, doc: dom.window.document, posted, send, w, state: () => state };
}
