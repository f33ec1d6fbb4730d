/**
 * Fuzzed JSON adapters for test/service/jsonDocument.test.ts: a real adapter read into a tree that keeps
 * duplicate keys and number spellings, mutated (entries reordered, duplicated, dropped, retyped, nested,
 * keys renamed, odd strings and numbers), then written back in a random layout (indentation, line
 * breaks CRLF or CR, blank lines, spaces around ':' and ',', escapes, a byte order mark). Seeded.
 */

export type J =
  | { readonly t: 'o'; pairs: [string, J][] }
  | { readonly t: 'a'; items: J[] }
  | { readonly t: 's'; v: string }
  | { readonly t: 'n'; src: string }
  | { readonly t: 'l'; src: 'true' | 'false' | 'null' };

/** A JSON value (JSON.parse's) as a tree. */
export function toTree(v: unknown): J {
  if (Array.isArray(v)) return { t: 'a', items: v.map(toTree) };
  if (v && typeof v === 'object') return { t: 'o', pairs: Object.entries(v).map(([k, x]) => [k, toTree(x)]) };
  if (typeof v === 'string') return { t: 's', v };
  if (typeof v === 'number') return { t: 'n', src: String(v) };
  return { t: 'l', src: v === true ? 'true' : v === false ? 'false' : 'null' };
}

const NUMBERS = ['0', '-0', '404', '500', '1.50', '1e400', '-1e400', '1E+2', '1e-7', '12345678901234567890', '-0.0', '0.1'];
const MORE_NUMBERS = ['9007199254740993', '1' + '0'.repeat(30), '1.0', '2e0', '-12', '3.14159', '0e0', '1E-400'];
const STRINGS = ['', 'NOT_FOUND', 'x'.repeat(1100), '<<', '__proto__', 'a: b', '- x', '# c', '{x}', '{bad', '\u2028', '\u0085'];
const MORE_STRINGS = ['\x7f', '\ufeff', '😀', '\ud800', '\udc00x', 'é', '"q"', 'back\\slash', 'tab\t', 'nl\n', '\u0000', 'GET /a/{id}'];
const ODD = ['*a', '&a', '!tag', '%d', '@x', '`x', '---', '...', '? k', 'true', '404', 'null'];
const KEYS = ['__proto__', '', '<<', 'error_codes', 'error_mapping', 'code', 'http_status', 'category', 'details', 'maps_from_http'];
const MORE_KEYS = ['message', 'a:b', 'x'.repeat(1030), '404', 'constructor', '"', 'condition', 'template', 'type', 'name'];

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

function scalar(r: () => number): J {
  const k = r();
  if (k < 0.35) return { t: 'n', src: pick(r, [...NUMBERS, ...MORE_NUMBERS]) };
  if (k < 0.8) return { t: 's', v: pick(r, [...STRINGS, ...MORE_STRINGS, ...ODD]) };
  return { t: 'l', src: pick(r, ['true', 'false', 'null'] as const) };
}

/** Every object and array of the tree. */
function containers(j: J, out: (J & { t: 'o' | 'a' })[] = []): (J & { t: 'o' | 'a' })[] {
  if (j.t === 'o') {
    out.push(j);
    for (const [, v] of j.pairs) containers(v, out);
  } else if (j.t === 'a') {
    out.push(j);
    for (const v of j.items) containers(v, out);
  }
  return out;
}

const clone = (j: J): J => JSON.parse(JSON.stringify(j)) as J;

/** One structural edit somewhere in the tree (in place). */
export function mutateTree(root: J, r: () => number): void {
  const c = pick(r, containers(root));
  const list: unknown[] = c.t === 'o' ? c.pairs : c.items;
  const at = Math.floor(r() * list.length);
  const valueAt = (i: number): J => (c.t === 'o' ? c.pairs[i]![1] : c.items[i]!);
  const setAt = (i: number, v: J) => (c.t === 'o' ? (c.pairs[i]![1] = v) : (c.items[i] = v));
  switch (Math.floor(r() * 7)) {
    case 0: // reorder
      for (let i = list.length - 1; i > 0; i--) {
        const k = Math.floor(r() * (i + 1));
        [list[i], list[k]] = [list[k], list[i]];
      }
      return;
    case 1: // duplicate (a duplicate key, in an object)
      if (list.length) list.splice(at, 0, c.t === 'o' ? [c.pairs[at]![0], clone(c.pairs[at]![1])] : clone(c.items[at]!));
      return;
    case 2: // drop
      list.splice(at, 1);
      return;
    case 3: // retype
      if (list.length) {
        const v = valueAt(at);
        const s = r();
        setAt(
          at,
          s < 0.5
            ? scalar(r)
            : s < 0.6
              ? { t: 'o', pairs: [] }
              : s < 0.7
                ? { t: 'a', items: [] }
                : v.t === 's' && /^-?\d+$/.test(v.v)
                  ? { t: 'n', src: v.v }
                  : v.t === 'n'
                    ? { t: 's', v: v.src }
                    : { t: 's', v: JSON.stringify(v).slice(0, 40) },
        );
      }
      return;
    case 4: // nest
      if (list.length) {
        const v = valueAt(at);
        setAt(at, r() < 0.5 ? { t: 'a', items: [v] } : { t: 'o', pairs: [[pick(r, KEYS), v]] });
      }
      return;
    case 5: // rename a key, or add an entry
      if (c.t === 'o' && c.pairs.length && r() < 0.5) c.pairs[at]![0] = pick(r, [...KEYS, ...MORE_KEYS, ...ODD]);
      else if (c.t === 'o') c.pairs.splice(at, 0, [pick(r, [...KEYS, ...MORE_KEYS]), scalar(r)]);
      else c.items.splice(at, 0, scalar(r));
      return;
    default: // a scalar somewhere
      if (list.length) setAt(at, scalar(r));
  }
}

export interface Layout {
  readonly indent: string;
  readonly nl: string;
  readonly colon: string;
  readonly comma: string;
  /** Probability of a blank line (with or without spaces) before an entry. */
  readonly blank: number;
  /** Probability of writing a character of a string as an escape. */
  readonly escape: number;
  readonly bom: boolean;
  readonly lead: string;
  readonly trail: string;
}

export function randomLayout(r: () => number): Layout {
  return {
    indent: pick(r, ['', '', '  ', '  ', '    ', '\t', ' ']),
    nl: pick(r, ['\n', '\n', '\n', '\r\n', '\r']),
    colon: pick(r, [':', ': ', ': ', ' : ', ' :', ':\t', ':  ', '\n\n:', ':\n \n']),
    comma: pick(r, [',', ',', ', ', ' ,', '\t,', ' , ', '\n\n,', ' \n\t\n ,']),
    blank: pick(r, [0, 0, 0.05, 0.3]),
    escape: pick(r, [0, 0, 0.02, 0.3]),
    bom: r() < 0.1,
    lead: pick(r, ['', '', '', ' ', '\n', '\n\n  ', '\t', ' \n\t\n']),
    trail: pick(r, ['', '\n', '\n', '  \n', '\n\n', '\n \n\n', '\t', ' \n\t \n ']),
  };
}

const SHORT: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const hex4 = (c: number, r: () => number) => {
  const h = c.toString(16).padStart(4, '0');
  return '\\u' + (r() < 0.5 ? h : h.toUpperCase());
};

function quote(s: string, L: Layout, r: () => number): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!,
      c = s.charCodeAt(i);
    if (SHORT[ch] !== undefined) out += r() < L.escape ? hex4(c, r) : SHORT[ch];
    else if (c < 0x20) out += hex4(c, r);
    else if (ch === '/' && r() < L.escape * 2) out += '\\/';
    else if (r() < L.escape) out += hex4(c, r);
    else out += ch;
  }
  return out + '"';
}

/** The tree as JSON text in the layout `L`. */
export function write(j: J, L: Layout, r: () => number): string {
  const parts: string[] = [L.bom ? '\ufeff' : '', L.lead];
  const line = (depth: number) => {
    if (!L.indent) return;
    if (r() < L.blank) parts.push(L.nl, pick(r, ['', ' ', '\t', '  ']));
    parts.push(L.nl, L.indent.repeat(depth));
  };
  const go = (v: J, depth: number) => {
    if (v.t === 's') parts.push(quote(v.v, L, r));
    else if (v.t === 'n' || v.t === 'l') parts.push(v.src);
    else {
      const open = v.t === 'o' ? '{' : '[';
      const n = v.t === 'o' ? v.pairs.length : v.items.length;
      parts.push(open);
      for (let i = 0; i < n; i++) {
        if (i) parts.push(L.comma);
        line(depth + 1);
        if (v.t === 'o') {
          parts.push(quote(v.pairs[i]![0], L, r), L.colon);
          go(v.pairs[i]![1], depth + 1);
        } else go(v.items[i]!, depth + 1);
      }
      if (n) line(depth);
      parts.push(v.t === 'o' ? '}' : ']');
    }
  };
  go(j, 0);
  parts.push(L.trail);
  return parts.join('');
}
