import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { run, tempTree } from './helpers';

// The second problem's message carries < > & ' " and a control character (the key, unescaped by YAML).
const BAD = 'error_mapping:\n  404:\n    code: NOT_FOUND_REPOSITRY\n  409:\n    code: CONFLICT_ALREADY_EXISTS\n    "a<b>&\'c\\"\\x01": 1\n';

const xml = (text: string) => {
  const doc = new new JSDOM('').window.DOMParser().parseFromString(text, 'application/xml');
  assert.equal(doc.getElementsByTagName('parsererror').length, 0, text);
  return doc;
};

test('junit: one suite per file, one failing case per diagnostic, a passing case for a clean file; well-formed XML', async () => {
  const dir = tempTree({ 'a&b.adapter.yaml': BAD, 'clean.adapter.yaml': 'error_mapping:\n  404:\n    code: NOT_FOUND_RESOURCE\n' });
  const r = await run(['check', '.', '--format', 'junit'], dir);
  assert.equal(r.code, 1);
  const doc = xml(r.out);
  const root = doc.documentElement;
  assert.deepEqual([root.tagName, root.getAttribute('tests'), root.getAttribute('failures')], ['testsuites', '3', '2']);
  const suites = [...doc.getElementsByTagName('testsuite')].map(s => [
    s.getAttribute('name'),
    s.getAttribute('tests'),
    s.getAttribute('failures'),
  ]);
  assert.deepEqual(suites, [
    ['a&b.adapter.yaml', '2', '2'],
    ['clean.adapter.yaml', '1', '0'],
  ]);
  const cases = [...doc.getElementsByTagName('testcase')].map(c => c.getAttribute('name'));
  assert.deepEqual(cases, ['mapping.unknown-code (3:11)', 'schema.unknown-key (6:5)', 'mcp-aql-errors']);
  const f = doc.getElementsByTagName('failure')[0]!;
  assert.equal(f.getAttribute('type'), 'error');
  assert.match(f.textContent!, /^a&b\.adapter\.yaml:3:11 error Did you mean NOT_FOUND_RESOURCE\? 'NOT_FOUND_REPOSITRY' is neither/);
  const g = doc.getElementsByTagName('failure')[1]!;
  assert.equal(
    g.getAttribute('message'),
    "Unknown key 'a<b>&'c\"\ufffd' in error_mapping.409 (allowed: code, message_template, condition, details, description).",
  );
});

test('checkstyle: one <file>, one <error> per diagnostic with line, column, severity, source', async () => {
  const dir = tempTree({ 'x.adapter.yaml': BAD });
  const doc = xml((await run(['check', '.', '--format', 'checkstyle'], dir)).out);
  assert.equal(doc.documentElement.tagName, 'checkstyle');
  assert.equal(doc.getElementsByTagName('file')[0]!.getAttribute('name'), 'x.adapter.yaml');
  const errs = [...doc.getElementsByTagName('error')].map(e => ['line', 'column', 'severity', 'source'].map(a => e.getAttribute(a)));
  assert.deepEqual(errs, [
    ['3', '11', 'error', 'mcp-aql.mapping.unknown-code'],
    ['6', '5', 'warning', 'mcp-aql.schema.unknown-key'],
  ]);
});

test('codeclimate (GitLab Code Quality): the fields GitLab reads; fingerprints stable when lines move', async () => {
  const dir = tempTree({ 'x.adapter.yaml': BAD, 'y.adapter.yaml': '# a comment that moves everything down\n' + BAD });
  const issues = JSON.parse((await run(['check', '.', '--format', 'codeclimate'], dir)).out) as {
    description: string;
    check_name: string;
    fingerprint: string;
    severity: string;
    location: { path: string; lines: { begin: number } };
  }[];
  assert.deepEqual(
    issues.map(i => [i.check_name, i.severity, i.location.path, i.location.lines.begin]),
    [
      ['mapping.unknown-code', 'major', 'x.adapter.yaml', 3],
      ['schema.unknown-key', 'minor', 'x.adapter.yaml', 6],
      ['mapping.unknown-code', 'major', 'y.adapter.yaml', 4],
      ['schema.unknown-key', 'minor', 'y.adapter.yaml', 7],
    ],
  );
  for (const i of issues) assert.match(i.fingerprint, /^[0-9a-f]{32}$/);
  assert.equal(new Set(issues.map(i => i.fingerprint)).size, 4);
  assert.match(issues[0]!.description, /^Did you mean NOT_FOUND_RESOURCE\? 'NOT_FOUND_REPOSITRY' is neither/);
  // Same file content moved by one line: the same fingerprints.
  const moved = tempTree({ 'x.adapter.yaml': '# a comment\n' + BAD });
  const again = JSON.parse((await run(['check', '.', '--format', 'codeclimate'], moved)).out) as { fingerprint: string }[];
  assert.deepEqual(
    again.map(i => i.fingerprint),
    issues.slice(0, 2).map(i => i.fingerprint),
  );
});

test('--output-file writes the report (creating folders) and nothing goes to stdout; --quiet keeps errors only', async () => {
  const dir = tempTree({ 'x.adapter.yaml': BAD });
  const r = await run(['check', '.', '--format', 'json', '--output-file', 'reports/mcp-aql.json', '--quiet'], dir);
  assert.deepEqual([r.code, r.out], [1, '']);
  const json = JSON.parse(readFileSync(join(dir, 'reports/mcp-aql.json'), 'utf8'));
  assert.deepEqual(
    json[0].diagnostics.map((d: { code: string }) => d.code),
    ['mapping.unknown-code'],
  );
  const text = await run(['check', '.', '-q', '-o', 'out.txt'], dir);
  assert.equal(text.code, 1);
  assert.doesNotMatch(readFileSync(join(dir, 'out.txt'), 'utf8'), /\x1b\[/, 'no colour in a file');
  const warnOnly = tempTree({ 'w.adapter.yaml': 'error_codes:\n  PERMISSION_DENIED:\n    category: PERMISSION\n' });
  assert.match((await run(['check', '.'], warnOnly)).out, /1 problem \(0 errors, 1 warning/);
  assert.match((await run(['check', '.', '--quiet'], warnOnly)).out, /^No problems in 1 adapter file\.\n$/);
  const bad = await run(['check', '.', '--output-file', 'x.adapter.yaml/nope.json'], dir);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /cannot write --output-file/);
});
