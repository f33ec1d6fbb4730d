/** The client's pure part of Compare Contract (docs/contract-diff.md): which diagnostics, the revision typed, the report's address. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { breakingByFile, reportPath, revisionOf } from '../../client/src/contractDiff/diffDiagnostics';
import type { CompareContractResult } from '../../server/src/protocol';

const r = (line: number) => ({ start: { line, character: 2 }, end: { line, character: 9 } });

test('each breaking change with a place becomes a diagnostic on its range, grouped by file; the others do not', () => {
  const result: CompareContractResult = {
    title: 'main → working tree',
    markdown: '',
    changes: [
      { rule: 'code.removed', severity: 'breaking', message: 'NOT_FOUND_X was removed', uri: 'file:///w/a.adapter.yaml', range: r(0) },
      { rule: 'mapping.status-added', severity: 'dangerous', message: 'shop: …', uri: 'file:///w/a.adapter.yaml', range: r(3) },
      { rule: 'code.added', severity: 'safe', message: 'Y was added', uri: 'file:///w/b.adapter.yaml', range: r(1) },
      { rule: 'adapter.removed', severity: 'breaking', message: "adapter 'gone' was removed" },
      {
        rule: 'details.key-removed',
        severity: 'breaking',
        message: 'Z details.k was removed',
        uri: 'file:///w/b.adapter.yaml',
        range: r(7),
      },
      {
        rule: 'details.type-changed',
        severity: 'breaking',
        message: 'T details.n: type string → integer',
        uri: 'file:///w/a.adapter.yaml',
        range: r(12),
      },
    ],
  };
  assert.deepEqual(
    [...breakingByFile(result)],
    [
      [
        'file:///w/a.adapter.yaml',
        [
          { range: r(0), message: 'Breaking change since main: NOT_FOUND_X was removed', code: 'code.removed' },
          { range: r(12), message: 'Breaking change since main: T details.n: type string → integer', code: 'details.type-changed' },
        ],
      ],
      [
        'file:///w/b.adapter.yaml',
        [{ range: r(7), message: 'Breaking change since main: Z details.k was removed', code: 'details.key-removed' }],
      ],
    ],
  );
});

test('the revision: default HEAD, trimmed; cancelled is nothing; option-like or spaced input is refused before git sees it', () => {
  assert.equal(revisionOf(undefined), undefined);
  assert.deepEqual(revisionOf(''), { revision: 'HEAD' });
  assert.deepEqual(revisionOf('  main '), { revision: 'main' });
  assert.deepEqual(revisionOf('--output=x'), { error: "'--output=x' is not a git revision" });
  assert.deepEqual(revisionOf('main; rm -rf /'), { error: "'main; rm -rf /' is not a git revision" });
  assert.equal(reportPath('origin/main'), '/contract-diff-origin%2Fmain.md');
});
