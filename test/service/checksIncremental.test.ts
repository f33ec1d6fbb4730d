/**
 * The checks kept per document (checks/incremental.ts): after any edit, validate says exactly what a
 * fresh service says of the same text (same diagnostics, order and data), and the problem list equals
 * running every check in full. Random edits through service.edited, on real and adversarial adapters
 * and on a file full of problems, in a workspace of two other files that declare some of the same codes
 * (code.declared-elsewhere on a use), with templates cut at ` #` and anchors defined twice.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import fc from 'fast-check';
import { checks } from '../../server/src/service/checks';
import { createCheckState, runChecksCached } from '../../server/src/service/checks/incremental';
import { runChecks } from '../../server/src/service/checks/runChecks';
import type { CheckContext } from '../../server/src/service/checks/types';
import type { AdapterModel } from '../../server/src/service/model/model';
import { indexRegistry } from '../../server/src/service/model/registry';
import { emptyWorkspace, type CodeDeclaration, type WorkspaceCodes } from '../../server/src/service/model/workspace';
import { createWorkspaceIndex } from '../../server/src/service/workspace/workspaceIndex';
import { buildModel } from '../../server/src/service/parse/buildModel';
import type { Change } from '../../server/src/service/parse/reuseLayout';
import { docOf, loadDeps, newService, readCorpus, ROOT, yamlDoc } from './helpers';
import { insertions } from './yamlEdits';

/** Problems of every kind the checks report, several of them across entries. */
export const PROBLEMS = yamlDoc(
  'name: many',
  'error_codes:',
  '  VALIDATION_ONE:',
  '    category: VALIDATION',
  '    message_template: "Bad {field} in \'{owner}\' {nope}"',
  '    maps_from_http: [422, 999, 5xx]',
  '    details: { field: string, owner: string, extra: number }',
  '  VALIDATION_ONE:',
  '    category: VALIDATIN',
  '    message_template: {x} happened',
  '  lowerCase:',
  '    category: NOT_FOUND',
  '    condition: "respons.status == 404 &&"',
  '    maps_from_http: [404, 404]',
  '  NOT_FOUND:',
  '    category: SCHEMA',
  '    unknown_key: 1',
  '    details:',
  '      a: string',
  '      a: number',
  '  RATE_LIMIT_TOO_MANY:',
  '    category: RATE_LIMIT',
  '    message_template: "{repo} over {limit}"',
  '    maps_from_http: [429]',
  '    details: { limit: integer }',
  '    # mcp-aql-disable-next-line template.unused-detail',
  '    retry: "\u0001 \ud800 \ufffd"',
  'error_mapping:',
  '  429:',
  '    - code: RATE_LIMIT_TOO_MANY',
  '      message_template: "{owner} {limit}"',
  '    - code: RATE_LIMIT_TOO_MANY',
  '    - code: NOPE_CODE',
  '  5xx:',
  '    code: VALIDATION_ONE',
  '  5XX:',
  '    code: DEPRECATED_WARNING',
  '  404:',
  '    - condition: "response.status == 404"',
  '      code: NOT_FOUND',
  '    - condition: "response.status == 404"',
  '      code: lowerCase',
  '  abc:',
  '    code: VALIDATIO_ONE',
  'error_codes:',
  '  LATE_ONE:',
  '    category: VALIDATION',
  'operations:',
  '  read:',
  '    - name: get_repo',
  '      maps_to: "GET /repos/{owner}/{repo}"',
  '      params: { repo: string }',
);

/** Codes merged in (`<<`) ahead of a same-named one, anchors shared by several entries. */
const MERGED = yamlDoc(
  'shared: &shared',
  '  VALIDATION_TWICE:',
  '    category: NOT_FOUND',
  '    maps_from_http: [429, 404]',
  'error_codes:',
  '  VALIDATION_TWICE:',
  '    category: VALIDATION',
  '    message_template: "{a}"',
  '    maps_from_http: [429]',
  '    details: &d { a: string, b: string }',
  '  VALIDATION_OTHER:',
  '    category: VALIDATION',
  '    message_template: "{a} {c}"',
  '    maps_from_http: [429]',
  '    details: *d',
  '  <<: *shared',
  'error_mapping:',
  '  429:',
  '    code: VALIDATION_TWICE',
  '    message_template: "{b} {z}"',
  '  404:',
  '    - code: VALIDATION_TWICE',
  '    - code: VALIDATION_OTHER',
);

/** Templates cut at ` #`, an anchor defined twice, uses of codes that the two other files declare (OTHERS; SHARED_TWICE is declared here too, so its use is not ambiguous). */
const SLIPS = yamlDoc(
  'x-base: &base',
  '  category: NOT_FOUND',
  'x-other: &base',
  '  category: CONFLICT',
  'error_codes:',
  '  NOT_FOUND_RULE:',
  '    category: NOT_FOUND',
  '    message_template: Rule #{n} is not found',
  '    details:',
  '      n: integer',
  '  NOT_FOUND_A: *base',
  '  SHARED_TWICE:',
  '    category: VALIDATION',
  '    message_template: Issue #42 of {n}   ',
  '  NOT_FOUND_NOTE:',
  '    category: NOT_FOUND',
  '    message_template: Not found # a plain comment',
  'error_mapping:',
  '  404:',
  '    - condition: "response.body.gone == true"',
  '      code: SHARED_ONCE',
  '    - code: NOT_FOUND_NOTE',
  '  422:',
  '    code: SHARED_TWICE',
  '  409:',
  '    code: CONFLICT_OTHERS',
  '    message_template: Taken #{id}',
);

/** Two other files: SHARED_TWICE, CONFLICT_OTHERS, VALIDATION_ONE, NOPE_CODE in both, SHARED_ONCE in one. */
const OTHERS: [string, string][] = [
  [
    'file:///w/b-others.adapter.yaml',
    yamlDoc(
      'error_codes:',
      '  SHARED_TWICE:',
      '    category: VALIDATION',
      '  CONFLICT_OTHERS:',
      '    category: CONFLICT',
      '    details: { id: string }',
      '  VALIDATION_ONE:',
      '    category: VALIDATION',
      '  NOPE_CODE:',
      '    category: NOT_FOUND',
      '  SHARED_ONCE:',
      '    category: NOT_FOUND',
    ),
  ],
  [
    'file:///w/a-others.adapter.yaml',
    yamlDoc(
      'error_codes:',
      '  CONFLICT_OTHERS:',
      '    category: CONFLICT',
      '  SHARED_TWICE:',
      '    category: VALIDATION',
      '  NOPE_CODE:',
      '    category: NOT_FOUND',
      '  VALIDATION_ONE:',
      '    category: VALIDATION',
    ),
  ],
];

/** The workspace the fuzz runs in: OTHERS indexed as the server indexes them. */
const othersIndex = () => {
  const index = createWorkspaceIndex();
  const s = newService(index);
  for (const [uri, text] of OTHERS) index.update(uri, s.declaredCodes(docOf(text, uri)), s.codeOccurrences(docOf(text, uri)));
  return index;
};

const fixtures: [string, string][] = [
  ['file:///w/problems.adapter.yaml', PROBLEMS],
  ['file:///w/merged.adapter.yaml', MERGED],
  ['file:///w/slips.adapter.yaml', SLIPS],
  ['file:///w/github-api-adapter.md', readCorpus('MCPAQL-examples--github-api-adapter.md')],
  ['file:///w/apple-mail-adapter.md', readCorpus('MCPAQL-examples--apple-mail-adapter.md')],
  ['file:///w/spec-github-api-adapter.md', readCorpus('MCPAQL-spec--github-api-adapter.md')],
  ['file:///w/airpods.adapter.json', readCorpus('MCPAQL-examples--airpods-mcp-schema.json')],
  ...[
    'github-issues.adapter.yaml',
    'shared-errors.adapter.yaml',
    'stripe-adapter.md',
    'twilio.adapter.json',
    'sendgrid-broken.adapter.json',
  ].map(f => [`file:///w/${f}`, readFileSync(join(ROOT, 'test', 'fixtures', 'adversarial', f), 'utf8')] as [string, string]),
];

const edit = fc.record({
  at: fc.nat(),
  del: fc.nat({ max: 8 }),
  ins: insertions(['\u0001', '\ud800', 'VALIDATION_ONE', '  5xx:\n', '<<: *shared\n', ' #{n}', '&base ', 'SHARED_TWICE', 'NOPE_CODE'], 3),
  /** Edits near the previous one (typing) or anywhere. */
  near: fc.boolean(),
});

const deps = loadDeps();
const ajv = new Ajv({ allErrors: true, strict: false, verbose: true });
const validateSchema = ajv.compile(deps.schema);
const id = (deps.schema as { $id: string }).$id;
const validateEntry = {
  code: ajv.compile({ $ref: `${id}#/properties/error_codes/additionalProperties` }),
  mapping: ajv.compile({ $ref: `${id}#/properties/error_mapping/additionalProperties` }),
};
const registry = indexRegistry(deps.registry);
const workspace = othersIndex();
const ctxOf = (model: AdapterModel, ws: WorkspaceCodes = emptyWorkspace): CheckContext => ({
  model,
  registry,
  validateSchema,
  validateEntry,
  workspace: ws,
});

for (const [uri, base] of fixtures) {
  test(`random edits of ${uri.replace(/^.*\//, '')}: the kept checks == a full check, through the service == a fresh service`, t => {
    let runs = 0;
    // A fresh check of the text: this service forgets the document (its model and kept checks) first.
    const freshService = newService(workspace);
    const fresh = (text: string, version: number) => {
      freshService.forget(uri);
      return freshService.validate(docOf(text, uri, version), { chunkThreshold: 0 });
    };
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 10 }), edits => {
        const service = newService(workspace);
        const state = createCheckState();
        let text = base;
        let version = 1;
        let model = buildModel(uri, text, [], { chunkThreshold: 0 });
        let last = 0;
        assert.deepEqual(service.validate(docOf(text, uri, version), { chunkThreshold: 0 }), fresh(text, version));
        if (model) assert.deepEqual(runChecksCached(state, ctxOf(model, workspace)), runChecks(checks, ctxOf(model, workspace)));
        for (const e of edits) {
          const at = e.near ? Math.min(text.length, last + (e.at % 40)) : e.at % (text.length + 1);
          const oldEnd = Math.min(text.length, at + e.del);
          text = text.slice(0, at) + e.ins + text.slice(oldEnd);
          last = at + e.ins.length;
          const change: Change = { start: at, oldEnd, newEnd: at + e.ins.length };
          model = buildModel(uri, text, [], { chunkThreshold: 0, previous: model, change });
          if (model)
            assert.deepEqual(
              runChecksCached(state, ctxOf(model, workspace)),
              runChecks(checks, ctxOf(model, workspace)),
              JSON.stringify(e),
            );
          service.edited(uri, version, version + 1, [{ start: at, end: oldEnd, text: e.ins }]);
          version++;
          const d1 = service.validate(docOf(text, uri, version), { chunkThreshold: 0 });
          const d2 = fresh(text, version);
          assert.deepEqual(d1, d2, JSON.stringify(e));
          runs++;
        }
      }),
      { numRuns: 12, seed: 20261123 },
    );
    assert.ok(runs >= 40, `${runs} edits`);
    t.diagnostic(`${runs} edits`);
  });
}

test('the same text checked again after the workspace changed: what a fresh service says', () => {
  const decls = new Map<string, CodeDeclaration[]>();
  const ws: WorkspaceCodes = {
    declarations: code => decls.get(code) ?? [],
    allDeclarations: () => [...decls.values()].flat(),
    occurrences: () => [],
  };
  const decl = (uri: string, details: string[]): CodeDeclaration => ({
    uri,
    code: 'OTHER_FILE_CODE',
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
    category: 'VALIDATION',
    details: details.map(name => ({ name, type: 'string' })),
    mapsFromHttp: [],
  });
  const text = yamlDoc(
    'error_mapping:',
    '  400:',
    '    code: OTHER_FILE_CODE',
    '    message_template: "\'{field}\' bad"',
    '  401:',
    '    code: OTHER_FILE_COD',
  );
  const service = createServiceWith(ws);
  const doc = docOf(text, 'file:///w/a.adapter.yaml');
  const codesOf = () => service.validate(doc).map(d => d.code);
  // An unknown code: its template's keys cannot be known.
  assert.deepEqual(codesOf(), ['mapping.unknown-code', 'mapping.unknown-code']);
  decls.set('OTHER_FILE_CODE', [decl('file:///w/b.adapter.yaml', ['owner'])]);
  assert.deepEqual(service.validate(doc), createServiceWith(ws).validate(doc));
  assert.deepEqual(codesOf(), ['template.unknown-placeholder', 'mapping.unknown-code']);
  decls.set('OTHER_FILE_CODE', [decl('file:///w/b.adapter.yaml', ['field'])]);
  assert.deepEqual(service.validate(doc), createServiceWith(ws).validate(doc));
  assert.deepEqual(codesOf(), ['mapping.unknown-code']);
});

const createServiceWith = (ws: WorkspaceCodes) => newService(ws);

test('SLIPS holds what the fuzz is for: comment cuts, a duplicate anchor, ambiguous uses', () => {
  const codes = newService(workspace)
    .validate(docOf(SLIPS, 'file:///w/slips.adapter.yaml'))
    .map(d => d.code);
  for (const [code, n] of [
    ['template.comment-cut', 3],
    ['yaml.duplicate-anchor', 1],
    ['code.declared-elsewhere', 1],
  ] as const)
    assert.equal(codes.filter(c => c === code).length, n, `${code} in ${codes.join(', ')}`);
});
