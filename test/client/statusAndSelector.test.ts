/** The language status text and the client's document selector (pure pieces of client/src). */
import test from 'node:test';
import assert from 'node:assert/strict';
import { documentSelector, uncoveredPatterns } from '../../client/src/selector';
import { statusText, workspaceSummary } from '../../client/src/statusText';

test('the language status says what it counts, in words', () => {
  assert.deepEqual(statusText({ errors: 0, warnings: 0, other: 0 }), {
    text: '$(check) MCP-AQL: no problems',
    detail: 'error contract checked',
    severity: 'information',
  });
  assert.deepEqual(statusText({ errors: 2, warnings: 1, other: 3 }), {
    text: '$(error) MCP-AQL: 2 errors, 1 warning, 3 info/hint',
    detail: 'in this adapter file',
    severity: 'error',
  });
  assert.deepEqual(statusText({ errors: 1, warnings: 0, other: 0 }).text, '$(error) MCP-AQL: 1 error');
  assert.deepEqual(statusText({ errors: 0, warnings: 2, other: 0 }), {
    text: '$(warning) MCP-AQL: 2 warnings',
    detail: 'in this adapter file',
    severity: 'warning',
  });
  assert.deepEqual(statusText({ errors: 0, warnings: 0, other: 1 }).severity, 'information');
});

test('the selector sends YAML, JSON and Markdown of any name, so mcpAql.files globs on them need no restart', () => {
  assert.deepEqual(uncoveredPatterns(['**/errors.md', 'contracts/*.yml', '**/*.adapter.json', '**/*.{yml,txt}', 'specs/errors.*']), [
    '**/*.{yml,txt}',
    'specs/errors.*',
  ]);
  assert.deepEqual(documentSelector(['**/errors.md', 'x/*.txt']), [
    { scheme: 'file', language: 'yaml' },
    { scheme: 'file', language: 'json' },
    { scheme: 'file', language: 'markdown' },
    { scheme: 'untitled', language: 'yaml' },
    { scheme: 'untitled', language: 'json' },
    { scheme: 'file', pattern: 'x/*.txt' },
  ]);
});

test('Validate Workspace says "1 problem" / "2 problems" and "1 adapter file" / "3 adapter files"', () => {
  const f = (...counts: number[]) => counts.map(k => ({ diagnostics: Array.from({ length: k }) }));
  assert.equal(workspaceSummary({ files: 1, problems: f(1) }), 'MCP-AQL: 1 problem in 1 of 1 adapter file.');
  assert.equal(workspaceSummary({ files: 3, problems: f(1, 1) }), 'MCP-AQL: 2 problems in 2 of 3 adapter files.');
  assert.equal(workspaceSummary({ files: 0, problems: [] }), 'MCP-AQL: no problems in 0 adapter files.');
  assert.equal(workspaceSummary({ files: 2, problems: [] }), 'MCP-AQL: no problems in 2 adapter files.');
  assert.equal(
    workspaceSummary({ files: 5, problems: f(3), cancelled: true }),
    'MCP-AQL: 3 problems in 1 of 5 adapter files. Cancelled: not every file was checked.',
  );
});
