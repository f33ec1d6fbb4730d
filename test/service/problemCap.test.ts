/**
 * The per-file problem cap (ServiceOptions.maxProblems, default 1,000) never hides an
 * error behind problems of lower severity: when it cuts, errors are kept first, then warnings, then the
 * rest; what is kept is in position order. Fix all is never cut short by it.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { infosThenError, newService } from './helpers';

test('the cap keeps the error below 1,001 information problems (and says nothing else changed)', () => {
  const doc = TextDocument.create('file:///cap.adapter.yaml', 'yaml', 1, infosThenError(1001));
  const s = newService();
  const all = s.validate(doc, { maxProblems: Infinity });
  assert.equal(all.length, 1002);
  assert.equal(all.filter(d => d.severity === 1).length, 1);
  const capped = s.validate(doc, {});
  assert.equal(capped.length, 1000);
  assert.deepEqual(
    capped.filter(d => d.severity === 1).map(d => [d.code, d.range.start.line]),
    [['mapping.unknown-code', 5 * 1001 + 3]],
  );
  const lines = capped.map(d => d.range.start.line);
  assert.deepEqual(
    lines,
    [...lines].sort((a, b) => a - b),
    'kept problems stay in position order',
  );
  assert.equal(capped.filter(d => d.severity === 3).length, 999);
  const three = s.validate(doc, { maxProblems: 3 });
  assert.deepEqual(
    three.map(d => [d.severity, d.range.start.line]),
    [
      [3, 3],
      [3, 8],
      [1, 5008],
    ],
  );
});

test('fix all fixes every safe problem, past the cap', () => {
  const doc = TextDocument.create('file:///fix.adapter.yaml', 'yaml', 1, infosThenError(1200));
  assert.equal(newService().fixAll(doc, {}).length, 1200);
});
