/**
 * The nesting scan run before the `yaml` parse (util/nesting.ts).
 * It must never count fewer levels than the parser builds (fuzzed), and it places its one
 * diagnostic on the first collection past the limit.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Document, isMap, isPair, isSeq, parseAllDocuments, stringify, visit } from 'yaml';
import { MAX_NESTING, nestingOverflow, SHALLOW } from '../../server/src/service/util/nesting';
import { scanJson } from '../../server/src/service/parse/scanJson';
import { scanYaml } from '../../server/src/service/parse/scanYaml';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { parseProjectConfig } from '../../server/src/service';
import { newService } from './helpers';
import { deepAdapter, DEEP_SHAPES } from './hostileTexts';

/** The deepest collection the parser builds. */
function parsedDepth(text: string): number {
  let max = 0;
  const walk = (n: unknown, d: number): void => {
    if (!isMap(n) && !isSeq(n)) return;
    max = Math.max(max, d + 1);
    for (const it of n.items as unknown[]) {
      if (isPair(it)) {
        walk(it.key, d + 1);
        walk(it.value, d + 1);
      } else walk(it, d + 1);
    }
  };
  for (const doc of parseAllDocuments(text, { merge: true })) walk(doc.contents, 0);
  return max;
}

/** The depth the scan counts: the smallest limit it accepts. */
function scannedDepth(text: string): number {
  let d = 0;
  while (nestingOverflow(text, 0, text.length, d)) d++;
  return d;
}

test('every deep shape is counted exactly, and refused one level past the limit at its first deep collection', () => {
  for (const shape of DEEP_SHAPES) {
    const at = deepAdapter(shape, 40);
    assert.equal(scannedDepth(at.text), parsedDepth(at.text), shape);
    assert.equal(nestingOverflow(at.text), undefined, shape);
    const over = deepAdapter(shape, MAX_NESTING + 1);
    assert.deepEqual(nestingOverflow(over.text), { offset: over.firstPast, limit: MAX_NESTING }, shape);
    assert.equal(nestingOverflow(deepAdapter(shape, MAX_NESTING).text), undefined, shape);
  }
});

test('block scalars, quoted scalars and comments do not nest', () => {
  const text = [
    'a: |',
    '  - - - [[[[',
    '      k: {{{',
    'b: "[[[[ {{{{',
    '  - - -"',
    "c: '[[ ''{{'",
    'd: x # [[[[[',
    'e: plain [[[ text',
    'f:',
    '- g: >-',
    '    [[[[',
    '  h: [1]',
  ].join('\n');
  assert.equal(parsedDepth(text), 4);
  assert.equal(scannedDepth(text), 4);
  // The key after a block scalar in a compact mapping is counted, not taken for the scalar's body.
  const compact = '- k: |\n    text\n  other:\n    deeper:\n      deepest: [x]\n';
  assert.equal(parsedDepth(compact), 5);
  assert.equal(scannedDepth(compact), 5);
});

const scalar = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constantFrom('x', '- x', 'a: b', '[1, {', '"q"', "it's", '# not a comment', '|', '> x', '&a *b !t', 'multi\nline\n  - text\n[['),
  fc.string({ maxLength: 12 }),
);
const value = fc.letrec(tie => ({
  v: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('arr'), tie('obj')),
  arr: fc.array(tie('v'), { maxLength: 4 }),
  obj: fc.dictionary(fc.oneof(fc.constantFrom('k', '- k', 'a: b', '[k]', '? k'), fc.string({ maxLength: 6 })), tie('v'), { maxKeys: 4 }),
})).v;

test('fuzz: the scan never counts fewer levels than the parser builds (block, flow and mixed YAML, JSON)', () => {
  fc.assert(
    fc.property(
      value,
      fc.constantFrom('block', 'flow', 'json', 'mixed'),
      fc.boolean(),
      fc.constantFrom(0, 1, 2, 4),
      (v, style, indentSeq, spaces) => {
        const text =
          style === 'json'
            ? JSON.stringify(v, null, spaces)
            : stringify(v, { collectionStyle: style === 'mixed' ? 'any' : style, indentSeq, flowCollectionPadding: spaces > 1 });
        const parsed = parsedDepth(text);
        const scanned = scannedDepth(text);
        assert.ok(scanned >= parsed, `scanned ${scanned} < parsed ${parsed}:\n${text}`);
      },
    ),
    { numRuns: 1500 },
  );
});

const docFor = (a: { text: string; ext: string }) =>
  TextDocument.create(`file:///w/deep.adapter.${a.ext}`, a.ext === 'json' ? 'json' : 'yaml', 1, a.text);

test('service: valid text at the limit gets no false error; one level deeper gets one file.too-deep and nothing else', () => {
  const s = newService();
  for (const shape of DEEP_SHAPES) {
    const ok = docFor(deepAdapter(shape, MAX_NESTING));
    assert.deepEqual(
      s.validate(ok).map(d => d.code),
      ['schema.unknown-key'],
      shape,
    );
    const deep = deepAdapter(shape, MAX_NESTING + 1);
    const doc = docFor(deep);
    const ds = s.validate(doc);
    assert.deepEqual(
      ds.map(d => [d.code, d.severity, doc.offsetAt(d.range.start), doc.offsetAt(d.range.end), d.data]),
      [['file.too-deep', 1, deep.firstPast, deep.firstPast + 1, { limit: MAX_NESTING }]],
      shape,
    );
    assert.match(String(ds[0]!.message), /^This file nests deeper than 256 levels here; it is not parsed or checked/);
    // Nothing parsed: no features, no index entries.
    assert.deepEqual(s.documentSymbols(doc), []);
    assert.equal(s.hover(doc, doc.positionAt(deep.firstPast)), null);
    assert.deepEqual(s.indexEntries(doc), { declarations: [], occurrences: [] });
    assert.deepEqual(newService().indexEntries(doc), { declarations: [], occurrences: [] });
  }
});

test('service: 1,001 and 100,000 levels are refused by the scan alone, and a Markdown front matter is scanned too', () => {
  const s = newService();
  for (const n of [1001, 100_000]) {
    const d = deepAdapter('json-array', n);
    assert.deepEqual(
      s.validate(docFor(d)).map(x => [x.code, docFor(d).offsetAt(x.range.start)]),
      [['file.too-deep', deepAdapter('json-array', MAX_NESTING + 1).firstPast]],
    );
  }
  const fm = '---\nerror_codes:\n  X: ' + '['.repeat(300) + ']'.repeat(300) + '\n---\n' + '[[[['.repeat(100) + '\n';
  const md = TextDocument.create('file:///w/a-adapter.md', 'markdown', 1, fm);
  assert.deepEqual(
    s.validate(md).map(x => [x.code, md.offsetAt(x.range.start)]),
    [['file.too-deep', 4 + 'error_codes:\n  X: '.length + MAX_NESTING - 2]],
  );
  // The body is Markdown, not YAML: brackets there do not count.
  const body = TextDocument.create('file:///w/b-adapter.md', 'markdown', 1, '---\nerror_codes: {}\n---\n' + '['.repeat(5000) + '\n');
  assert.deepEqual(
    s.validate(body).map(x => x.code),
    [],
  );
});

test('service: broken text the scan undercounts is stopped before the composer (the same one file.too-deep)', () => {
  // `x|&a [` at the bottom of a valid 256-level staircase: the parser's recovery opens one more level.
  const base = deepAdapter('yaml-block-map', MAX_NESTING).text;
  const at = base.lastIndexOf('x');
  const text = base.slice(0, at) + '|&a [\n' + base.slice(at);
  assert.equal(nestingOverflow(text), undefined);
  const doc = TextDocument.create('file:///w/b.adapter.yaml', 'yaml', 1, text);
  const ds = newService().validate(doc);
  assert.deepEqual(
    ds.map(d => [d.code, d.message, doc.offsetAt(d.range.start)]),
    [
      [
        'file.too-deep',
        'This file nests deeper than 256 levels here; it is not parsed or checked (the parser would exhaust its stack).',
        at + '|&a '.length,
      ],
    ],
  );
});

test('config file: nested past the limit is one positioned config.invalid, not read', () => {
  const text = 'rules:\n  x: ' + '['.repeat(300) + ']'.repeat(300) + '\n';
  const { config, problems } = parseProjectConfig(text);
  assert.deepEqual(config, {});
  assert.deepEqual(
    problems.map(p => [p.code, p.message, p.range.start.line, p.range.start.character]),
    [['config.invalid', 'The config file nests deeper than 256 levels; it is not read.', 1, 5 + MAX_NESTING - 2]],
  );
  assert.deepEqual(parseProjectConfig('rules:\n  yaml.syntax: warning\n').problems, []);
});

test('keystrokes: an edit inside one line skips the scan, and typing past the limit still gets file.too-deep (from the parse)', () => {
  const s = newService();
  const uri = 'file:///w/typed.adapter.yaml';
  const base = deepAdapter('yaml-flow', MAX_NESTING);
  const at = base.text.indexOf(']');
  s.validate(TextDocument.create(uri, 'yaml', 1, base.text));
  // Type `[]` at the innermost point: one level too many.
  const typed = base.text.slice(0, at) + '[]' + base.text.slice(at);
  s.edited(uri, 1, 2, [{ start: at, end: at, text: '[]' }]);
  const doc = TextDocument.create(uri, 'yaml', 2, typed);
  assert.deepEqual(
    s.validate(doc).map(d => [d.code, doc.offsetAt(d.range.start)]),
    [['file.too-deep', at]],
  );
  // A fresh service (the whole scan) says the same.
  assert.deepEqual(
    newService()
      .validate(doc)
      .map(d => [d.code, doc.offsetAt(d.range.start)]),
    [['file.too-deep', at]],
  );
});

test('a text the index scan reads is far below the limit however the nesting scan counts it (the index pass skips that scan)', () => {
  const level = fc.constantFrom('map', 'seq', 'flow-map', 'flow-seq', 'compact-seq');
  fc.assert(
    fc.property(fc.array(level, { minLength: 1, maxLength: SHALLOW + 20 }), fc.boolean(), (levels, indentSeq) => {
      // Nested from the inside out; a compact sequence is a sequence whose items are sequences (`- - x`).
      let v: unknown = 'x';
      for (const l of [...levels].reverse()) v = l === 'map' || l === 'flow-map' ? { k: v } : [v];
      const doc = new Document(v);
      let i = 0;
      visit(doc, {
        Map: (_, n) => void (n.flow = levels[i++] === 'flow-map'),
        Seq: (_, n) => void (n.flow = levels[i++] === 'flow-seq'),
      });
      const text = doc.toString({ indentSeq });
      let read = true;
      try {
        scanYaml(text, 0, text.length);
      } catch {
        read = false;
      }
      if (read) assert.ok(scannedDepth(text) <= MAX_NESTING / 2, `scanned ${scannedDepth(text)}:\n${text}`);
    }),
    { numRuns: 400 },
  );
  // Past SHALLOW levels the scan gives the text to the model (and the index pass to the nesting scan).
  for (const shape of DEEP_SHAPES) {
    const { text, ext } = deepAdapter(shape, SHALLOW + 4);
    assert.throws(() => (ext === 'json' ? scanJson(text, 0, text.length) : scanYaml(text, 0, text.length)), shape);
  }
});

test('index entries of texts near and past the limit are those of the model, and none past the limit', () => {
  const service = newService();
  for (const shape of DEEP_SHAPES)
    for (const depth of [SHALLOW - 2, SHALLOW + 4, MAX_NESTING, MAX_NESTING + 1]) {
      const a = deepAdapter(shape, depth);
      const doc = docFor(a);
      const got = service.indexEntries(doc);
      const codes = got.declarations.map(d => d.code);
      assert.deepEqual(codes, depth <= MAX_NESTING ? ['NOT_FOUND_X'] : [], `${shape} at ${depth}`);
      service.forget(doc.uri);
    }
});
