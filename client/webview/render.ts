// Pure DOM rendering for the preview page: createElement and textContent only; no HTML strings from data.
import type { RegistryEntry, ToWebview } from '../src/preview/messages';
import { simulatorForm } from './simulator';
import { verifyForm } from './verify';
import { el, type Env } from './dom';

type Preview = Extract<ToWebview, { kind: 'render' }>['preview'];
type Simulation = NonNullable<Extract<ToWebview, { kind: 'simulation' }>['result']>;

const json = (v: unknown) => JSON.stringify(v, null, 2);

export function renderPreview(env: Env, root: HTMLElement, m: Extract<ToWebview, { kind: 'render' }>): void {
  const { doc } = env;
  const p = m.preview;
  const focus = focusOf(doc, root);
  root.replaceChildren();
  const head = el(
    doc,
    'header',
    { class: 'head' },
    el(doc, 'h2', { class: 'code' }, p.code),
    el(doc, 'span', { class: `badge kind-${p.kind}` }, p.kind === 'warning' ? 'warning' : 'error'),
    el(doc, 'span', { class: 'badge' }, p.category ?? 'no category'),
    el(doc, 'span', { class: 'badge' }, p.httpStatus.length ? `HTTP ${p.httpStatus.join(', ')}` : 'no HTTP status'),
    ...(p.retry
      ? [el(doc, 'span', { class: 'badge', title: p.retryDeclared ? 'retry: as declared' : "retry: the category's default" }, p.retry)]
      : []),
    el(doc, 'span', { class: 'muted' }, `${p.source} · ${m.file}`),
  );
  root.append(head, el(doc, 'p', { class: 'message', id: 'message' }, p.message));
  if (p.notes.length) root.append(el(doc, 'ul', { class: 'notes' }, ...p.notes.map(n => el(doc, 'li', {}, n))));
  root.append(detailsForm(env, p, m.mirror));
  root.append(dialectTabs(env, p.dialects, 'preview'));
  root.append(simulatorForm(env, `${m.uri}#${p.code}`, p.simulateStatus));
  root.append(el(doc, 'section', { id: 'simulation' }));
  root.append(verifyForm(env));
  focus?.();
}

/**
 * The field being typed in, so a render (one follows every keystroke in a sample) puts the focus, the
 * caret and the text typed since back into the new field of the same name.
 */
function focusOf(doc: Document, root: HTMLElement): (() => void) | undefined {
  const fields = () => Array.from(root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea'));
  const a = fields().find(f => f === doc.activeElement);
  const name = a && (a.dataset.key !== undefined ? `key:${a.dataset.key}` : a.id ? `id:${a.id}` : undefined);
  if (!a || !name) return undefined;
  const { value, selectionStart, selectionEnd } = a;
  return () => {
    const b = fields().find(f => (f.dataset.key !== undefined ? `key:${f.dataset.key}` : `id:${f.id}`) === name);
    if (!b) return;
    b.value = value;
    b.focus();
    if (selectionStart !== null && b.type !== 'number') b.setSelectionRange(selectionStart, selectionEnd);
  };
}

function detailsForm(env: Env, p: Preview, mirror: boolean): HTMLElement {
  const { doc } = env;
  const rows = p.details.map(d => {
    const input = el(doc, 'input', { type: 'text', 'aria-label': `sample value of ${d.name}`, 'data-key': d.name });
    input.value = typeof d.value === 'string' ? d.value : (JSON.stringify(d.value) ?? '');
    // As you type: each change re-renders the envelope (renderPreview keeps the focus and caret here).
    input.addEventListener('input', () => env.post({ kind: 'setSample', key: d.name, value: input.value }));
    const cell = d.problem ? el(doc, 'td', {}, input, el(doc, 'p', { class: 'error' }, d.problem)) : el(doc, 'td', {}, input);
    return el(
      doc,
      'tr',
      {},
      el(doc, 'td', { class: 'key' }, d.name),
      el(doc, 'td', { class: 'muted' }, `${d.type}${d.required ? '' : '?'}`),
      cell,
    );
  });
  const section = el(doc, 'section', { class: 'details' }, el(doc, 'h3', {}, 'Sample details'));
  if (rows.length) section.append(el(doc, 'table', {}, ...rows));
  else section.append(el(doc, 'p', { class: 'muted' }, 'This code declares no details.'));
  const reset = el(doc, 'button', { type: 'button' }, 'Reset samples');
  reset.addEventListener('click', () => env.post({ kind: 'resetSamples' }));
  section.append(reset);
  if (p.details.some(d => d.name === 'confirmation_token')) {
    const box = el(doc, 'input', { type: 'checkbox', id: 'mirror' });
    box.checked = mirror;
    box.addEventListener('change', () => env.post({ kind: 'toggleMirror', on: box.checked }));
    section.append(el(doc, 'label', { class: 'toggle' }, box, ' Mirror confirmation at the top level'));
  }
  return section;
}

/**
 * The dialects as an accessible tab set (WAI-ARIA tabs pattern): a labelled tablist, one tab per
 * dialect with aria-selected / aria-controls and a roving tabindex, one tabpanel labelled by the
 * selected tab; Left/Right (wrapping), Home and End move the selection and the focus.
 */
function dialectTabs(env: Env, dialects: Preview['dialects'], idPrefix: string): HTMLElement {
  const { doc } = env;
  const section = el(doc, 'section', { class: 'dialects', id: `${idPrefix}-dialects` });
  const bar = el(doc, 'div', { class: 'tabs', role: 'tablist', 'aria-label': 'Envelope dialects' });
  const panelId = `${idPrefix}-panel`;
  const panel = el(doc, 'div', { class: 'panel', role: 'tabpanel', id: panelId, tabindex: '0' });
  const tabs: HTMLButtonElement[] = [];
  const show = (id: string, focus = false) => {
    const d = dialects.find(x => x.id === id) ?? dialects[0];
    if (!d) return;
    env.setState({ ...env.state(), tab: d.id });
    for (const b of tabs) {
      const on = b.dataset.id === d.id;
      b.setAttribute('aria-selected', String(on));
      b.tabIndex = on ? 0 : -1;
      if (on) {
        panel.setAttribute('aria-labelledby', b.id);
        if (focus) b.focus();
      }
    }
    const text = json(d.envelope);
    const copy = el(doc, 'button', { type: 'button', class: 'copy' }, 'Copy');
    copy.addEventListener('click', () => env.post({ kind: 'copy', text }));
    panel.replaceChildren(
      el(
        doc,
        'div',
        { class: 'verdict' },
        el(doc, 'span', { class: `badge ${d.valid ? 'valid' : 'invalid'}` }, d.valid ? 'valid' : 'invalid'),
        ' ',
        d.channel,
      ),
      ...d.errors.map(e => el(doc, 'p', { class: 'error' }, e)),
      el(doc, 'pre', { class: 'envelope', 'data-dialect': d.id }, text),
      copy,
    );
  };
  for (const d of dialects) {
    const b = el(
      doc,
      'button',
      {
        type: 'button',
        role: 'tab',
        id: `${idPrefix}-tab-${d.id}`,
        'data-id': d.id,
        'aria-controls': panelId,
        'aria-label': `${d.title}, ${d.valid ? 'valid' : 'invalid'}`,
      },
      `${d.title} ${d.valid ? '✓' : '✗'}`,
    );
    b.addEventListener('click', () => show(d.id));
    tabs.push(b);
    bar.append(b);
  }
  bar.addEventListener('keydown', (e: KeyboardEvent) => {
    const at = tabs.findIndex(b => b.getAttribute('aria-selected') === 'true');
    const to =
      e.key === 'ArrowRight'
        ? (at + 1) % tabs.length
        : e.key === 'ArrowLeft'
          ? (at - 1 + tabs.length) % tabs.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? tabs.length - 1
              : -1;
    if (to < 0 || !tabs[to]) return;
    e.preventDefault();
    show(tabs[to]!.dataset.id!, true);
  });
  section.append(bar, panel);
  show(env.state().tab ?? 'mcp-aql');
  return section;
}

export function renderSimulation(env: Env, root: HTMLElement, result: Simulation | null, error?: string): void {
  const { doc } = env;
  const target = root.querySelector('#simulation') ?? root.appendChild(el(doc, 'section', { id: 'simulation' }));
  target.replaceChildren();
  if (!result) {
    target.append(el(doc, 'p', { class: 'error' }, error ?? 'The simulation failed.'));
    return;
  }
  target.append(
    el(doc, 'p', { class: 'fired' }, `Upstream ${result.status} → `, el(doc, 'strong', {}, result.code), ` (rule: ${result.rule})`),
  );
  const list = el(doc, 'ol', { class: 'considered' });
  for (const c of result.considered) {
    list.append(
      el(
        doc,
        'li',
        { class: c.matched ? 'matched' : 'skipped' },
        `${c.matched ? '✓' : '✗'} ${c.rule}${c.code ? ` → ${c.code}` : ''}${c.condition ? ` when ${c.condition}` : ''}`,
        ...c.steps.map(st => el(doc, 'div', { class: 'step' }, st)),
        ...(c.error ? [el(doc, 'div', { class: 'error' }, `condition not understood: ${c.error}`)] : []),
      ),
    );
  }
  target.append(list);
  if (result.preview) {
    target.append(el(doc, 'p', { class: 'message' }, result.preview.message));
    target.append(dialectTabs(env, result.preview.dialects, 'simulation'));
  }
}

export function renderRegistry(env: Env, root: HTMLElement, reason: string, codes: readonly RegistryEntry[]): void {
  const { doc } = env;
  root.replaceChildren(el(doc, 'p', { class: 'muted' }, reason));
  const filter = el(doc, 'input', { type: 'search', placeholder: 'Filter codes', 'aria-label': 'filter registry codes' });
  filter.value = env.state().filter ?? '';
  const list = el(doc, 'ul', { class: 'registry' });
  const fill = () => {
    const q = filter.value.toUpperCase();
    env.setState({ ...env.state(), filter: filter.value });
    list.replaceChildren(
      ...codes
        .filter(c => !q || c.code.includes(q) || c.category.includes(q))
        .map(c => {
          const b = el(doc, 'button', { type: 'button', class: 'link' }, c.code);
          b.addEventListener('click', () => env.post({ kind: 'reveal', code: c.code }));
          return el(
            doc,
            'li',
            {},
            b,
            el(doc, 'span', { class: 'muted' }, ` ${c.category} · ${c.kind}${c.template ? ` · ${c.template}` : ''}`),
          );
        }),
    );
  };
  filter.addEventListener('input', fill);
  fill();
  root.append(filter, list, verifyForm(env));
}

export function renderEmpty(doc: Document, root: HTMLElement, reason: string): void {
  root.replaceChildren(el(doc, 'p', { class: 'muted' }, reason));
}
