// "Verify a response": paste a recorded response (envelope, tool result, JSON-RPC, or JSON Lines), see
// the verdict against the adapter's contract. DOM only; every string from data goes in as text.
import type { ToWebview } from '../src/preview/messages';
import { el, type Env } from './dom';

type Verification = Extract<ToWebview, { kind: 'verification' }>;
const SEVERITY = ['', 'error', 'warning', 'info', 'hint'];

export function verifyForm(env: Env): HTMLElement {
  const { doc } = env;
  const text = el(doc, 'textarea', {
    id: 'verify-text',
    rows: '4',
    'aria-label': 'recorded response (JSON or JSON Lines)',
    placeholder: '{"success": false, "error": {"code": "…", "message": "…", "details": {}}}',
  });
  text.value = env.state().verifyText ?? '';
  const run = el(doc, 'button', { type: 'button', id: 'verify-run' }, 'Verify');
  run.addEventListener('click', () => {
    env.setState({ ...env.state(), verifyText: text.value });
    env.post({ kind: 'verify', text: text.value });
  });
  return el(
    doc,
    'section',
    { class: 'verify' },
    el(doc, 'h3', {}, 'Verify a response'),
    el(doc, 'label', {}, 'Recorded response: an envelope, a tool result, a JSON-RPC response, or several, one a line', text),
    run,
    el(doc, 'section', { id: 'verification', 'aria-live': 'polite' }),
  );
}

export function renderVerification(env: Env, root: HTMLElement, m: Verification): void {
  const { doc } = env;
  const target = root.querySelector('#verification') ?? root.appendChild(el(doc, 'section', { id: 'verification' }));
  target.replaceChildren();
  if (!m.result) {
    target.append(el(doc, 'p', { class: 'error' }, m.error ?? 'The verification failed.'));
    return;
  }
  const r = m.result;
  const against = r.adapters.length ? r.adapters.map(u => String(u).split('/').pop()).join(', ') : 'the registry only';
  const records = `${r.records} record${r.records === 1 ? '' : 's'}`;
  if (!r.diagnostics.length) {
    target.append(el(doc, 'p', { class: 'verdict ok' }, `✓ No problems: ${records} checked against ${against}.`));
    return;
  }
  const errors = r.diagnostics.filter(d => (d.severity ?? 1) === 1).length;
  target.append(
    el(
      doc,
      'p',
      { class: `verdict ${errors ? 'error' : 'warn'}` },
      `${errors ? '✗' : '!'} ${r.diagnostics.length} problem${r.diagnostics.length === 1 ? '' : 's'} (${errors} error${errors === 1 ? '' : 's'}) in ${records}, against ${against}.`,
    ),
  );
  target.append(
    el(
      doc,
      'ul',
      { class: 'problems' },
      ...r.diagnostics.map(d =>
        el(
          doc,
          'li',
          { class: `sev-${SEVERITY[d.severity ?? 1] ?? 'error'}` },
          el(doc, 'span', { class: 'muted' }, `${d.range.start.line + 1}:${d.range.start.character + 1} `),
          el(doc, 'strong', {}, SEVERITY[d.severity ?? 1] ?? 'error'),
          ` ${typeof d.message === 'string' ? d.message : d.message.value} `,
          el(doc, 'span', { class: 'muted' }, String(d.code ?? '')),
        ),
      ),
    ),
  );
}
