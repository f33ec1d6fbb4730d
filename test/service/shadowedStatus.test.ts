/**
 * A status that an error_mapping range (`5XX`) shadows (docs/spec-decisions.md, "Shadowed statuses"):
 * `check` reports it on the maps_from_http item (mapping.shadowed-status) with a fix that removes it;
 * `diff` does not call adding it a safe addition; `docs` does not list it under the code.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { applyEdits, docOf, editsOf, fixesOf, newService, yamlDoc } from './helpers';

const URI = 'file:///w/shop.adapter.yaml';
const ADAPTER = yamlDoc(
  'name: shop',
  'type: adapter',
  'error_codes:',
  '  INTERNAL_UPSTREAM_DOWN:',
  '    category: INTERNAL',
  '    message_template: "Upstream down"',
  '    maps_from_http: [502, 503]',
  '  INTERNAL_MAINTENANCE:',
  '    category: INTERNAL',
  '    condition: "response.body.maintenance == true"',
  '    maps_from_http: [503]',
  'error_mapping:',
  '  5XX:',
  '    code: INTERNAL_ERROR',
);

const rowsOf = (text: string, code: string, uri = URI) =>
  newService()
    .validate(docOf(text, uri))
    .filter(d => d.code === code)
    .map(d => ({
      range: [d.range.start.line + 1, d.range.start.character, d.range.end.line + 1, d.range.end.character],
      severity: d.severity,
      message: d.message,
      related: d.relatedInformation?.map(r => [r.location.range.start.line + 1, r.location.range.start.character, r.message]),
      data: d.data,
    }));

test('mapping.shadowed-status on each status an unconditional 5XX entry answers first; not on a code with a condition', () => {
  assert.deepEqual(rowsOf(ADAPTER, 'mapping.shadowed-status'), [
    {
      range: [7, 21, 7, 24],
      severity: 2,
      message:
        'Never used: error_mapping[5XX] has no condition and answers every 502 first, so INTERNAL_UPSTREAM_DOWN never gets 502 (an error_codes entry without a condition is tried after error_mapping). Give INTERNAL_UPSTREAM_DOWN a condition, map 502 to it in error_mapping, or remove 502.',
      related: [[13, 2, 'error_mapping[5XX] answers first']],
      data: { code: 'INTERNAL_UPSTREAM_DOWN', status: '502' },
    },
    {
      range: [7, 26, 7, 29],
      severity: 2,
      message:
        'Never used: error_mapping[5XX] has no condition and answers every 503 first, so INTERNAL_UPSTREAM_DOWN never gets 503 (an error_codes entry without a condition is tried after error_mapping). Give INTERNAL_UPSTREAM_DOWN a condition, map 503 to it in error_mapping, or remove 503.',
      related: [[13, 2, 'error_mapping[5XX] answers first']],
      data: { code: 'INTERNAL_UPSTREAM_DOWN', status: '503' },
    },
  ]);
  // The simulator agrees: 503 with a body that no condition matches gets the 5XX entry's code.
  const sim = newService().simulate(docOf(ADAPTER, URI), { status: 503, body: {} });
  assert.equal(sim.rule, 'error_mapping[5XX]');
});

test('no mapping.shadowed-status where the status can reach the code', () => {
  const none = (text: string) => assert.deepEqual(rowsOf(text, 'mapping.shadowed-status'), [], text);
  // The 5XX entry has a condition; the range entry gives the same code; 4XX does not cover 503; no error_mapping.
  none(ADAPTER.replace('  5XX:\n    code: INTERNAL_ERROR\n', '  5XX:\n    code: INTERNAL_ERROR\n    condition: "response.body.x == 1"\n'));
  none(ADAPTER.replace('code: INTERNAL_ERROR', 'code: INTERNAL_UPSTREAM_DOWN').replace('[502, 503]', '[503]'));
  none(ADAPTER.replace('5XX:', '4XX:'));
  none(ADAPTER.slice(0, ADAPTER.indexOf('error_mapping:')));
  // An exact key that maps the status to the code itself wins over the range: reachable.
  none(ADAPTER.replace('[502, 503]', '[503]') + '  503:\n    code: INTERNAL_UPSTREAM_DOWN\n');
  // Another YAML document is another adapter.
  none(ADAPTER.replace('error_mapping:', '---\nname: other\nerror_mapping:'));
});

test('a lower-case range shadows too; a status error_mapping has a key for is mapping.precedence, not reported twice', () => {
  const lower = ADAPTER.replace('5XX:', '5xx:');
  assert.deepEqual(
    rowsOf(lower, 'mapping.shadowed-status').map(r => r.range),
    [
      [7, 21, 7, 24],
      [7, 26, 7, 29],
    ],
  );
  const exact = ADAPTER.replace('  5XX:', '  503:');
  assert.deepEqual(rowsOf(exact, 'mapping.shadowed-status'), []);
  assert.deepEqual(
    rowsOf(exact, 'mapping.precedence').map(r => r.range),
    [[13, 2, 13, 5]],
  );
});

/** The one fix of the first mapping.shadowed-status diagnostic of `text`, applied. */
function fixed(text: string, uri = URI, nth = 0): { title: string; text: string } {
  const s = newService();
  const doc = TextDocument.create(uri, uri.endsWith('.json') ? 'json' : 'yaml', 1, text);
  const d = s.validate(doc).filter(x => x.code === 'mapping.shadowed-status')[nth]!;
  const actions = fixesOf(s, doc, d.range, { diagnostics: [d] });
  assert.equal(actions.length, 1, actions.map(a => a.title).join(' | '));
  return { title: actions[0]!.title, text: applyEdits(doc, editsOf(actions[0]!, uri)) };
}

test('fix: remove the status from a flow list (with its comma), a block list (its line), or the whole key when it is the only one', () => {
  assert.deepEqual(fixed(ADAPTER, URI, 1), {
    title: 'Remove 503 from maps_from_http of INTERNAL_UPSTREAM_DOWN',
    text: ADAPTER.replace('[502, 503]', '[502]'),
  });
  assert.equal(fixed(ADAPTER).text, ADAPTER.replace('[502, 503]', '[503]'));
  const block = ADAPTER.replace('    maps_from_http: [502, 503]\n', '    maps_from_http:\n      - 502\n      - 503 # gateway\n');
  assert.equal(fixed(block, URI, 1).text, block.replace('      - 503 # gateway\n', ''));
  const single = ADAPTER.replace('[502, 503]', '[503]');
  assert.equal(fixed(single).text, single.replace('    maps_from_http: [503]\n', ''));
  // After the fix the file says nothing of shadowing.
  assert.deepEqual(rowsOf(fixed(single).text, 'mapping.shadowed-status'), []);
});

test('JSON adapter: the same diagnostic and a fix that leaves strict JSON', () => {
  const uri = 'file:///w/shop.adapter.json';
  const json = JSON.stringify(
    {
      name: 'shop',
      type: 'adapter',
      error_codes: { INTERNAL_UPSTREAM_DOWN: { category: 'INTERNAL', maps_from_http: [503], message_template: 'Upstream down' } },
      error_mapping: { '5XX': { code: 'INTERNAL_ERROR' } },
    },
    null,
    2,
  );
  assert.deepEqual(
    rowsOf(json, 'mapping.shadowed-status', uri).map(r => r.range),
    [[8, 8, 8, 11]],
  );
  const out = fixed(json, uri).text;
  assert.deepEqual(JSON.parse(out), {
    name: 'shop',
    type: 'adapter',
    error_codes: { INTERNAL_UPSTREAM_DOWN: { category: 'INTERNAL', message_template: 'Upstream down' } },
    error_mapping: { '5XX': { code: 'INTERNAL_ERROR' } },
  });
});

test('keystroke path: adding and removing the 5XX entry in a chunked file gives what a fresh service gives', () => {
  const base = ADAPTER.replace('  5XX:\n    code: INTERNAL_ERROR\n', '  500:\n    code: INTERNAL_ERROR\n');
  const s = newService();
  const opts = { chunkThreshold: 0 };
  const fresh = (text: string, v: number) => newService().validate(docOf(text, URI, v), opts);
  s.validate(docOf(base, URI, 1), opts);
  const at = base.indexOf('500:');
  s.edited(URI, 1, 2, [{ start: at, end: at + 3, text: '5XX' }]);
  const after = base.slice(0, at) + '5XX' + base.slice(at + 3);
  const d2 = s.validate(docOf(after, URI, 2), opts);
  assert.deepEqual(d2, fresh(after, 2));
  assert.equal(d2.filter(d => d.code === 'mapping.shadowed-status').length, 2);
  s.edited(URI, 2, 3, [{ start: at, end: at + 3, text: '500' }]);
  const d3 = s.validate(docOf(base, URI, 3), opts);
  assert.deepEqual(d3, fresh(base, 3));
  assert.equal(d3.filter(d => d.code === 'mapping.shadowed-status').length, 0);
  // An edit that gives the code a condition (an error_codes entry) clears it too.
  const cond = after.replace(
    '    maps_from_http: [502, 503]\n',
    '    maps_from_http: [502, 503]\n    condition: "response.body.down == true"\n',
  );
  const c0 = after.indexOf('    maps_from_http: [502, 503]\n') + '    maps_from_http: [502, 503]\n'.length;
  const s2 = newService();
  s2.validate(docOf(after, URI, 1), opts);
  s2.edited(URI, 1, 2, [{ start: c0, end: c0, text: '    condition: "response.body.down == true"\n' }]);
  const d4 = s2.validate(docOf(cond, URI, 2), opts);
  assert.deepEqual(d4, fresh(cond, 2));
  assert.equal(d4.filter(d => d.code === 'mapping.shadowed-status').length, 0);
});

const side = (text: string, dir: string) => [
  { doc: TextDocument.create(`file:///${dir}/shop.adapter.yaml`, 'yaml', 1, text), fileKey: 'shop.adapter.yaml' },
];
const diffOf = (before: string, after: string) =>
  newService()
    .diffContracts(side(before, 'old'), side(after, 'new'))
    .map(c => [c.rule, c.severity, c.code, c.status, c.message]);

test('diff: adding a status that 5XX shadows is not a safe addition; adding a reachable one is; removing a shadowed one is safe', () => {
  const before = ADAPTER.replace('[502, 503]', '[502]');
  assert.deepEqual(diffOf(before, ADAPTER), [
    [
      'code.shadowed-status-added',
      'dangerous',
      'INTERNAL_UPSTREAM_DOWN',
      '503',
      'INTERNAL_UPSTREAM_DOWN now claims HTTP 503, but error_mapping[5XX] answers it first: no response gets INTERNAL_UPSTREAM_DOWN for it',
    ],
  ]);
  assert.deepEqual(diffOf(ADAPTER, before), [
    [
      'code.shadowed-status-removed',
      'safe',
      'INTERNAL_UPSTREAM_DOWN',
      '503',
      'INTERNAL_UPSTREAM_DOWN no longer claims HTTP 503, which error_mapping[5XX] answered first',
    ],
  ]);
  // A code with a condition is tried before the 5XX entry: its new status is reachable, a plain addition.
  const conditional = (statuses: string) => ADAPTER.replace('maps_from_http: [503]', `maps_from_http: ${statuses}`);
  assert.deepEqual(diffOf(conditional('[503]'), conditional('[503, 504]')), [
    ['code.status-added', 'safe', 'INTERNAL_MAINTENANCE', '504', 'INTERNAL_MAINTENANCE now maps from HTTP 504'],
  ]);
  // Without the 5XX entry the same addition is reachable.
  const noRange = (t: string) => t.replace('  5XX:\n    code: INTERNAL_ERROR\n', '  500:\n    code: INTERNAL_ERROR\n');
  assert.deepEqual(diffOf(noRange(before), noRange(ADAPTER)), [
    ['code.status-added', 'safe', 'INTERNAL_UPSTREAM_DOWN', '503', 'INTERNAL_UPSTREAM_DOWN now maps from HTTP 503'],
  ]);
});

test('docs: a shadowed status is not listed under the code; it is named as never reached, with the entry that answers it', () => {
  const doc = TextDocument.create(URI, 'yaml', 1, ADAPTER);
  const md = newService().errorReference([doc], { format: 'markdown', sources: ['shop.adapter.yaml'], version: '1.0.0' });
  const section = (code: string) => {
    const from = md.indexOf(`### \`${code}\``);
    return md.slice(from, md.indexOf('| Message template', from));
  };
  assert.equal(
    section('INTERNAL_UPSTREAM_DOWN'),
    [
      '### `INTERNAL_UPSTREAM_DOWN`',
      '',
      '| | |',
      '|---|---|',
      '| Category | INTERNAL |',
      '| Kind | error |',
      '| HTTP statuses | — |',
      '| Never reached | 502 \\(error\\_mapping 5XX answers it first\\); 503 \\(error\\_mapping 5XX answers it first\\) |',
      '',
    ].join('\n'),
  );
  // The code with a condition is tried first: 503 is its own.
  assert.match(section('INTERNAL_MAINTENANCE'), /\| HTTP statuses \| 503 \|\n$/);
  const html = newService().errorReference([doc], { format: 'html', sources: ['shop.adapter.yaml'], version: '1.0.0' });
  assert.match(
    html,
    /<th scope="row">Never reached<\/th><td>502 \(error_mapping 5XX answers it first\); 503 \(error_mapping 5XX answers it first\)<\/td>/,
  );
});
