/**
 * A JSON-with-comments reader for hosts' MCP config files (VS Code's mcp.json allows `//` and block
 * comments and trailing commas; Claude Desktop's and Cursor's are JSON): a tree with each value's span,
 * so `watch --print-config` can rewrite one server and leave every other byte of the file as it was.
 * Iterative over containers' depth only through recursion bounded by MAX_DEPTH.
 */

export type JsoncNode =
  | { readonly kind: 'object'; readonly start: number; readonly end: number; readonly entries: readonly JsoncEntry[] }
  | { readonly kind: 'array'; readonly start: number; readonly end: number; readonly items: readonly JsoncNode[] }
  | { readonly kind: 'string'; readonly start: number; readonly end: number; readonly value: string }
  | { readonly kind: 'number' | 'boolean' | 'null'; readonly start: number; readonly end: number; readonly value: unknown };

export interface JsoncEntry {
  readonly key: string;
  readonly keyStart: number;
  readonly value: JsoncNode;
}

export class JsoncError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const MAX_DEPTH = 64;

export function readJsonc(text: string): JsoncNode {
  let i = 0;
  const skip = () => {
    for (;;) {
      const c = text[i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\uFEFF') i++;
      else if (c === '/' && text[i + 1] === '/') {
        const nl = text.indexOf('\n', i);
        i = nl < 0 ? text.length : nl;
      } else if (c === '/' && text[i + 1] === '*') {
        const close = text.indexOf('*/', i + 2);
        if (close < 0) throw new JsoncError('a comment that is not closed', i);
        i = close + 2;
      } else return;
    }
  };
  const str = (): string => {
    const start = i;
    i++;
    for (;;) {
      const c = text[i];
      if (c === undefined || c === '\n') throw new JsoncError('a string that is not closed', start);
      if (c === '\\') i += 2;
      else if (c === '"') break;
      else i++;
    }
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      throw new JsoncError('a string with a bad escape', start);
    }
  };
  const value = (depth: number): JsoncNode => {
    if (depth > MAX_DEPTH) throw new JsoncError(`nested more than ${MAX_DEPTH} levels`, i);
    skip();
    const start = i;
    const c = text[i];
    if (c === '{') {
      i++;
      const entries: JsoncEntry[] = [];
      for (;;) {
        skip();
        if (text[i] === '}') break;
        if (text[i] !== '"') throw new JsoncError('a key (a string in double quotes) or } expected', i);
        const keyStart = i;
        const key = str();
        skip();
        if (text[i] !== ':') throw new JsoncError("':' expected after a key", i);
        i++;
        entries.push({ key, keyStart, value: value(depth + 1) });
        skip();
        if (text[i] === ',') i++;
        else if (text[i] !== '}') throw new JsoncError("',' or '}' expected", i);
      }
      i++;
      return { kind: 'object', start, end: i, entries };
    }
    if (c === '[') {
      i++;
      const items: JsoncNode[] = [];
      for (;;) {
        skip();
        if (text[i] === ']') break;
        items.push(value(depth + 1));
        skip();
        if (text[i] === ',') i++;
        else if (text[i] !== ']') throw new JsoncError("',' or ']' expected", i);
      }
      i++;
      return { kind: 'array', start, end: i, items };
    }
    if (c === '"') return { kind: 'string', start, end: (str(), i), value: JSON.parse(text.slice(start, i)) as string };
    const m = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 64));
    if (!m) throw new JsoncError(c === undefined ? 'the text ends where a value is expected' : 'a value expected', i);
    i += m[0].length;
    const v = JSON.parse(m[0]) as unknown;
    return { kind: v === null ? 'null' : typeof v === 'boolean' ? 'boolean' : 'number', start, end: i, value: v };
  };
  const root = value(0);
  skip();
  if (i < text.length) throw new JsoncError('more text after the value', i);
  return root;
}

export const entryOf = (n: JsoncNode | undefined, key: string): JsoncEntry | undefined =>
  n?.kind === 'object' ? [...n.entries].reverse().find(e => e.key === key) : undefined;

/** The plain value of a node (objects and arrays copied). */
export function plain(n: JsoncNode): unknown {
  if (n.kind === 'object') return Object.fromEntries(n.entries.map(e => [e.key, plain(e.value)]));
  if (n.kind === 'array') return n.items.map(plain);
  return n.value;
}

/** 1-based line and column of an offset, for messages. */
export function lineCol(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `${line}:${offset - before.lastIndexOf('\n')}`;
}
