/**
 * Strict JSON → the `yaml` Document the composer gives for the same text, from the one pass of the
 * service's JSON reader (parse/jsonReader.ts, strict, with a sink), so a JSON adapter is read once
 * (docs/performance.md). Same node classes (`Document`, `YAMLMap`, `YAMLSeq`, `Pair`, `Scalar`), flow flags, scalar
 * types (QUOTE_DOUBLE for strings, PLAIN for numbers, true, false, null), values (plain scalars
 * resolved by the document's own schema tags, as the composer resolves them), `range`s (where the
 * composer's concrete syntax tree puts the white space after a node; `spaceBefore` after a blank line),
 * document `range`, no errors, no warnings: `test/service/jsonDocument.test.ts` compares both, node by
 * node, on the fixtures, JSONTestSuite and fuzzed files.
 *
 * Undefined (the caller takes the YAML parse) for anything else: text that is not strict JSON, a root
 * that is not an object, nesting past MAX_NESTING, a lone CR (buildModel reads those as LF first), or a
 * plain scalar the schema resolves with a complaint. Linear, no recursion.
 */
import { Document, type DocumentOptions, type Scalar, type SchemaOptions, type YAMLMap, type YAMLSeq } from 'yaml';
import { isScalar, MapNode, PairNode, ScalarNode, SeqNode } from './yamlNodes';
import { MAX_NESTING } from '../util/nesting';
import { JsonReader, type JsonSink } from './jsonReader';

type Range = [number, number, number];
type Coll = YAMLMap<Scalar, unknown> | YAMLSeq<unknown>;
type Node = Scalar | Coll;

interface Frame {
  readonly coll: Coll;
  readonly map: boolean;
  /** The pair whose value the next value is (maps). */
  key: Scalar | undefined;
  /** Where the last value's node ends with its trailing white space (`range[2]`); -1 before the first. */
  last: number;
}

/** Thrown by the sink to abandon the read: the composer would read this text otherwise. */
const BAIL = { bail: true } as const;
const LONE_CR = /\r(?!\n)/;

/**
 * Tests only: `viaYaml` makes `jsonDocument` decline every text, so JSON adapters take the YAML parse as
 * they did before this reader existed (test/service/jsonDocument.test.ts runs the service both ways and compares).
 */
export const jsonDocumentTesting = { viaYaml: false };

/** The Document of the strict JSON object `text`, as the composer would give it; undefined when the text is anything else. */
export function jsonDocument(text: string, options: DocumentOptions & SchemaOptions): Document.Parsed | undefined {
  if (jsonDocumentTesting.viaYaml) return undefined;
  const from = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let i = from;
  for (let c = text.charCodeAt(i); c === 32 || c === 10 || c === 13 || c === 9; c = text.charCodeAt(++i));
  if (text.charCodeAt(i) !== 123 || LONE_CR.test(text)) return undefined;
  const doc = new Document(undefined, options);
  const tags = doc.schema.tags;
  const stack: Frame[] = [];
  let root: YAMLMap | undefined;

  /** Past spaces and tabs, then one line break (what the parser gives a node that is not a sequence item). */
  const lineEnd = (p: number): number => {
    let c = text.charCodeAt(p);
    while (c === 32 || c === 9) c = text.charCodeAt(++p);
    return c === 10 ? p + 1 : c === 13 && text.charCodeAt(p + 1) === 10 ? p + 2 : p;
  };
  /** Past all white space (a sequence item's trailing white space, to the next ',' or ']'). */
  const skipSpace = (p: number): number => {
    for (let c = text.charCodeAt(p); c === 32 || c === 10 || c === 13 || c === 9; c = text.charCodeAt(++p));
    return p;
  };
  /** Back over white space from `p`: the offset of the character before it (the delimiter). */
  const delimiterBefore = (p: number): number => {
    let c = text.charCodeAt(--p);
    while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(--p);
    return p;
  };
  /** `[a, b)` holds a blank line: two line breaks (the composer's `spaceBefore`). */
  const blank = (a: number, b: number): boolean => {
    let n = 0;
    for (let p = a; p < b; p++) if (text.charCodeAt(p) === 10 && ++n === 2) return true;
    return false;
  };

  /** A value (scalar or collection opening) at `start`: its `spaceBefore`, its place in the parent; returns the parent frame. */
  const place = (node: Node, start: number): Frame | undefined => {
    const top = stack[stack.length - 1];
    if (!top) return undefined;
    if (top.map) {
      const key = top.key!;
      const colon = delimiterBefore(start);
      if (blank(key.range![1], colon) || blank(colon + 1, start)) node.spaceBefore = true;
      (top.coll as YAMLMap<Scalar, unknown>).items.push(new PairNode(key, node));
      top.key = undefined;
    } else {
      if (blank(delimiterBefore(start) + 1, start)) node.spaceBefore = true;
      (top.coll as YAMLSeq<unknown>).items.push(node);
    }
    return top;
  };
  /** The node's range once its end is known: trailing white space as the parser assigns it. */
  const finish = (node: Node, start: number, end: number, parent: Frame | undefined): void => {
    const r: Range = [start, end, parent && !parent.map ? skipSpace(end) : lineEnd(end)];
    node.range = r;
    if (parent) parent.last = r[2];
  };
  const plain = (start: number, end: number): void => {
    const source = text.slice(start, end);
    const tag = tags.find(t => t.default === true && t.test?.test(source));
    if (!tag || tag.collection) throw BAIL;
    const res = tag.resolve(
      source,
      () => {
        throw BAIL;
      },
      doc.options,
    );
    const node = isScalar(res) ? res : new ScalarNode(res);
    const parent = place(node, start);
    finish(node, start, end, parent);
    node.source = source;
    node.type = ScalarNode.PLAIN;
    if (tag.format) node.format = tag.format;
  };
  /** Frames of the open collections, kept for their `close`. */
  const opened: number[] = [];

  const sink: JsonSink = {
    open(array, start) {
      const coll: Coll = array ? new SeqNode(doc.schema) : new MapNode(doc.schema);
      coll.flow = true;
      if (!stack.length) {
        if (array) throw BAIL;
        root = coll as YAMLMap;
      } else place(coll, start);
      opened.push(start);
      stack.push({ coll, map: !array, key: undefined, last: -1 });
    },
    close(end) {
      const frame = stack.pop()!;
      finish(frame.coll, opened.pop()!, end, stack[stack.length - 1]);
    },
    key(start, end, value) {
      const top = stack[stack.length - 1]!;
      const key = new ScalarNode(value);
      key.range = [start, end, end];
      key.source = value;
      key.type = ScalarNode.QUOTE_DOUBLE;
      // The white space before the ',' belongs to this pair's start, as does the white space after it.
      const d = delimiterBefore(start);
      if (blank(d + 1, start) || (top.last >= 0 && text.charCodeAt(d) === 44 && blank(top.last, d))) key.spaceBefore = true;
      top.key = key;
    },
    string(start, end, value) {
      const node = new ScalarNode(value);
      const parent = place(node, start);
      finish(node, start, end, parent);
      node.source = value;
      node.type = ScalarNode.QUOTE_DOUBLE;
    },
    number: plain,
    literal: plain,
  };
  const reader = new JsonReader(text, from, text.length, { maxDepth: MAX_NESTING, sink });
  try {
    if (reader.read()) return undefined;
  } catch (e) {
    if (e === BAIL) return undefined;
    throw e;
  }
  const r = root!.range!;
  doc.contents = root!;
  // The document starts at the line of its '{' (blank lines before it are the stream's), after a byte order mark.
  doc.range = [Math.max(from, text.lastIndexOf('\n', r[0]) + 1), r[2], lineEnd(r[2])];
  return doc as Document.Parsed;
}
