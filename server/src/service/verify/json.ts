/**
 * Verify's JSON tree: every key and value with its document offset, and every character inside a
 * string (through escapes), so a diagnostic can point into a recorded response. Read by the service's
 * one JSON reader (parse/jsonReader.ts), strict. `map` turns an offset in `text` into an offset in the
 * document (identity for a file; through a string's escapes for JSON inside a string).
 */
import { JsonReader, stringUnitOffsets, type JsonFault, type JsonSink } from '../parse/jsonReader';

interface JsonBase {
  readonly start: number;
  readonly end: number;
}
export interface JsonEntry {
  readonly key: string;
  readonly keyStart: number;
  readonly keyEnd: number;
  readonly value: JsonNode;
}
export type JsonNode =
  | (JsonBase & { readonly kind: 'object'; readonly entries: JsonEntry[] })
  | (JsonBase & { readonly kind: 'array'; readonly items: JsonNode[] })
  | (JsonBase & {
      readonly kind: 'string';
      readonly value: string;
      /** Document offset of the value's i-th UTF-16 unit (i = length: the closing quote). */ at(i: number): number;
    })
  | (JsonBase & { readonly kind: 'number'; readonly value: number })
  | (JsonBase & { readonly kind: 'boolean'; readonly value: boolean })
  | (JsonBase & { readonly kind: 'null'; readonly value: null });

type JsonParse = { readonly ok: true; readonly node: JsonNode } | { readonly ok: false; readonly offset: number; readonly message: string };

export const MAX_DEPTH = 256;

type Container = JsonNode & { kind: 'object' | 'array' };

/**
 * The JSON value of `text[from, to)`, read strictly by parse/jsonReader.ts (at most MAX_DEPTH
 * containers open). `map` turns an offset in `text` into a document offset: every node, key and
 * string unit offset goes through it, and so does a failure's.
 */
export function parseJson(text: string, map: (i: number) => number = i => i, from = 0, to = text.length): JsonParse {
  const open: Container[] = [];
  const keys: ({ key: string; keyStart: number; keyEnd: number } | undefined)[] = [];
  let key: { key: string; keyStart: number; keyEnd: number } | undefined;
  let root: JsonNode | undefined;
  const attach = (n: JsonNode) => {
    const top = open[open.length - 1];
    if (!top) root = n;
    else if (top.kind === 'array') top.items.push(n);
    else {
      // Spelled out: a spread here cost two thirds of a parse (V8 clones through a slow path).
      top.entries.push({ key: key!.key, keyStart: key!.keyStart, keyEnd: key!.keyEnd, value: n });
      key = undefined;
    }
  };
  const sink: JsonSink = {
    open(array, start) {
      const at = map(start);
      open.push(array ? { kind: 'array', start: at, end: at, items: [] } : { kind: 'object', start: at, end: at, entries: [] });
      keys.push(key);
      key = undefined;
    },
    close(end) {
      const n = open.pop()!;
      (n as { end: number }).end = map(end);
      key = keys.pop();
      attach(n);
    },
    key(start, end, value) {
      key = { key: value, keyStart: map(start), keyEnd: map(end) };
    },
    string(start, end, value) {
      let units: number[] | undefined; // the text offset of each unit, found when first asked
      const at = (k: number) => {
        units ??= stringUnitOffsets(text, start);
        return map(k >= 0 && k < units.length ? units[k]! : end - 1);
      };
      attach({ kind: 'string', start: map(start), end: map(end), value, at });
    },
    number(start, end) {
      attach({ kind: 'number', start: map(start), end: map(end), value: Number(text.slice(start, end)) });
    },
    literal(start, end, value) {
      attach(
        value === null
          ? { kind: 'null', start: map(start), end: map(end), value }
          : { kind: 'boolean', start: map(start), end: map(end), value },
      );
    },
  };
  const fault = new JsonReader(text, from, to, { maxDepth: MAX_DEPTH, sink }).read();
  return fault ? { ok: false, offset: map(fault.at), message: faultMessage(text, fault) } : { ok: true, node: root! };
}

function faultMessage(text: string, f: JsonFault): string {
  const found = f.eof ? 'the end of the text' : `'${text[f.at]}'`;
  const closer = f.array ? ']' : '}';
  switch (f.kind) {
    case 'unclosed-string':
      return 'unterminated string';
    case 'control':
      return 'control character in a string (escape it)';
    case 'unicode-escape':
      return '\\u must be followed by four hex digits';
    case 'escape':
      return `invalid escape '\\${text.slice(f.at + 1, f.end)}'`;
    case 'value':
      return f.eof ? 'a value is missing' : `unexpected ${found}`;
    case 'key':
      return `expected a key in double quotes, found ${found}`;
    case 'colon':
      return `expected ':' after the key, found ${found}`;
    case 'comma':
      return `expected ',' or '${closer}', found ${found}`;
    case 'trailing-comma':
      return `trailing ',' before '${closer}'`;
    case 'trailing-text':
      return `unexpected ${found} after the value`;
    case 'deep':
      return `nesting deeper than ${MAX_DEPTH} levels`;
    case 'unclosed-single':
      return `unexpected ${found}`; // a lenient kind: a strict read does not end with it
  }
}

/** The plain value of a node (what JSON.parse would give; a duplicated key keeps its last value). */
export function toValue(n: JsonNode): unknown {
  // A container of plainJson.ts's view holds the value JSON.parse gave: the same, already built.
  const raw = (n as { readonly raw?: unknown }).raw;
  if (raw !== undefined) return raw;
  if (n.kind === 'object') return Object.fromEntries(n.entries.map(e => [e.key, toValue(e.value)]));
  if (n.kind === 'array') return n.items.map(toValue);
  return n.value;
}

/** A member of an object node (the last one, like JSON.parse, when a key is repeated). */
export function member(n: JsonNode | undefined, key: string): JsonEntry | undefined {
  if (n?.kind !== 'object') return undefined;
  // A plainJson.ts object looks the key up in the value JSON.parse gave (which kept the last one).
  const own = (n as { entryOf?: (key: string) => JsonEntry | undefined }).entryOf;
  if (own) return own.call(n, key);
  for (let k = n.entries.length - 1; k >= 0; k--) if (n.entries[k]!.key === key) return n.entries[k];
  return undefined;
}

export const kindName = (n: JsonNode): string => (n.kind === 'number' && Number.isInteger(n.value) ? 'integer' : n.kind);
