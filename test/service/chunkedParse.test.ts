/**
 * The incremental (chunked) parse must give exactly what a whole-file parse gives: same model, same
 * diagnostics, on real files and on random edit sequences.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { buildModel, PARSE_OPTIONS } from '../../server/src/service/parse/buildModel';
import { parseChunked } from '../../server/src/service/parse/chunkedParse';
import type { AdapterModel } from '../../server/src/service/model/model';
import { docOf, newService, readCorpus, withoutNodes, yamlDoc } from './helpers';
import { insertions } from './yamlEdits';

const URI = 'file:///w/big.adapter.yaml';

function project(m: AdapterModel | undefined): unknown {
  if (!m) return undefined;
  const strip = withoutNodes;
  return {
    codes: strip(m.codes),
    mappings: strip(m.mappings),
    params: strip(m.params),
    errors: m.syntaxErrors.map(e => [e.start, e.end, e.yamlCode]),
    js: m.sections.map(s => {
      try {
        return s.doc.toJS({ maxAliasCount: 100 });
      } catch {
        return 'alias';
      }
    }),
  };
}

const base = yamlDoc(
  'name: demo',
  'type: adapter',
  '# leading comment',
  'error_codes:',
  '  # first entry',
  '  GITHUB_ABUSE_DETECTED:',
  '    category: RATE_LIMIT',
  `    message_template: "Abuse detection triggered: '{reason}'"`,
  '    maps_from_http: [403]',
  '    details:',
  '      reason: string',
  '  NOT_FOUND_REPOSITORY:',
  '    category: NOT_FOUND',
  "    message_template: 'Repository ''{owner}/{repo}'' not found'",
  '    details: { owner: string, repo: string }',
  '  NOT_FOUND_REPOSITORY:',
  '    category: NOT_FOUND',
  'error_mapping:',
  '  404:',
  '    code: NOT_FOUND_REPOSITORY',
  '  403:',
  '    - condition: "response.body.message contains \'rate limit\'"',
  '      code: RATE_LIMIT_EXCEEDED',
  '    - code: PERMISSION_DENIED',
  'operations:',
  '  read:',
  '    - name: get_repo',
  '      maps_to: "GET /repos/{owner}/{repo}"',
);

test('chunked and whole parses agree on real adapters and the design example', () => {
  const files: [string, string][] = [
    ['file:///w/github-api-adapter.md', readCorpus('MCPAQL-examples--github-api-adapter.md')],
    ['file:///w/apple-mail-adapter.md', readCorpus('MCPAQL-examples--apple-mail-adapter.md')],
    [URI, base],
  ];
  for (const [uri, text] of files) {
    const chunked = buildModel(uri, text, [], { chunkThreshold: 0 });
    assert.ok(chunked?.parseState, `${uri} was parsed in chunks`);
    assert.deepEqual(project(chunked), project(buildModel(uri, text, [], { chunkThreshold: Infinity })));
  }
});

test('a chunked reparse after an edit reuses the untouched chunks', () => {
  const first = buildModel(URI, base, [], { chunkThreshold: 0 })!;
  const edited = base.replace("'{reason}'", "'{reasons}'");
  const second = buildModel(URI, edited, [], { chunkThreshold: 0, previous: first })!;
  assert.deepEqual(project(second), project(buildModel(URI, edited, [], { chunkThreshold: Infinity })));
  const inserted = 'x: 1\n' + edited;
  const third = buildModel(URI, inserted, [], { chunkThreshold: 0, previous: second })!;
  assert.deepEqual(project(third), project(buildModel(URI, inserted, [], { chunkThreshold: Infinity })));
});

const edit = fc.record({
  at: fc.nat(),
  del: fc.nat({ max: 6 }),
  ins: insertions(['<<: *a\n'], 4),
});

test('random edit sequences: incremental == a fresh check of the same text; == a whole parse when the YAML is valid', () => {
  const service = newService();
  fc.assert(
    fc.property(fc.array(edit, { minLength: 1, maxLength: 12 }), edits => {
      let text = base;
      let prev: AdapterModel | undefined;
      let version = 1;
      for (const [i, e] of edits.entries()) {
        const at = e.at % (text.length + 1);
        const oldEnd = Math.min(text.length, at + e.del);
        text = text.slice(0, at) + e.ins + text.slice(at + e.del);
        // Every other edit comes with its range (as the language server passes it), the others are found by comparing texts.
        const change = i % 2 ? { start: at, oldEnd, newEnd: at + e.ins.length } : undefined;
        const incremental = buildModel(URI, text, [], { chunkThreshold: 0, previous: prev, change });
        const fresh = buildModel(URI, text, [], { chunkThreshold: 0 });
        const whole = buildModel(URI, text, [], { chunkThreshold: Infinity });
        assert.deepEqual(project(incremental), project(fresh));
        if (whole!.syntaxErrors.length === 0) assert.deepEqual(project(incremental), project(whole));
        else assert.ok(incremental!.syntaxErrors.length > 0, 'a syntax error is never lost');
        prev = incremental;
        version++;
        // The service, fed one version after another (with the edit's offsets, as the language server
        // passes them), says what a fresh service says of the same text.
        service.edited(URI, version - 1, version, [{ start: at, end: oldEnd, text: e.ins }]);
        const d1 = service.validate(docOf(text, URI, version), { chunkThreshold: 0 });
        const d2 = newService().validate(docOf(text, URI, version), { chunkThreshold: 0 });
        assert.deepEqual(d1, d2);
      }
    }),
    { numRuns: 200, seed: 20261122 },
  );
});

test('a keystroke inside an entry parses that entry alone; the entries after it keep their nodes, moved', () => {
  const lines = ['name: big', 'error_codes:'];
  for (let i = 0; i < 60; i++)
    lines.push(
      `  VALIDATION_E${i}:`,
      '    category: VALIDATION',
      `    message_template: "Field '{field}' (entry ${i})"`,
      '    details: { field: string }',
    );
  lines.push('error_mapping:', '  400:', '    code: VALIDATION_E3');
  const text = yamlDoc(...lines);
  const at = text.indexOf('(entry 20)') + 1;
  const edited = text.slice(0, at) + 'x' + text.slice(at);
  const first = parseChunked(text, 0, PARSE_OPTIONS, undefined)!;
  const nodeOf40 = first.extracted.codes[40]!.node;
  for (const change of [{ start: at, oldEnd: at, newEnd: at + 1 }, undefined]) {
    const prev = parseChunked(text, 0, PARSE_OPTIONS, undefined)!;
    const next = parseChunked(edited, 0, PARSE_OPTIONS, prev.state, change)!;
    assert.equal(next.parsed, 1);
    assert.equal(next.path, 'entry', 'the keystroke path');
    assert.deepEqual(
      project({
        ...buildModel(URI, edited, [], { chunkThreshold: Infinity })!,
        codes: next.extracted.codes,
        mappings: next.extracted.mappings,
        params: next.extracted.params,
        syntaxErrors: [],
        sections: [next.section],
      } as AdapterModel),
      project(buildModel(URI, edited, [], { chunkThreshold: Infinity })),
    );
    assert.equal(next.extracted.codes[40]!.node, prev.extracted.codes[40]!.node, 'the same node object, moved by one');
  }
  assert.ok(nodeOf40);
  // A new entry typed in the middle, and a key typed at column 0, re-split: still the same as a whole parse.
  let prev = buildModel(URI, text, [], { chunkThreshold: 0 })!;
  for (const [ins, before] of [
    ['  VALIDATION_NEW:\n    category: VALIDATION\n', '  VALIDATION_E30:'],
    ['x: 1\n', '  VALIDATION_E31:'],
    ['\t', '    category: VALIDATION\n  VALIDATION_E33:'],
  ] as const) {
    const where = prev.text.indexOf(before);
    const t = prev.text.slice(0, where) + ins + prev.text.slice(where);
    const m = buildModel(URI, t, [], {
      chunkThreshold: 0,
      previous: prev,
      change: { start: where, oldEnd: where, newEnd: where + ins.length },
    })!;
    assert.deepEqual(project(m), project(buildModel(URI, t, [], { chunkThreshold: 0 })), ins);
    if (!m.syntaxErrors.length) assert.deepEqual(project(m), project(buildModel(URI, t, [], { chunkThreshold: Infinity })), ins);
    prev = m;
  }
});

test('service.edited: several edits between two validations are merged; a hint for another version is ignored', () => {
  const lines = ['error_codes:'];
  for (let i = 0; i < 30; i++)
    lines.push(
      `  VALIDATION_E${i}:`,
      '    category: VALIDATION',
      `    message_template: "Field '{field}' (entry ${i})"`,
      '    details: { field: string }',
    );
  let text = yamlDoc(...lines);
  const service = newService();
  service.validate(docOf(text, URI, 1));
  const edits: [string, string][] = [
    ['(entry 3)', 'x'],
    ['(entry 20)', '{oops}'],
    ['VALIDATION_E25:', 'NEW_CODE:\n    category: VALIDATION\n  '],
  ];
  let version = 1;
  for (const [near, ins] of edits) {
    const at = text.indexOf(near) + (near.startsWith('(') ? 1 : 0);
    text = text.slice(0, at) + ins + text.slice(at);
    service.edited(URI, version, version + 1, [{ start: at, end: at, text: ins }]);
    version++;
  }
  assert.deepEqual(service.validate(docOf(text, URI, version)), newService().validate(docOf(text, URI, version)));
  // A hint whose versions do not follow the cached model is dropped: the texts are compared instead.
  const at = text.indexOf('(entry 7)') + 1;
  const next = text.slice(0, at) + 'y' + text.slice(at);
  service.edited(URI, version + 5, version + 6, [{ start: 0, end: 0, text: 'y' }]);
  assert.deepEqual(service.validate(docOf(next, URI, version + 6)), newService().validate(docOf(next, URI, version + 6)));
});
