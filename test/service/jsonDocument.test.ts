/**
 * A JSON adapter's Document comes from one read by the JSON reader (parse/jsonDocument.ts)
 * instead of the `yaml` composer plus a second read for `json.syntax`. The oracle is the path it
 * replaces: on every JSON adapter of the fixtures and examples, JSONTestSuite's files read as adapters
 * and fuzzed adapters, the Document equals the composer's (node classes, ranges, values, flow, errors)
 * wherever the new path takes the text, and the service gives exactly the same diagnostics, symbols,
 * quick fixes and fix-all edits either way (`jsonDocumentTesting.viaYaml`: the old path).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Document } from 'yaml';
import { fileText } from '../../bench/genWorkspace';
import type { AdapterService } from '../../server/src/service';
import { buildModel, PARSE_OPTIONS } from '../../server/src/service/parse/buildModel';
import { composeYaml, TOO_DEEP } from '../../server/src/service/parse/compose';
import { jsonDocument, jsonDocumentTesting } from '../../server/src/service/parse/jsonDocument';
import { lfLineEnds } from '../../server/src/service/parse/lineEnds';
import { newService, ROOT } from './helpers';
import { filesUnder, mutate, read, rng } from './indexScanHelpers';
import { mutateTree, randomLayout, toTree, write } from './jsonFuzz';

/** [name, text] of the real JSON adapters: fixtures, examples, the corpus adapter, generated workspace files. */
const ADAPTERS: [string, string][] = [
  ...[...filesUnder(join(ROOT, 'test', 'fixtures')), ...filesUnder(join(ROOT, 'examples'))]
    .filter(p => p.endsWith('.adapter.json'))
    .map(p => [p.slice(ROOT.length + 1), read(p)] as [string, string]),
  ['corpus/airpods.adapter.json', read(join(ROOT, 'test/fixtures/corpus/MCPAQL-examples--airpods-mcp-schema.json'))],
  ...[4, 9, 14, 19].map(i => [`gen/svc${i}.adapter.json`, fileText(i, 12)] as [string, string]),
];
const SUITE_DIR = join(ROOT, 'test', 'fixtures', 'jsontestsuite');
const SUITE: [string, string][] = readdirSync(SUITE_DIR)
  .filter(n => n.endsWith('.json'))
  .sort()
  .map(n => [n, read(join(SUITE_DIR, n))]);

/** The composer's Document of `text` as buildModel reads it (lone CRs as LF), or undefined. */
function composed(text: string): Document.Parsed | undefined {
  const c = composeYaml(text, PARSE_OPTIONS);
  return c.tooDeepAt === undefined && c.docs.length === 1 ? c.docs[0] : undefined;
}

/** The two Documents are the same, node for node (classes, ranges, values, types, flow, spaceBefore, errors). */
function assertSameDocument(mine: Document.Parsed, theirs: Document.Parsed, label: string): void {
  // The composer's options carry its directives object; the directives themselves are compared.
  const { _directives, ...options } = theirs.options as Record<string, unknown>;
  assert.ok(_directives, label);
  assert.deepStrictEqual({ ...mine }, { ...theirs, options }, label);
}

/** What the service answers for `text` under `uri`: diagnostics, symbols, each diagnostic's quick fixes, fix all. */
function answers(s: AdapterService, uri: string, text: string) {
  const doc = TextDocument.create(uri, 'json', 1, text);
  const diagnostics = s.validate(doc);
  const out = {
    diagnostics,
    symbols: s.documentSymbols(doc),
    fixes: diagnostics.map(d => s.quickFixes(doc, d.range, { diagnostics: [d] })),
    fixAll: s.fixAll(doc),
  };
  s.forget(uri);
  return out;
}

const current = newService();
const legacy = newService();

/** The Document of both paths, when the new path takes the text (buildModel reads lone CRs as LF first); whether it did. */
function assertSameDocumentOf(text: string, label: string): boolean {
  const lf = lfLineEnds(text).text;
  const mine = jsonDocument(lf, PARSE_OPTIONS);
  if (mine) {
    const theirs = composed(lf);
    assert.ok(theirs, `${label}: the composer refuses what the JSON reader took`);
    assertSameDocument(mine, theirs, label);
  }
  return mine !== undefined;
}

/** Both paths on one text, the Document and the service's answers; returns whether the new path took it. */
function assertSameAnswers(uri: string, text: string, label = uri): boolean {
  const took = assertSameDocumentOf(text, label);
  const now = answers(current, uri, text);
  jsonDocumentTesting.viaYaml = true;
  try {
    assert.deepStrictEqual(now, answers(legacy, uri, text), label);
  } finally {
    jsonDocumentTesting.viaYaml = false;
  }
  return took;
}

/** The text is one JSON object (after a byte order mark, lone CRs read as LF), as JSON.parse reads it. */
function isJsonObject(text: string): boolean {
  try {
    const v: unknown = JSON.parse(lfLineEnds(text).text.replace(/^\ufeff/, ''));
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  } catch {
    return false;
  }
}

test('every JSON adapter of the fixtures and examples: the same Document and the same answers', () => {
  let taken = 0;
  for (const [name, text] of ADAPTERS) if (assertSameAnswers(`file:///w/${name}`, text, name)) taken++;
  // Only the deliberately broken ones (json-syntax, too-deep, sendgrid-broken) take the YAML parse.
  assert.equal(taken, ADAPTERS.length - 3);
});

test('JSONTestSuite read as adapters: the new path takes exactly the strict JSON objects, with the same answers', () => {
  for (const [name, text] of SUITE) {
    const took = assertSameAnswers(`file:///w/${name.replace(/\.json$/, '.adapter.json')}`, text, name);
    if (name.startsWith('n_')) assert.equal(took, false, name);
    assert.equal(took, isJsonObject(text), name);
  }
});

test('fuzzed JSON adapters (reordered, duplicated, dropped, retyped, nested, escaped, laid out anew): the same answers', () => {
  const sources = ADAPTERS.filter(([n]) => !/json-syntax|too-deep|broken/.test(n)).map(([n, t]) => [n, JSON.parse(t) as unknown] as const);
  const r = rng(23);
  let taken = 0;
  const runs = 2000;
  for (let n = 0; n < runs; n++) {
    const [name, value] = sources[n % sources.length]!;
    const tree = toTree(value);
    for (let e = Math.floor(r() * 4); e > 0; e--) mutateTree(tree, r);
    let text = write(tree, randomLayout(r), r);
    // A fifth also get a text edit (a character or line added or dropped): mostly broken JSON, the fallback.
    if (r() < 0.2) text = mutate(text, r);
    const label = `run ${n} (${name}):\n${text}`;
    // Every text: the Document, and the new path takes it exactly when it is a JSON object. One in four: the service's answers too.
    const took = n % 4 === 0 ? assertSameAnswers(`file:///fz/${n}.adapter.json`, text, label) : assertSameDocumentOf(text, label);
    assert.equal(took, isJsonObject(text), label);
    if (took) taken++;
  }
  assert.ok(taken >= runs * 0.7, `${taken} of ${runs} took the new path`);
});

test('edge cases give the same diagnostics either way', () => {
  const cases: [string, string][] = [
    ['duplicate keys', '{"name":"a","error_codes":{"X_E":{"category":"validation"},"X_E":{"category":"auth"}},"name":"b"}'],
    ['__proto__ keys', '{"__proto__":{"x":1},"error_codes":{"__proto__":{"category":"validation"}}}'],
    ['huge numbers and -0', '{"error_codes":{"A_E":{"http_status":1e400,"x":-0,"y":123456789012345678901234567890,"z":-0.0}}}'],
    ['escapes', '{"error_codes":{"A\\u005fE":{"message":"\\"\\\\\\/\\b\\f\\n\\r\\t\\u0000","category":"valid\\u0061tion"}}}'],
    ['surrogates', '{"error_codes":{"A_E":{"message":"\\ud83d\\ude00 \\ud800 \\udc00 😀","category":"validation"}}}'],
    ['a BOM', '\ufeff{"error_codes":{"A_E":{"category":"validation"}}}\n'],
    ['a BOM and blank lines', '\ufeff\n\n  {"error_codes":{}}  \n\n'],
    ['empty object', '{}'],
    ['empty collections', '{ "error_codes" : { } , "error_mapping" : [ ] , "x" : [ [ ] , { } ] }'],
    ['whitespace only', ' \n\t\r\n '],
    ['empty', ''],
    ['CR only', '{\r"error_codes": {\r  "A_E": {"category": "validation"}\r}\r}\r'],
    ['CRLF', '{\r\n"error_codes": {\r\n\r\n  "A_E" : {"category": "nope"}\r\n}\r\n}\r\n'],
    ['tabs', '{\t"error_codes":\t{\n\t\t"A_E":\t{"category":\t"validation"}\n\t}\n}\n'],
    ['blank lines', '{\n\n"error_codes":\n\n{\n \n"A_E"\n\n:\n\n{"category":"validation"}\n\n\n,\n\n"b":[\n\n1\n\n,\n\n2]}}'],
    ['blank lines before commas', '{"a":1\n\n\n,"b":{}  \n \n,"c":[1\n\n,{}\n\n]\n\n,"d":"x"}'],
    ['a list root', '[{"error_codes":{}}]'],
    ['a scalar root', '"error_codes"'],
    ['trailing comma', '{"error_codes":{"A_E":{"category":"validation",}}}'],
    ['a long key', `{"error_codes":{"${'A'.repeat(1100)}_E":{"category":"validation"}}}`],
  ];
  for (const [label, text] of cases) assertSameAnswers('file:///w/edge.adapter.json', text, label);
});

test('nesting: 256 levels are read by the new path; 257 are refused at the same bracket either way', () => {
  const nest = (n: number) => `{"error_codes":${'['.repeat(n - 1)}${']'.repeat(n - 1)}}`;
  const uri = 'file:///w/deep.adapter.json';
  assert.ok(assertSameAnswers(uri, nest(256)));
  assert.equal(assertSameAnswers(uri, nest(257)), false);
  // The service refuses it before any parse (util/nesting.ts); buildModel alone reports it at the same place.
  const doc = TextDocument.create(uri, 'json', 1, nest(257));
  assert.deepEqual(
    current.validate(doc).map(d => [d.code, doc.offsetAt(d.range.start), doc.offsetAt(d.range.end)]),
    [['file.too-deep', 270, 271]],
  );
  const refused = buildModel(uri, nest(257))!.syntaxErrors.filter(e => e.yamlCode === TOO_DEEP);
  assert.deepEqual(
    refused.map(e => [e.start, e.end]),
    [[270, 271]],
  );
});

test('the comparison sees a range moved by one', () => {
  const text = read(join(ROOT, 'examples/weather.adapter.json'));
  const mine = jsonDocument(text, PARSE_OPTIONS)!;
  const value = (mine.contents as unknown as { items: { value: { range: number[] } }[] }).items[1]!.value;
  value.range[2]! += 1;
  assert.throws(() => assertSameDocument(mine, composed(text)!, 'moved'), /moved/);
});
