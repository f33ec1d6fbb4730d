import test from 'node:test';
import assert from 'node:assert/strict';
import { docOf, fixture, newService, readCorpus, yamlDoc } from './helpers';

const s = newService();
const empty = docOf(yamlDoc('error_codes: {}'));

test('every registry code renders in every dialect, each valid against its schema', () => {
  for (const c of s.registry.codes) {
    for (const mirror of [false, true]) {
      const p = s.preview(empty, { code: c.code, mirrorConfirmation: mirror })!;
      assert.equal(p.dialects.length, 4);
      for (const d of p.dialects) assert.ok(d.valid, `${c.code} ${d.id}: ${d.errors.join('; ')}`);
    }
  }
});

test('message rendering: typed samples, overrides, registry aliases (digest C-7)', () => {
  const p = s.preview(empty, { code: 'VALIDATION_MISSING_PARAM', samples: { param_name: 'owner' } })!;
  assert.equal(p.message, "Missing required parameter 'owner'");
  assert.deepEqual(
    p.details.map(d => [d.name, d.value, d.from]),
    [
      ['param_name', 'owner', 'default'],
      ['operation', 'example_operation', 'sample'],
    ],
  );
  const u = s.preview(empty, { code: 'VALIDATION_UNKNOWN_PARAM', samples: { operation: 'get_repo', unknown_params: ['colour', 'size'] } })!;
  assert.equal(u.message, "Unknown parameter(s) for operation 'get_repo': colour, size");
  const o = s.preview(empty, { code: 'NOT_FOUND_OPERATION', samples: { operation: 'frob' } })!;
  assert.equal(o.message, "Unknown operation: 'frob'");
  assert.deepEqual(o.notes, []);
  const rl = s.preview(empty, { code: 'RATE_LIMIT_EXCEEDED' })!;
  assert.equal(typeof rl.details.find(d => d.name === 'retry_after_seconds')!.value, 'number');
});

test('the four dialects: envelope shapes and crosswalks', () => {
  const p = s.preview(empty, {
    code: 'VALIDATION_MISSING_PARAM',
    samples: { param_name: 'to' },
    toolName: 'send_email',
    now: '2026-11-22T10:00:00.000Z',
  })!;
  const by = Object.fromEntries(p.dialects.map(d => [d.id, d.envelope as Record<string, any>]));
  assert.deepEqual(by['mcp-aql'], {
    success: false,
    error: {
      code: 'VALIDATION_MISSING_PARAM',
      message: "Missing required parameter 'to'",
      details: { param_name: 'to', operation: 'example_operation' },
    },
  });
  assert.equal(by['mcp-tool-result']!.isError, false);
  assert.deepEqual(JSON.parse(by['mcp-tool-result']!.content[0].text), by['mcp-aql']);
  assert.equal(by['json-rpc']!.error.code, -32602);
  assert.match(by['json-rpc']!.error.message, /^Question: What value should I use for 'to'\?/);
  assert.deepEqual(
    [by['json-rpc']!.error.data.error_category, by['json-rpc']!.error.data.required_parameter, by['json-rpc']!.error.data.retry_capable],
    ['missing_parameter', 'to', true],
  );
  assert.equal(by['atlas-gate']!.error_code, 'MISSING_REQUIRED_FIELD');
  assert.equal(by['atlas-gate']!.timestamp, '2026-11-22T10:00:00.000Z');
  assert.equal(by['atlas-gate']!.tool_name, 'send_email');
  const internal = s.preview(empty, { code: 'INTERNAL_ERROR' })!;
  const ib = Object.fromEntries(internal.dialects.map(d => [d.id, d.envelope as Record<string, any>]));
  assert.equal(ib['mcp-tool-result']!.isError, true);
  assert.deepEqual(
    [ib['json-rpc']!.error.code, ib['json-rpc']!.error.data.retry_capable, ib['atlas-gate']!.error_code],
    [-32603, false, 'INTERNAL_ERROR'],
  );
});

test('warning codes render as success with warnings; confirmation codes get the mirror when asked', () => {
  const w = s.preview(empty, { code: 'RATE_LIMIT_QUOTA_WARNING' })!;
  const env = w.dialects[0]!.envelope as { success: boolean; warnings: { code: string }[] };
  assert.equal(env.success, true);
  assert.equal(env.warnings[0]!.code, 'RATE_LIMIT_QUOTA_WARNING');
  const c = s.preview(empty, { code: 'CONFIRMATION_REQUIRED', mirrorConfirmation: true, now: '2026-11-22T10:00:00.000Z' })!;
  const ce = c.dialects[0]!.envelope as { confirmation: { token: string; expires_at: string } };
  assert.deepEqual(ce.confirmation, {
    token: 'conf_example123',
    expires_at: '2026-11-22T10:05:00.000Z',
    message: 'example_confirmation_message',
    reasons: ['example_reason_1', 'example_reason_2'],
  });
  assert.equal(
    (s.preview(empty, { code: 'CONFIRMATION_REQUIRED' })!.dialects[0]!.envelope as object as Record<string, unknown>).confirmation,
    undefined,
  );
});

test('the code under the cursor: custom code entry, mapping entry (its template wins), registry code name', () => {
  const f = fixture(
    yamlDoc(
      'error_codes:',
      '  NOT_FOUND_REPOSITORY:',
      '    category: NOT_FOUND',
      '    message_template: "Repository \'{owner}/{repo}\' not found"',
      '    details:',
      '      owner: { type: string, example: octocat }',
      '      repo: string',
      'error_mapping:',
      '  404:',
      '    code: NOT_FOUND_REPOSITORY',
      '    message_template: "Gone: \'{owner}/{repo}\'"',
    ),
  );
  const onKey = s.preview(f.doc, { position: { line: 2, character: 6 } })!;
  assert.equal(onKey.message, "Repository 'octocat/example_repo' not found");
  assert.equal(onKey.source, 'custom');
  const onEntry = s.preview(f.doc, { position: { line: 9, character: 12 } })!;
  assert.equal(onEntry.message, "Gone: 'octocat/example_repo'");
  assert.deepEqual(onEntry.httpStatus, [404]);
  for (const d of onEntry.dialects) assert.ok(d.valid, d.id);
  assert.equal(s.preview(f.doc, { position: { line: 0, character: 3 } }), undefined);
});

test('hostile strings stay data: codes, templates and details are not interpreted', () => {
  const p = s.preview(empty, { code: 'VALIDATION_MISSING_PARAM', samples: { param_name: '<img src=x onerror=alert(1)></script>' } })!;
  assert.equal(p.message, "Missing required parameter '<img src=x onerror=alert(1)></script>'");
  for (const d of p.dialects) assert.ok(d.valid);
});

test('previews of every code of the real example adapter validate', () => {
  const text = readCorpus('MCPAQL-examples--github-api-adapter.md');
  const doc = docOf(text, 'file:///w/github-api-adapter.md');
  assert.ok(s.preview(doc, { code: 'NOT_FOUND_RESOURCE' })!.dialects.every(d => d.valid));
});

test("the preview carries the code's retry: as written on a custom code, else its category's default", () => {
  const s = newService();
  const doc = docOf(
    yamlDoc('error_codes:', '  RATE_LIMIT_SLOW:', '    category: RATE_LIMIT', '    retry: do-not-retry', '    message_template: "Slow"'),
  );
  const own = s.preview(doc, { code: 'RATE_LIMIT_SLOW' })!;
  assert.deepEqual([own.retry, own.retryDeclared], ['do-not-retry', true]);
  const reg = s.preview(doc, { code: 'PERMISSION_DENIED' })!;
  assert.deepEqual([reg.retry, reg.retryDeclared], ['do-not-retry', false]);
  const rate = s.preview(doc, { code: 'RATE_LIMIT_EXCEEDED' })!;
  assert.deepEqual([rate.retry, rate.retryDeclared], ['retry-after-delay', false]);
});
