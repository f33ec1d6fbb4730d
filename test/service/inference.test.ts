/**
 * Contracts from traffic (service/inference): failures read from JSON-RPC transcripts, grouped into
 * kinds, templates recovered from messages that differ, details keys and types, category, registry
 * fit, the written adapter (clean under `check`), a merge that keeps hand-written entries, and the
 * round trip on the recorded transcripts of test/fixtures/transcripts (README there).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { InferRenderError } from '../../server/src/service';
import { newService, ROOT, yamlDoc } from './helpers';

const FIX = join(ROOT, 'test/fixtures/transcripts');

/** A transcript: each call a request line and its answer line, ids from 1. */
function transcript(...calls: [tool: string, args: object, answer: object][]): string {
  const lines: string[] = [];
  calls.forEach(([tool, args, answer], i) => {
    lines.push(JSON.stringify({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: tool, arguments: args } }));
    lines.push(JSON.stringify({ jsonrpc: '2.0', id: i + 1, ...answer }));
  });
  return lines.join('\n') + '\n';
}
const text = (t: string, isError = true) => ({ result: { content: [{ type: 'text', text: t }], isError } });
const envelope = (code: string, message: string, details: object, isError = true) =>
  text(JSON.stringify({ success: false, error: { code, message, details } }), isError);

const validate = (t: string) => {
  const s = newService();
  const doc = TextDocument.create('file:///w/inferred.adapter.yaml', 'yaml', 1, t);
  return s.validate(doc).map(d => `${d.range.start.line + 1} ${String(d.code)} ${d.message}`);
};

test('messages that differ in a request argument: the placeholder is named after it', () => {
  const r = newService().inferContract({
    transcripts: [
      transcript(
        ['read_file', { path: 'a.txt' }, text("File 'a.txt' not found")],
        ['read_file', { path: 'b.txt' }, text("File 'b.txt' not found")],
      ),
    ],
  });
  assert.equal(r.kinds.length, 1);
  const k = r.kinds[0]!;
  assert.equal(k.code, 'NOT_FOUND_FILE');
  assert.equal(k.template.text, "File '{path}' not found");
  assert.deepEqual(k.template.placeholders, [{ name: 'path', from: 'argument' }]);
  assert.deepEqual(k.details, [{ name: 'path', type: 'string', required: false, placeholderOnly: 'argument' }]);
  assert.equal(k.category, 'NOT_FOUND');
  assert.deepEqual(k.channels, ['tool result, text only, isError true']);
  assert.deepEqual(validate(r.text), []);
});

test('a word that varies with no argument behind it: a placeholder named after the word before it', () => {
  const r = newService().inferContract({
    transcripts: [
      transcript(
        ['f', {}, text('Invalid input: expected string, received number')],
        ['f', {}, text('Invalid input: expected array, received string')],
      ),
    ],
  });
  assert.equal(r.kinds[0]!.template.text, 'Invalid input: expected {expected}, received {received}');
  assert.deepEqual(
    r.kinds[0]!.template.placeholders.map(p => p.from),
    ['varies', 'varies'],
  );
  assert.deepEqual(validate(r.text), []);
});

test('envelopes: one code per code sent, details keys and types, required when always present', () => {
  const r = newService().inferContract({
    transcripts: [
      transcript(
        ['t', { id: 'x1' }, envelope('NOT_FOUND_NOTE', "Note 'x1' not found", { note_id: 'x1', tries: 2 })],
        ['t', { id: 'y2' }, envelope('NOT_FOUND_NOTE', "Note 'y2' not found", { note_id: 'y2', tries: 3, tags: ['a'] })],
      ),
    ],
  });
  const k = r.kinds[0]!;
  assert.equal(k.code, 'NOT_FOUND_NOTE');
  assert.equal(k.sent, 'NOT_FOUND_NOTE');
  assert.equal(k.template.text, "Note '{note_id}' not found");
  assert.deepEqual(k.details, [
    { name: 'note_id', type: 'string', required: true },
    { name: 'tags', type: 'string[]', required: false },
    { name: 'tries', type: 'integer', required: true },
  ]);
  assert.ok(
    r.text.endsWith(
      yamlDoc(
        '    details:',
        '      note_id: { type: string, required: true }',
        '      tags: { type: "string[]", required: false }',
        '      # mcp-aql-disable-next-line template.unused-detail -- sent, not in the message',
        '      tries: { type: integer, required: true }',
      ),
    ),
    r.text,
  );
  assert.deepEqual(validate(r.text), []);
});

test('a registry code whose template matches says nothing; with a message of its own it is mapped', () => {
  const r = newService().inferContract({
    transcripts: [
      transcript(
        ['t', {}, envelope('VALIDATION_MISSING_PARAM', "Missing required parameter 'id'", { param_name: 'id', operation: 'get' }, false)],
        ['t', {}, envelope('INTERNAL_ERROR', 'Upstream exploded', { http_status: 502 })],
      ),
    ],
  });
  assert.deepEqual(
    r.kinds.map(k => [k.code, k.registry]),
    [
      ['INTERNAL_ERROR', { code: 'INTERNAL_ERROR', templateMatches: false }],
      ['VALIDATION_MISSING_PARAM', { code: 'VALIDATION_MISSING_PARAM', templateMatches: true }],
    ],
  );
  assert.match(r.text, /error_mapping:\n(?: *#.*\n)* {2}502:\n {4}code: INTERNAL_ERROR\n {4}message_template: "Upstream exploded"\n/);
  assert.match(r.text, /# VALIDATION_MISSING_PARAM: 1 failure \(tool result, MCP-AQL envelope, isError false\), as the registry says\./);
  assert.deepEqual(validate(r.text), []);
});

test('a text that fits a registry template takes the registry code', () => {
  const r = newService().inferContract({ transcripts: [transcript(['t', { operation: 'zap' }, text("Unknown operation: 'zap'")])] });
  assert.equal(r.kinds[0]!.code, 'NOT_FOUND_OPERATION');
  assert.equal(r.kinds[0]!.sent, undefined);
});

test('JSON-RPC errors: the channel, the category from the JSON-RPC code, a status and a retry delay', () => {
  const r = newService().inferContract({
    transcripts: [
      transcript(
        ['t', {}, { error: { code: -32603, message: 'Upstream said slow down', data: { status: 429, retryAfterMs: 1000 } } }],
        ['t', {}, { error: { code: -32601, message: 'Method frobnicate is gone' } }],
      ),
    ],
  });
  assert.deepEqual(
    r.kinds.map(k => [k.code, k.category, k.categoryFrom, k.channels, k.statuses, k.retry]),
    [
      ['NOT_FOUND_METHOD_FROBNICATE', 'NOT_FOUND', 'JSON-RPC -32601', ['JSON-RPC error -32601'], [], 'retry-after-change'],
      ['RATE_LIMIT_UPSTREAM_SAID', 'RATE_LIMIT', 'HTTP 429', ['JSON-RPC error -32603'], [429], 'retry-after-delay'],
    ],
  );
  assert.match(
    r.text,
    /RATE_LIMIT_UPSTREAM_SAID:\n {4}category: RATE_LIMIT\n {4}retry: retry-after-delay\n {4}message_template: "Upstream said slow down"\n {4}maps_from_http: \[ 429 \]\n/,
  );
  assert.match(r.text, /# retry retry-after-delay: seen with a delay \(retryAfterMs\)\./);
  assert.deepEqual(validate(r.text), []);
});

test('a code the server sends without its category prefix is declared as sent, the prefix rule silenced there', () => {
  const r = newService().inferContract({
    transcripts: [transcript(['t', {}, envelope('NOTE_MISSING', 'No note x', { http_status: 404 })])],
  });
  assert.match(
    r.text,
    / {2}# mcp-aql-disable-next-line code.category-prefix -- the server sends this name\n {2}NOTE_MISSING:\n {4}category: NOT_FOUND\n/,
  );
  assert.deepEqual(validate(r.text), []);
});

test('the same traffic in another order gives the same adapter', () => {
  const calls: [string, object, object][] = [
    ['read', { path: 'a.txt' }, text("ENOENT: no such file or directory, open 'a.txt'")],
    ['list', { path: 'docs' }, text("ENOENT: no such file or directory, scandir 'docs'")],
    ['read', { path: '/etc' }, text('Access denied - path outside allowed directories: /etc')],
    ['t', {}, envelope('CONFLICT_TAKEN', "Name 'n' is taken", { name: 'n' })],
  ];
  const a = newService().inferContract({ transcripts: [transcript(...calls)] }).text;
  const b = newService().inferContract({ transcripts: [transcript(...[...calls].reverse())] }).text;
  assert.equal(a, b);
  assert.match(a, /NOT_FOUND_FILE:[\s\S]*message_template: "ENOENT: no such file or directory, \{value\} '\{path\}'"/);
});

test('merge: hand-written entries and comments stay as written; new codes are added after them', () => {
  const existing = yamlDoc(
    '# my adapter',
    'name: files',
    'error_codes:',
    '  # written by hand',
    '  NOT_FOUND_FILE:',
    '    category: NOT_FOUND',
    '    message_template: "No file \'{path}\'" # keep',
    '    details: { path: string }',
  );
  const r = newService().inferContract({
    existing,
    transcripts: [
      transcript(
        ['read', { path: 'a.txt' }, envelope('NOT_FOUND_FILE', "File 'a.txt' not found", { path: 'a.txt' })],
        ['t', {}, envelope('CONFLICT_TAKEN', "Name 'n' is taken", { name: 'n' })],
      ),
    ],
  });
  assert.deepEqual(r.kept, ['NOT_FOUND_FILE']);
  assert.deepEqual(r.added, ['CONFLICT_TAKEN']);
  assert.ok(
    r.text.startsWith(existing.trimEnd().replace('  # written by hand\n  NOT_FOUND_FILE', '  # written by hand\n  NOT_FOUND_FILE')),
    r.text,
  );
  assert.equal(
    r.text.slice(existing.length),
    yamlDoc(
      '  # Seen once (t): tool result, MCP-AQL envelope, isError true.',
      "  # category CONFLICT: the code's prefix.",
      '  # retry retry-after-change: the default of CONFLICT; no delay was seen.',
      '  CONFLICT_TAKEN:',
      '    category: CONFLICT',
      '    retry: retry-after-change',
      '    message_template: "Name \'{name}\' is taken"',
      '    details:',
      '      name: { type: string, required: true }',
    ),
  );
  assert.deepEqual(validate(r.text), []);
});

test('merge into a text that is not an adapter mapping: a clear error', () => {
  assert.throws(() => newService().inferContract({ existing: '- a\n- b\n', transcripts: [] }), InferRenderError);
  assert.throws(() => newService().inferContract({ existing: 'a: [\n', transcripts: [] }), /not valid YAML/);
});

test('lines that are not JSON, requests without answers, successes: no failure', () => {
  const r = newService().inferContract({
    transcripts: [
      'not json\n{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}\n{"jsonrpc":"2.0","id":2,"result":{"content":[]}}\n',
    ],
  });
  assert.equal(r.failures, 0);
  assert.deepEqual(r.kinds, []);
});

// The recorded sessions (test/fixtures/transcripts/README.md): each server's session a gives the
// adapter committed beside it, `check` finds nothing in it, and it judges session b.
for (const server of ['notes', 'filesystem', 'memory', 'everything', 'github', 'slack', 'postgres', 'sequential-thinking']) {
  test(`recorded ${server} session: the inferred adapter as committed, clean, and the round trip`, () => {
    const s = newService();
    const a = readFileSync(join(FIX, `${server}.a.jsonl`), 'utf8');
    const r = s.inferContract({ transcripts: [a], name: server });
    assert.equal(r.text, readFileSync(join(FIX, `${server}.inferred.adapter.yaml`), 'utf8'));
    assert.deepEqual(validate(r.text), []);
    const contract = s.contract([TextDocument.create(`file:///w/${server}.adapter.yaml`, 'yaml', 1, r.text)]);
    const b = TextDocument.create(`file:///w/${server}.b.responses.jsonl`, 'json', 1, readFileSync(join(FIX, `${server}.b.jsonl`), 'utf8'));
    assert.deepEqual(
      s.verifyResponses(b, contract).map(d => `${d.range.start.line + 1} ${String(d.code)}`),
      [],
    );
  });
}

test('no delay seen: an INTERNAL kind gets no retry written, and the comment says why', () => {
  const r = newService().inferContract({ transcripts: [transcript(['t', {}, envelope('INTERNAL_DISK', 'Disk on fire', {})])] });
  assert.equal(r.kinds[0]!.retry, undefined);
  assert.match(
    r.text,
    /# retry not written: INTERNAL's default is retry-after-delay, but no answer carried a delay \(a declared retry-after-delay is checked for one\)\.\n {2}INTERNAL_DISK:\n {4}category: INTERNAL\n {4}message_template/,
  );
  assert.deepEqual(validate(r.text), []);
});

test('merge: every byte already there stays, a comment on a key line and the keys after the block included', () => {
  const existing = yamlDoc('name: files', 'error_codes:', '  NOT_FOUND_FILE: # by hand', '    category: NOT_FOUND', 'other: 1 # keep');
  const r = newService().inferContract({
    existing,
    transcripts: [transcript(['t', {}, envelope('CONFLICT_TAKEN', "Name 'n' is taken", { name: 'n' })])],
  });
  const at = existing.indexOf('other:');
  assert.ok(r.text.startsWith(existing.slice(0, at)), r.text);
  assert.ok(r.text.endsWith('    details:\n      name: { type: string, required: true }\nother: 1 # keep\n'), r.text);
  assert.deepEqual(validate(r.text), []);
});

test('diff between contracts inferred from two versions of a server shows what changed for clients', () => {
  const s = newService();
  const v1 = transcript(['read', { path: 'a.txt' }, text("File 'a.txt' not found")]);
  const v2 = transcript(
    ['read', { path: 'a.txt' }, text("File 'a.txt' not found")],
    ['t', {}, envelope('RATE_LIMIT_BUSY', 'Busy', { retry_after_seconds: 2 }, false)],
  );
  const side = (t: string, dir: string) => [
    {
      doc: TextDocument.create(`file:///${dir}/x.adapter.yaml`, 'yaml', 1, s.inferContract({ transcripts: [t], name: 'x' }).text),
      fileKey: 'x.adapter.yaml',
    },
  ];
  const changes = s.diffContracts(side(v1, 'old'), side(v2, 'new'));
  assert.deepEqual(
    changes.map(c => [c.rule, c.severity, c.code]),
    [['code.added', 'safe', 'RATE_LIMIT_BUSY']],
  );
});

test('messages that differ in many places (a JSON dump in the text): one placeholder from the first difference to the last', () => {
  const issue = (path: string, expected: string, received: string) =>
    `Invalid input: [{"code":"invalid_type","expected":"${expected}","received":"${received}","path":["${path}"],"message":"Required"}]`;
  const r = newService().inferContract({
    transcripts: [
      transcript(
        ['get_issue', {}, { error: { code: -32603, message: issue('issue_number', 'number', 'string') } }],
        ['list_commits', {}, { error: { code: -32603, message: issue('owner', 'string', 'undefined') } }],
      ),
    ],
  });
  assert.deepEqual(
    r.kinds.map(k => [k.code, k.category, k.template.text, k.template.placeholders]),
    [['VALIDATION_FAILURE', 'VALIDATION', 'Invalid input: {value}', [{ name: 'value', from: 'span' }]]],
  );
  assert.deepEqual(validate(r.text), []);
});

test('three words that vary keep a placeholder each', () => {
  const r = newService().inferContract({
    transcripts: [
      transcript(
        ['f', {}, text('Invalid input: expected array, received string at names')],
        ['f', {}, text('Invalid input: expected string, received undefined at query')],
      ),
    ],
  });
  assert.equal(r.kinds[0]!.template.text, 'Invalid input: expected {expected}, received {received} at {value}');
});

test("a validator's report too different to cluster word by word joins the kind whose varying tail it fits", () => {
  const head = 'MCP error -32602: Input validation error: Invalid arguments for tool think: ';
  const r = newService().inferContract({
    transcripts: [
      transcript(
        ['think', {}, text(head + 'Invalid input: expected string, received number at thought')],
        ['think', {}, text(head + 'Expected boolean or "true"/"false" string, received "yes" at nextThoughtNeeded')],
        [
          'think',
          {},
          text(
            head +
              'Invalid input: expected string, received undefined at thought\nInvalid input at nextThoughtNeeded\nInvalid input: expected number, received NaN at thoughtNumber',
          ),
        ],
      ),
    ],
  });
  assert.deepEqual(
    r.kinds.map(k => [k.code, k.count, k.template.text]),
    [['VALIDATION_ARGUMENTS_TOOL', 3, 'MCP error -32602: Input validation error: Invalid arguments for tool {tool}: {value}']],
  );
  assert.deepEqual(validate(r.text), []);
});

test('a short template with a varying tail takes in nothing (too little said to be sure)', () => {
  const r = newService().inferContract({
    transcripts: [
      transcript(
        ['f', {}, text('Bad: one two three four five six')],
        ['f', {}, text('Bad: seven eight nine ten eleven twelve')],
        ['f', {}, text('Bad: something else entirely, with more words')],
      ),
    ],
  });
  assert.ok(r.kinds.length >= 2, r.kinds.map(k => k.template.text).join(' | '));
});

test('merge into a JSON adapter: refused with a clear error, nothing rewritten', () => {
  const existing = '{ "name": "files", "error_codes": { "NOT_FOUND_FILE": { "category": "NOT_FOUND" } } }\n';
  assert.throws(
    () => newService().inferContract({ existing, transcripts: [transcript(['t', {}, text("File 'a' not found")])] }),
    (e: unknown) => e instanceof InferRenderError && /is JSON; --merge .* merges only into a YAML adapter/.test(e.message),
  );
});

test('merge again with the same traffic: a text-only kind whose messages are a declared template is kept, not added twice', () => {
  const t = transcript(
    ['read', { path: 'a.txt' }, text("File 'a.txt' not found")],
    ['read', { path: 'b.txt' }, text("File 'b.txt' not found")],
    ['x', {}, { error: { code: -32601, message: 'Method x not found' } }],
  );
  const first = newService().inferContract({ transcripts: [t], name: 'files' });
  const edited = first.text.replace('NOT_FOUND_FILE:', 'NOT_FOUND_MY_FILE: # renamed by hand');
  const again = newService().inferContract({ transcripts: [t], existing: edited });
  assert.deepEqual(again.added, []);
  assert.deepEqual(again.kept, ['NOT_FOUND_METHOD', 'NOT_FOUND_MY_FILE']);
  assert.equal(again.text, edited);
  // A message that is none of the declared templates is still a new kind.
  const more = newService().inferContract({
    transcripts: [transcript(['read', { path: '/etc' }, text('Access denied - path outside allowed directories: /etc')])],
    existing: edited,
  });
  assert.deepEqual(more.added, ['PERMISSION_PATH_OUTSIDE']);
});

test("messages of different word counts: the varying words are one placeholder and the space stays the template's (a validator's 'Required' against 'Expected string, received number')", () => {
  const msg = (tool: string, tail: string) => text(`Input validation error: Invalid arguments for tool ${tool}: ${tail}`);
  const r = newService().inferContract({
    transcripts: [
      transcript(
        ['find_teams', {}, msg('find_teams', 'Required at organizationSlug')],
        ['find_teams', { organizationSlug: 12345 }, msg('find_teams', 'Expected string, received number at organizationSlug')],
        ['get_doc', {}, msg('get_doc', 'Required at path')],
        ['get_doc', { path: 12345 }, msg('get_doc', 'Expected string, received number at path')],
      ),
    ],
  });
  assert.equal(r.kinds.length, 1);
  assert.equal(r.kinds[0]!.template.text, 'Input validation error: Invalid arguments for tool {tool}: {value} at {value_2}');
  assert.deepEqual(validate(r.text), []);
});

test('two words that vary side by side in every message keep a placeholder each', () => {
  const r = newService().inferContract({
    transcripts: [transcript(['f', {}, text('user alice bob is locked')], ['f', {}, text('user carol dave is locked')])],
  });
  assert.equal(r.kinds[0]!.template.text, 'user {user} {value} is locked');
});
