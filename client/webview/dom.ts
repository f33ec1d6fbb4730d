// The page's shared DOM helpers: what every part of the page is given (Env, the state VS Code keeps
// for it) and `el`, the one way the page makes elements (createElement and text nodes, never HTML).
import type { FromWebview } from '../src/preview/messages';

export interface PageState {
  tab?: string;
  /** Which code (uri#code) the simulator fields were typed for: another code starts afresh. */
  simFor?: string;
  simStatus?: string;
  simBody?: string;
  simHeaders?: string;
  filter?: string;
  verifyText?: string;
}

export interface Env {
  readonly doc: Document;
  post(m: FromWebview): void;
  state(): PageState;
  setState(s: PageState): void;
}

export function el<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const e = doc.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) e.append(typeof c === 'string' ? doc.createTextNode(c) : c);
  return e;
}
