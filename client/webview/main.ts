// The preview page: receives typed messages from the host, renders with the DOM, keeps a small state.
import type { FromWebview, ToWebview } from '../src/preview/messages';
import type { Env, PageState } from './dom';
import { renderEmpty, renderPreview, renderRegistry, renderSimulation } from './render';
import { renderVerification } from './verify';

declare function acquireVsCodeApi(): { postMessage(m: FromWebview): void; getState(): PageState | undefined; setState(s: PageState): void };

const api = acquireVsCodeApi();
const root = document.getElementById('app') ?? document.body.appendChild(document.createElement('main'));
const env: Env = {
  doc: document,
  post: m => api.postMessage(m),
  state: () => api.getState() ?? {},
  setState: s => api.setState(s),
};

const KINDS = new Set(['render', 'simulation', 'registry', 'empty', 'verification']);

window.addEventListener('message', (e: MessageEvent<unknown>) => {
  const m = e.data as ToWebview;
  if (!m || typeof m !== 'object' || !KINDS.has((m as { kind?: string }).kind ?? '')) return;
  switch (m.kind) {
    case 'render':
      if (m.preview && Array.isArray(m.preview.dialects)) renderPreview(env, root, m);
      break;
    case 'simulation':
      renderSimulation(env, root, m.result, m.error);
      break;
    case 'registry':
      if (Array.isArray(m.codes)) renderRegistry(env, root, String(m.reason), m.codes);
      break;
    case 'empty':
      renderEmpty(document, root, String(m.reason));
      break;
    case 'verification':
      renderVerification(env, root, m);
      break;
  }
});

renderEmpty(document, root, 'Move the cursor onto an error code of an adapter file.');
api.postMessage({ kind: 'ready' });
