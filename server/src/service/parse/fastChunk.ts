/**
 * The nodes of one chunk (parse/chunk.ts) built straight from its text, for the plainest chunks only: what the
 * `yaml` parser would compose from them (the same classes, own properties and ranges), without its lexer,
 * syntax tree and composer, which cost most of a large file's parse (docs/performance.md, "Big files").
 *
 * Read: block mappings, one `key: value` per line, at one indentation per level; a value on its line is a plain
 * word or a decimal integer, a one-line quoted string without escapes, or a one-line flow sequence or mapping of
 * those; a key alone on its line opens a deeper block mapping. Anything else (comments, blank lines, trailing
 * spaces, tabs, CR, block sequences, anchors, tags, multi-line or escaped scalars, empty values, words the core
 * schema reads as null, booleans or floats) returns undefined and the chunk takes the `yaml` parse.
 * test/service/fastChunk.test.ts compares both on every fixture's and example's chunks and on generated ones.
 */
import { Document, Pair, Scalar, YAMLMap, YAMLSeq, type Schema } from 'yaml';
import { flat, trimmed } from './flat';

/** A plain scalar the core schema reads as this very string. */
const WORD = /^[A-Za-z_][A-Za-z0-9_]*$/;
const NOT_STRING = /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE)$/;
/** A decimal integer that stays exact as a number. */
const INT = /^(?:0|[1-9][0-9]{0,14})$/;
/** Characters that end the fast read of a chunk at once. */
const REFUSED = /[#\t\r\\&*!|>%@`]|[ ]\n|\n\n|^\n/;
const MAX_DEPTH = 16;
/** [A-Za-z0-9_] */
const isWordChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;

/** The schema of the last options seen (the parse always passes the same PARSE_OPTIONS). */
let lastSchema: { readonly options: object; readonly schema: Schema } | undefined;
const schemaOf = (options: object): Schema => {
  if (lastSchema?.options !== options) lastSchema = { options, schema: new Document(undefined, options).schema };
  return lastSchema.schema;
};

/**
 * Plain words seen before: a key or value written in every entry (`category`, `VALIDATION`, `string`) is one string,
 * not a copy per node (a 14 MiB adapter: some 20 MB; bench/NOTES.md, "Big files"). A table indexed by a hash of a
 * word's length and a few of its characters, one word per slot, compared in place (a hit allocates nothing); a word
 * kept is a copy (flat), never a view that would keep its chunk's text alive.
 */
const WORDS = 4096;
const words: (string | undefined)[] = new Array<string | undefined>(WORDS);
const MAX_WORD = 40;
function wordAt(t: string, s: number, e: number): string {
  const n = e - s;
  if (n > MAX_WORD) return t.slice(s, e);
  const h = (n * 31 + t.charCodeAt(s)) * 961 + t.charCodeAt(e - 1) * 31 + t.charCodeAt(s + (n >> 1)) + t.charCodeAt(e - 2 - (n >> 2)) * 7;
  const slot = h & (WORDS - 1);
  const known = words[slot];
  if (known !== undefined && known.length === n && t.startsWith(known, s)) return known;
  const w = flat(t.slice(s, e));
  words[slot] = w;
  return w;
}

class Refused {}
const REFUSE = new Refused();
const refuse = (): never => {
  throw REFUSE;
};

/**
 * The pairs of `t`'s root mapping as `yaml` composes them with `options`, their ranges moved by `at` (where the chunk
 * is placed), or undefined: not a chunk this reads.
 */
export function fastPairs(t: string, options: object, at = 0): Pair[] | undefined {
  // A chunk of error_codes / error_mapping ends with the indentation of the next entry's key (its nodes end before it).
  let last = t.length;
  while (last > 0 && t.charCodeAt(last - 1) === 32) last--;
  if (t.charCodeAt(last - 1) !== 10 || REFUSED.test(t)) return undefined;
  try {
    const schema = schemaOf(options);
    const lines: number[] = [0];
    for (let i = t.indexOf('\n'); i >= 0 && i < last - 1; i = t.indexOf('\n', i + 1)) lines.push(i + 1);
    const indent = (line: number) => {
      const s = lines[line]!;
      let i = s;
      while (t.charCodeAt(i) === 32) i++;
      return i - s;
    };
    const lineEnd = (line: number) => (line + 1 < lines.length ? lines[line + 1]! - 1 : last - 1);

    /** The block mapping of lines [from, to) at indentation `ind`. */
    const blockMap = (from: number, to: number, ind: number, depth: number): YAMLMap => {
      if (depth > MAX_DEPTH) refuse();
      const map = new YAMLMap(schema);
      let line = from;
      while (line < to) {
        if (indent(line) !== ind) refuse();
        const s = lines[line]! + ind;
        const e = lineEnd(line);
        const colon = t.indexOf(':', s);
        if (colon < 0 || colon > e) refuse();
        const key = word(s, colon, colon);
        if (colon + 1 === e) {
          // A key alone on its line: the deeper lines that follow are its block mapping.
          let next = line + 1;
          while (next < to && indent(next) > ind) next++;
          if (next === line + 1) refuse();
          const inner = indent(line + 1);
          const value = blockMap(line + 1, next, inner, depth + 1);
          map.items.push(new Pair(key, value));
          line = next;
          continue;
        }
        if (t.charCodeAt(colon + 1) !== 32 || t.charCodeAt(colon + 2) === 32) refuse();
        const value = inlineValue(colon + 2, e);
        map.items.push(new Pair(key, value));
        line++;
      }
      map.items = trimmed(map.items);
      const first = map.items[0]!.key as Scalar;
      const end = to < lines.length ? lines[to]! : last;
      map.range = [first.range![0], end + at, end + at];
      return map;
    };

    /** A plain key or value [s, e), its node ending at `nodeEnd`. */
    const word = (s: number, e: number, nodeEnd: number): Scalar => {
      const src = wordAt(t, s, e);
      let value: string | number;
      if (INT.test(src)) value = Number(src);
      else if (WORD.test(src) && !NOT_STRING.test(src)) value = src;
      else return refuse();
      return scalar(value, s, e, nodeEnd, src, 'PLAIN');
    };

    const scalar = (value: string | number, s: number, e: number, nodeEnd: number, source: string, type: Scalar.Type): Scalar => {
      const n = new Scalar(value);
      n.range = [s + at, e + at, nodeEnd + at];
      n.source = source;
      n.type = type;
      return n;
    };

    /** A quoted string from `s` (its opening quote) on the line ending at `lineEnd`: the node and where it ends. */
    const quoted = (s: number, lineEnd: number): [Scalar, number] => {
      const q = t[s]!;
      const close = t.indexOf(q, s + 1);
      if (close < 0 || close > lineEnd) refuse();
      const value = t.slice(s + 1, close);
      return [scalar(value, s, close + 1, close + 1, value, q === '"' ? 'QUOTE_DOUBLE' : 'QUOTE_SINGLE'), close + 1];
    };

    /** The value that fills [s, lineEnd) of a `key: value` line. */
    const inlineValue = (s: number, e: number): Scalar | YAMLMap | YAMLSeq => {
      const c = t[s];
      if (c === '"' || c === "'") {
        const [n, end] = quoted(s, e);
        if (end !== e) refuse();
        n.range![2] = e + 1 + at;
        return n;
      }
      if (c === '[' || c === '{') {
        const [n, end] = flow(s, e);
        if (end !== e) refuse();
        n.range![2] = e + 1 + at;
        return n;
      }
      return word(s, e, e + 1);
    };

    /** A one-line flow sequence or mapping from `s` (its bracket): the node and where it ends. */
    const flow = (s: number, e: number): [YAMLMap | YAMLSeq, number] => {
      const isMap = t[s] === '{';
      const close = isMap ? '}' : ']';
      const node = isMap ? new YAMLMap(schema) : new YAMLSeq(schema);
      node.flow = true;
      let i = s + 1;
      const spaces = () => {
        while (t.charCodeAt(i) === 32) i++;
      };
      spaces();
      if (t[i] === close) refuse();
      for (;;) {
        const item = flowScalar(e, isMap ? ':' : undefined);
        i = item.end;
        let value: Scalar | undefined;
        if (isMap) {
          if (t[i] !== ':' || t.charCodeAt(i + 1) !== 32) refuse();
          i += 2;
          spaces();
          const v = flowScalar(e, undefined);
          value = v.node;
          i = v.end;
        }
        const last = (value ?? item.node).range!;
        if (isMap) (node as YAMLMap).items.push(new Pair(item.node, value));
        else (node as YAMLSeq).items.push(item.node);
        if (t[i] === ',') {
          if (t.charCodeAt(i + 1) !== 32) refuse();
          i += 2;
          if (t.charCodeAt(i) === 32) refuse();
          continue;
        }
        spaces();
        if (t[i] !== close) refuse();
        last[2] = i + at;
        i++;
        break;
      }
      if (i > e) refuse();
      node.items = trimmed(node.items as Pair[]) as typeof node.items;
      node.range = [s + at, i + at, i + at];
      return [node, i];

      function flowScalar(lineEnd: number, stop: string | undefined): { node: Scalar; end: number } {
        if (t[i] === '"' || t[i] === "'") {
          const [n, end] = quoted(i, lineEnd);
          return { node: n, end };
        }
        let j = i;
        while (j < lineEnd && isWordChar(t.charCodeAt(j))) j++;
        if (j === i || (stop && t[j] !== stop) || (!stop && t[j] !== ',' && t[j] !== ' ' && t[j] !== close)) refuse();
        return { node: word(i, j, j), end: j };
      }
    };

    const root = blockMap(0, lines.length, indent(0), 0);
    return root.items as Pair[];
  } catch (e) {
    if (e === REFUSE) return undefined;
    throw e;
  }
}
