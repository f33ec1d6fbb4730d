/**
 * The preview page (dist/webview.js) in a real DOM (jsdom): hostile strings in codes, templates, details
 * and bodies show as text and run nothing; the page speaks the typed protocol.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { docOf, newService, yamlDoc } from '../service/helpers';
import { parseFromWebview } from '../../client/src/preview/messages';
import { page } from './pageHarness';

const ROOT = join(__dirname, '..', '..');
const HOSTILE = '<img src=x onerror="window.__pwned=1"></script><script>window.__pwned=2</script>';

function hostilePreview() {
  const s = newService();
  const doc = docOf(
    yamlDoc(
      'error_codes:',
      '  VALIDATION_X:',
      '    category: VALIDATION',
      `    message_template: "Bad '{field}' ${HOSTILE.replace(/"/g, '\\"')}"`,
      '    details: { field: string }',
    ),
  );
  return s.preview(doc, { code: 'VALIDATION_X', samples: { field: HOSTILE } })!;
}

test('the page says ready, then renders a preview with every string as text', () => {
  const p = page();
  assert.deepEqual(p.posted[0], { kind: 'ready' });
  const preview = hostilePreview();
  p.send({ kind: 'render', uri: 'file:///x', file: `${HOSTILE}.adapter.yaml`, preview, mirror: false });
  assert.equal(p.doc.querySelector('.code')!.textContent, 'VALIDATION_X');
  assert.ok(p.doc.getElementById('message')!.textContent!.includes(HOSTILE));
  assert.equal(p.doc.querySelectorAll('img').length, 0);
  assert.equal(p.doc.querySelectorAll('script').length, 0);
  assert.equal(p.w.__pwned, undefined);
  const input = p.doc.querySelector('input[data-key="field"]') as HTMLInputElement;
  assert.equal(input.value, HOSTILE);
  assert.equal(p.doc.querySelectorAll('.tabs button').length, 4);
  assert.match(p.doc.querySelector('pre.envelope')!.textContent!, /"success": false/);
});

test('editing a sample, switching tabs, copying and simulating post typed messages; state survives', () => {
  const p = page();
  p.send({ kind: 'render', uri: 'file:///x', file: 'x.adapter.yaml', preview: hostilePreview(), mirror: false });
  const input = p.doc.querySelector('input[data-key="field"]') as HTMLInputElement;
  input.value = 'owner';
  input.dispatchEvent(new p.dom.window.Event('input'));
  assert.deepEqual(p.posted.at(-1), { kind: 'setSample', key: 'field', value: 'owner' });
  (p.doc.querySelector('.tabs button[data-id="json-rpc"]') as HTMLButtonElement).click();
  assert.equal((p.state() as { tab: string }).tab, 'json-rpc');
  assert.equal(p.doc.querySelector('pre.envelope')!.getAttribute('data-dialect'), 'json-rpc');
  (p.doc.querySelector('button.copy') as HTMLButtonElement).click();
  assert.equal((p.posted.at(-1) as { kind: string }).kind, 'copy');
  (p.doc.getElementById('sim-body') as HTMLTextAreaElement).value = `{"message": "${HOSTILE.replace(/"/g, '\\"')}"}`;
  (p.doc.getElementById('sim-run') as HTMLButtonElement).click();
  assert.deepEqual(Object.keys(p.posted.at(-1) as object), ['kind', 'status', 'body', 'headers']);
});

test('the dialect tabs are accessible: tablist, tabs with aria-selected/aria-controls and a roving tabindex, arrow keys move', () => {
  const p = page();
  p.send({ kind: 'render', uri: 'file:///x', file: 'x.adapter.yaml', preview: hostilePreview(), mirror: false });
  const list = p.doc.querySelector('#preview-dialects [role="tablist"]') as HTMLElement;
  assert.equal(list.getAttribute('aria-label'), 'Envelope dialects');
  const tabs = Array.from(list.querySelectorAll('[role="tab"]')) as HTMLButtonElement[];
  const panel = p.doc.querySelector('#preview-dialects [role="tabpanel"]') as HTMLElement;
  assert.deepEqual(
    tabs.map(t => t.dataset.id),
    ['mcp-aql', 'mcp-tool-result', 'json-rpc', 'atlas-gate'],
  );
  const state = () => tabs.map(t => [t.getAttribute('aria-selected'), t.tabIndex]);
  assert.deepEqual(state(), [
    ['true', 0],
    ['false', -1],
    ['false', -1],
    ['false', -1],
  ]);
  for (const t of tabs) assert.equal(t.getAttribute('aria-controls'), panel.id);
  assert.equal(panel.getAttribute('aria-labelledby'), tabs[0]!.id);
  assert.equal(panel.tabIndex, 0);
  const key = (k: string) => list.dispatchEvent(new p.dom.window.KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));
  tabs[0]!.focus();
  assert.equal(key('ArrowRight'), false, 'the arrow key is consumed');
  assert.deepEqual(state(), [
    ['false', -1],
    ['true', 0],
    ['false', -1],
    ['false', -1],
  ]);
  assert.equal(p.doc.activeElement, tabs[1]);
  assert.equal(panel.getAttribute('aria-labelledby'), tabs[1]!.id);
  assert.equal(p.doc.querySelector('pre.envelope')!.getAttribute('data-dialect'), 'mcp-tool-result');
  key('ArrowLeft');
  key('ArrowLeft');
  assert.equal(p.doc.activeElement, tabs[3], 'Left wraps from the first tab to the last');
  key('Home');
  assert.equal(p.doc.activeElement, tabs[0]);
  key('End');
  assert.equal(p.doc.activeElement, tabs[3]);
  assert.equal((p.state() as { tab: string }).tab, 'atlas-gate');
  assert.equal(key('a'), true, 'other keys are left alone');
  assert.equal(p.doc.activeElement, tabs[3]);
});

test('a simulation result with hostile body text renders as text and runs nothing', () => {
  const p = page();
  p.send({ kind: 'render', uri: 'file:///x', file: 'x', preview: hostilePreview(), mirror: false });
  const s = newService();
  const d = docOf(
    yamlDoc('error_mapping:', '  403:', '    code: PERMISSION_DENIED', '    message_template: "Permission denied: \'{reason}\'"'),
  );
  const result = s.simulate(d, { status: 403, body: { reason: HOSTILE } });
  p.send({ kind: 'simulation', result });
  assert.match(p.doc.querySelector('.fired')!.textContent!, /Upstream 403 → PERMISSION_DENIED \(rule: error_mapping\[403\]\)/);
  assert.ok(p.doc.getElementById('simulation')!.textContent!.includes(HOSTILE));
  assert.equal(p.doc.querySelectorAll('img, script').length, 0);
  assert.equal(p.w.__pwned, undefined);
});

test('registry browser when the cursor is on no code; unknown or malformed messages are ignored', () => {
  const p = page();
  p.send({
    kind: 'registry',
    reason: 'pick one',
    codes: [{ code: 'NOT_FOUND_RESOURCE', category: 'NOT_FOUND', kind: 'error', template: HOSTILE }],
  });
  const b = p.doc.querySelector('ul.registry button') as HTMLButtonElement;
  assert.equal(b.textContent, 'NOT_FOUND_RESOURCE');
  b.click();
  assert.deepEqual(p.posted.at(-1), { kind: 'reveal', code: 'NOT_FOUND_RESOURCE' });
  const before = p.doc.body.innerHTML;
  p.send({ kind: 'evil', html: HOSTILE });
  p.send('<img src=x onerror=alert(1)>');
  p.send(null);
  assert.equal(p.doc.body.innerHTML, before);
  assert.equal(p.doc.querySelectorAll('img').length, 0);
});

test('host-side validation of page messages (parseFromWebview)', () => {
  assert.deepEqual(parseFromWebview({ kind: 'setSample', key: 'field', value: 'x' }), { kind: 'setSample', key: 'field', value: 'x' });
  assert.equal(parseFromWebview({ kind: 'setSample', key: 'a b', value: 'x' }), undefined);
  assert.equal(parseFromWebview({ kind: 'simulate', status: 99, body: '', headers: '' }), undefined);
  assert.equal(parseFromWebview({ kind: 'reveal', code: '<script>' }), undefined);
  assert.equal(parseFromWebview({ kind: 'run', cmd: 'rm -rf' }), undefined);
  assert.equal(parseFromWebview('ready'), undefined);
});

test('the HTML shell: CSP default-src none, script by nonce, no inline handlers', () => {
  const src = readFileSync(join(ROOT, 'client/src/preview/html.ts'), 'utf8');
  assert.match(src, /default-src 'none'/);
  assert.match(src, /script-src 'nonce-\$\{nonce\}'/);
  assert.doesNotMatch(src, /\son[a-z]+=/i);
  const render = ['render', 'main', 'simulator', 'verify'].map(f => readFileSync(join(ROOT, `client/webview/${f}.ts`), 'utf8')).join('\n');
  assert.doesNotMatch(render, /innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(/);
});

test('a sample value that does not fit its declared type is shown on its field and in the verdict', () => {
  const p = page();
  const doc = docOf(
    yamlDoc(
      'error_codes:',
      '  VALIDATION_QTY:',
      '    category: VALIDATION',
      '    message_template: "Bad \'{qty}\'"',
      '    details: { qty: integer }',
    ),
  );
  const preview = newService().preview(doc, { code: 'VALIDATION_QTY', samples: { qty: 'abc' } })!;
  p.send({ kind: 'render', uri: 'file:///x', file: 'x.adapter.yaml', preview, mirror: false });
  const cell = (p.doc.querySelector('input[data-key="qty"]') as HTMLInputElement).parentElement!;
  assert.equal(cell.querySelector('p.error')!.textContent, 'qty is declared integer: "abc" is not an integer');
  assert.match(p.doc.querySelector('.verdict')!.textContent!, /invalid/);
  assert.ok(
    [...p.doc.querySelectorAll('p.error')].some(e => e.textContent === 'details.qty: qty is declared integer: "abc" is not an integer'),
  );
});
