/**
 * A strict JSON parser (RFC 8259) that keeps the document offset of every key and value, and of every
 * character inside a string (through escapes), so a diagnostic can point into a recorded response.
 * Iterative over nesting (bounded depth), linear in the text. `map` turns an offset in `text` into
 * an offset in the document (identity for a file; through a string's escapes for JSON inside a string).
 */

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

class JsonError extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

const ESC: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

export function parseJson(text: string, map: (i: number) => number = i => i): JsonParse {
  let i = 0;
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const fail = (msg: string, at = i): never => {
    throw new JsonError(map(at), msg);
  };
  const found = () => (i >= text.length ? 'the end of the text' : `'${text[i]}'`);

  const str = (): JsonNode & { kind: 'string' } => {
    const start = i++;
    let value = '';
    const rawAt: number[] = []; // text offset of each value unit
    for (;;) {
      if (i >= text.length) fail('unterminated string', start);
      const c = text[i]!;
      if (c === '"') break;
      if (c === '\\') {
        const n = text[i + 1] ?? '';
        if (n === 'u') {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('\\u must be followed by four hex digits');
          rawAt.push(i);
          value += String.fromCharCode(parseInt(hex, 16));
          i += 6;
          continue;
        }
        if (ESC[n] === undefined) fail(`invalid escape '\\${n}'`);
        rawAt.push(i);
        value += ESC[n];
        i += 2;
        continue;
      }
      if (c.charCodeAt(0) < 0x20) fail('control character in a string (escape it)');
      rawAt.push(i);
      value += c;
      i++;
    }
    const end = ++i;
    const close = end - 1;
    return { kind: 'string', start: map(start), end: map(end), value, at: k => map(k >= 0 && k < rawAt.length ? rawAt[k]! : close) };
  };

  const NUM = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const scalar = (): JsonNode => {
    const c = text[i];
    if (c === '"') return str();
    const lit = (word: string, kind: 'boolean' | 'null', value: boolean | null): JsonNode => {
      if (!text.startsWith(word, i)) fail(`unexpected ${found()}`);
      const start = i;
      i += word.length;
      return { kind, start: map(start), end: map(i), value } as JsonNode;
    };
    if (c === 't') return lit('true', 'boolean', true);
    if (c === 'f') return lit('false', 'boolean', false);
    if (c === 'n') return lit('null', 'null', null);
    NUM.lastIndex = i;
    const m = NUM.exec(text);
    if (!m || !m[0].length || m[0] === '-') fail(i >= text.length ? 'a value is missing' : `unexpected ${found()}`);
    const start = i;
    i += m![0].length;
    return { kind: 'number', start: map(start), end: map(i), value: Number(m![0]) };
  };

  type Frame = { node: JsonNode & { kind: 'object' | 'array' }; started: boolean; key?: { key: string; keyStart: number; keyEnd: number } };
  const stack: Frame[] = [];
  let root: JsonNode | undefined;
  const attach = (n: JsonNode) => {
    const top = stack[stack.length - 1];
    if (!top) {
      root = n;
      return;
    }
    if (top.node.kind === 'array') top.node.items.push(n);
    else {
      top.node.entries.push({ ...top.key!, value: n });
      top.key = undefined;
    }
  };
  const open = (): boolean => {
    const c = text[i];
    if (c !== '{' && c !== '[') return false;
    if (stack.length >= MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH} levels`);
    const node = (
      c === '{' ? { kind: 'object', start: map(i), end: map(i), entries: [] } : { kind: 'array', start: map(i), end: map(i), items: [] }
    ) as Frame['node'];
    stack.push({ node, started: false });
    i++;
    return true;
  };
  const close = () => {
    const f = stack.pop()!;
    i++;
    (f.node as { end: number }).end = map(i);
    attach(f.node);
  };

  try {
    ws();
    // A value: either a container opening (pushed) or a scalar (attached).
    const value = () => {
      ws();
      if (!open()) attach(scalar());
    };
    const keyThenValue = () => {
      ws();
      if (text[i] !== '"') fail(`expected a key in double quotes, found ${found()}`);
      const k = str();
      ws();
      if (text[i] !== ':') fail(`expected ':' after the key, found ${found()}`);
      i++;
      stack[stack.length - 1]!.key = { key: k.value, keyStart: k.start, keyEnd: k.end };
      value();
    };
    value();
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      ws();
      const closer = top.node.kind === 'array' ? ']' : '}';
      if (text[i] === closer) {
        close();
        continue;
      }
      if (top.started) {
        if (text[i] !== ',') fail(`expected ',' or '${closer}', found ${found()}`);
        const comma = i++;
        ws();
        if (text[i] === closer) fail(`trailing ',' before '${closer}'`, comma);
      }
      top.started = true;
      if (top.node.kind === 'array') value();
      else keyThenValue();
    }
    ws();
    if (i < text.length) fail(`unexpected ${found()} after the value`);
    return { ok: true, node: root! };
  } catch (e) {
    if (e instanceof JsonError) return { ok: false, offset: e.offset, message: e.message };
    throw e;
  }
}

/** The plain value of a node (what JSON.parse would give; a duplicated key keeps its last value). */
export function toValue(n: JsonNode): unknown {
  if (n.kind === 'object') return Object.fromEntries(n.entries.map(e => [e.key, toValue(e.value)]));
  if (n.kind === 'array') return n.items.map(toValue);
  return n.value;
}

/** A member of an object node (the last one, like JSON.parse, when a key is repeated). */
export function member(n: JsonNode | undefined, key: string): JsonEntry | undefined {
  if (n?.kind !== 'object') return undefined;
  for (let k = n.entries.length - 1; k >= 0; k--) if (n.entries[k]!.key === key) return n.entries[k];
  return undefined;
}

export const kindName = (n: JsonNode): string => (n.kind === 'number' && Number.isInteger(n.value) ? 'integer' : n.kind);
