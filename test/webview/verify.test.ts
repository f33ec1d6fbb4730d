/** The preview page's "Verify a response" section (dist/webview.js in jsdom): typed messages, hostile strings as text. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { parseFromWebview } from '../../client/src/preview/messages';
import { page } from './pageHarness';

const HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';

const diag = (line: number, character: number, severity: number, code: string, message: string) => ({
  range: { start: { line, character }, end: { line, character: character + 1 } },
  severity,
  code,
  source: 'mcp-aql',
  message,
});

test('the verify form posts the pasted text, keeps it in the page state, and renders the verdict as text', () => {
  const p = page();
  p.send({ kind: 'registry', reason: 'no code here', codes: [] });
  const text = p.doc.getElementById('verify-text') as HTMLTextAreaElement;
  assert.ok(text, 'the form is there even when the cursor is on no code');
  text.value = '{"success": false}';
  (p.doc.getElementById('verify-run') as HTMLButtonElement).click();
  assert.deepEqual(p.posted.at(-1), { kind: 'verify', text: '{"success": false}' });
  assert.equal((p.state() as { verifyText: string }).verifyText, '{"success": false}');
  p.send({
    kind: 'verification',
    result: {
      records: 2,
      adapters: ['file:///ws/shop.adapter.yaml'],
      diagnostics: [
        diag(0, 7, 1, 'verify.envelope-shape', `'error' is missing ${HOSTILE}`),
        diag(1, 40, 2, 'verify.message-mismatch', 'The message diverges at column 7'),
      ],
    },
  });
  const v = p.doc.getElementById('verification')!;
  assert.equal(v.querySelector('.verdict')!.textContent, '✗ 2 problems (1 error) in 2 records, against shop.adapter.yaml.');
  assert.deepEqual(
    [...v.querySelectorAll('li')].map(li => li.textContent),
    [
      `1:8 error 'error' is missing ${HOSTILE} verify.envelope-shape`,
      '2:41 warning The message diverges at column 7 verify.message-mismatch',
    ],
  );
  assert.equal(p.doc.querySelectorAll('img, script').length, 0);
  assert.equal(p.w.__pwned, undefined);
  p.send({ kind: 'verification', result: { records: 1, adapters: [], diagnostics: [] } });
  assert.equal(v.querySelector('.verdict')!.textContent, '✓ No problems: 1 record checked against the registry only.');
  p.send({ kind: 'verification', result: null, error: 'server restarting' });
  assert.equal(v.textContent, 'server restarting');
  // Rebuilt from the state after a re-render.
  p.send({ kind: 'registry', reason: 'again', codes: [] });
  assert.equal((p.doc.getElementById('verify-text') as HTMLTextAreaElement).value, '{"success": false}');
});

test('the host accepts a verify message only with a string of bounded size', () => {
  assert.deepEqual(parseFromWebview({ kind: 'verify', text: '{}' }), { kind: 'verify', text: '{}' });
  assert.equal(parseFromWebview({ kind: 'verify', text: 42 }), undefined);
  assert.equal(parseFromWebview({ kind: 'verify', text: 'x'.repeat(4_000_001) }), undefined);
});
