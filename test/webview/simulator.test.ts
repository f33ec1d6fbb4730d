/**
 * The preview's simulator in the page (dist/webview.js in jsdom): it starts from the code's own
 * status and an empty body; what is typed in it survives re-renders of that code; sample fields post
 * as you type and keep the focus, caret and text across the render each keystroke brings.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { docOf, newService, yamlDoc } from '../service/helpers';
import { page } from './pageHarness';

const s = newService();
const adapter = docOf(
  yamlDoc(
    'error_codes:',
    '  NOT_FOUND_REPO:',
    '    category: NOT_FOUND',
    '    message_template: "Repository \'{owner}/{repo}\' not found"',
    '    maps_from_http: [404]',
    '    details: { owner: string, repo: string }',
    '  CONFLICT_STATE:',
    '    category: CONFLICT',
    '    message_template: "Conflict"',
  ),
);
const render = (p: ReturnType<typeof page>, code: string, samples?: Record<string, unknown>) =>
  p.send({
    kind: 'render',
    uri: 'file:///x-adapter.md',
    file: 'x-adapter.md',
    preview: s.preview(adapter, { code, samples })!,
    mirror: false,
  });
const field = (p: ReturnType<typeof page>, id: string) => p.doc.getElementById(id) as HTMLInputElement | HTMLTextAreaElement;

test("the simulator starts from the code's own status and an empty body, not a sample of another adapter", () => {
  const p = page();
  render(p, 'NOT_FOUND_REPO');
  assert.equal(field(p, 'sim-status').value, '404');
  assert.equal(field(p, 'sim-body').value, '');
  assert.equal(field(p, 'sim-headers').value, '');
  assert.doesNotMatch(p.doc.body.textContent!, /abuse/i);
  render(p, 'CONFLICT_STATE');
  assert.equal(field(p, 'sim-status').value, '409', "another code: its category's status");
});

test('what is typed in the simulator stays through re-renders of the same code, and another code starts afresh', () => {
  const p = page();
  render(p, 'NOT_FOUND_REPO');
  const input = (id: string, v: string) => {
    field(p, id).value = v;
    field(p, id).dispatchEvent(new p.dom.window.Event('input'));
  };
  input('sim-status', '410');
  input('sim-body', '{"message": "gone"}');
  render(p, 'NOT_FOUND_REPO', { owner: 'o' }); // a sample edit re-renders the page
  assert.equal(field(p, 'sim-status').value, '410');
  assert.equal(field(p, 'sim-body').value, '{"message": "gone"}');
  (p.doc.getElementById('sim-run') as HTMLButtonElement).click();
  assert.deepEqual(p.posted.at(-1), { kind: 'simulate', status: 410, body: '{"message": "gone"}', headers: '' });
  render(p, 'CONFLICT_STATE');
  assert.equal(field(p, 'sim-status').value, '409');
  assert.equal(field(p, 'sim-body').value, '');
});

test('an empty or impossible status says so instead of posting nothing', () => {
  const p = page();
  render(p, 'CONFLICT_STATE');
  const before = p.posted.length;
  for (const v of ['', '42', '4.5']) {
    field(p, 'sim-status').value = v;
    (p.doc.getElementById('sim-run') as HTMLButtonElement).click();
    assert.equal(p.posted.length, before, v);
    assert.equal(p.doc.querySelector('#simulation p.error')!.textContent, 'Enter the upstream HTTP status: an integer from 100 to 599.');
  }
});

test('a sample field posts on every keystroke and keeps focus, caret and newer text across the render that follows', () => {
  const p = page();
  render(p, 'NOT_FOUND_REPO');
  const owner = () => p.doc.querySelector('input[data-key="owner"]') as HTMLInputElement;
  owner().focus();
  owner().value = 'oc';
  owner().setSelectionRange(1, 1);
  owner().dispatchEvent(new p.dom.window.Event('input'));
  assert.deepEqual(p.posted.at(-1), { kind: 'setSample', key: 'owner', value: 'oc' });
  // The host answers with a render for an earlier keystroke ('o') while 'oc' is in the field.
  render(p, 'NOT_FOUND_REPO', { owner: 'o' });
  assert.equal(p.doc.activeElement, owner(), 'the new field has the focus');
  assert.equal(owner().value, 'oc', 'the text typed since is kept');
  assert.deepEqual([owner().selectionStart, owner().selectionEnd], [1, 1]);
  render(p, 'NOT_FOUND_REPO', { owner: 'oc' });
  assert.match(p.doc.getElementById('message')!.textContent!, /Repository 'oc\//);
});
