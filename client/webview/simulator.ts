// The simulator's form: an upstream status, body and headers, posted as `simulate`.
import { el, type Env } from './dom';

/**
 * Starts from the code's own status (`simulateStatus`) and an empty body and headers; what the user
 * types is kept in the page state for this code (`forKey`: uri#code) until another code is shown.
 */
export function simulatorForm(env: Env, forKey: string, simulateStatus: number | undefined): HTMLElement {
  const { doc } = env;
  const s = env.state().simFor === forKey ? env.state() : {};
  const status = el(doc, 'input', { type: 'number', min: '100', max: '599', id: 'sim-status', 'aria-label': 'upstream status' });
  status.value = s.simStatus ?? (simulateStatus !== undefined ? String(simulateStatus) : '');
  const body = el(doc, 'textarea', {
    id: 'sim-body',
    rows: '3',
    'aria-label': 'upstream JSON body',
    placeholder: '{"message": "…"} — empty for no body',
  });
  body.value = s.simBody ?? '';
  const headers = el(doc, 'textarea', {
    id: 'sim-headers',
    rows: '2',
    'aria-label': 'upstream headers as JSON',
    placeholder: '{"Retry-After": "30"} — empty for none',
  });
  headers.value = s.simHeaders ?? '';
  const keep = () =>
    env.setState({ ...env.state(), simFor: forKey, simStatus: status.value, simBody: body.value, simHeaders: headers.value });
  for (const f of [status, body, headers]) f.addEventListener('input', keep);
  const run = el(doc, 'button', { type: 'button', id: 'sim-run' }, 'Simulate');
  run.addEventListener('click', () => {
    keep();
    const n = Number(status.value);
    if (!status.value.trim() || !Number.isInteger(n) || n < 100 || n > 599) {
      const out = doc.getElementById('simulation');
      out?.replaceChildren(el(doc, 'p', { class: 'error' }, 'Enter the upstream HTTP status: an integer from 100 to 599.'));
      return;
    }
    env.post({ kind: 'simulate', status: Number(status.value), body: body.value, headers: headers.value });
  });
  return el(
    doc,
    'section',
    { class: 'simulator' },
    el(doc, 'h3', {}, 'Simulate upstream response'),
    el(doc, 'label', {}, 'Status ', status),
    el(doc, 'label', {}, 'Body (JSON)', body),
    el(doc, 'label', {}, 'Headers (JSON)', headers),
    run,
  );
}
