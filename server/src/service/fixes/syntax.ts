/**
 * The syntax of the file a fix writes into: YAML (a YAML file or a Markdown front matter) or JSON.
 * Every fixer writes keys, values and mappings through this, so a JSON adapter gets `"key": "string"`
 * with its commas, and a YAML one `key: string`.
 */
import { isMap, type Node, type YAMLMap } from 'yaml';
import { TextEdit, type Range } from 'vscode-languageserver-types';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { AdapterModel, Section } from '../model/model';

export interface FileSyntax {
  readonly json: boolean;
  /** A mapping key as written: `name`, or `"name"` in JSON (YAML quotes a key only when it must). */
  key(name: string): string;
  /** A string value: `VALIDATION` / `string` stay plain in YAML (`string[]` only outside `{ }` / `[ ]`: `flow` false); JSON quotes every string. */
  value(v: string, flow?: boolean): string;
  /** `key: value`, the value already written by `value` or `map`. */
  pair(key: string, value: string): string;
  /** A one-line mapping: `{ a: string }` / `{ "a": "string" }`. */
  map(pairs: readonly (readonly [string, string])[]): string;
}

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const PLAIN_VALUE = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Outside a flow collection `string[]` is a plain scalar too. */
const PLAIN_BLOCK_VALUE = /^[A-Za-z_][A-Za-z0-9_]*(?:\[\])?$/;
/** Words YAML 1.1 readers take for booleans or null: quoted even where YAML 1.2 would not need it. */
const RESERVED = /^(?:true|false|yes|no|on|off|null|y|n)$/i;

const yamlString = (s: string): string => '"' + s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n') + '"';

const JSON_SYNTAX: FileSyntax = {
  json: true,
  key: name => JSON.stringify(name),
  value: v => JSON.stringify(v),
  pair: (k, v) => `${JSON.stringify(k)}: ${v}`,
  map: pairs => (pairs.length ? `{ ${pairs.map(([k, v]) => `${JSON.stringify(k)}: ${v}`).join(', ')} }` : '{}'),
};

const YAML_SYNTAX: FileSyntax = {
  json: false,
  key: name => (PLAIN_KEY.test(name) && !RESERVED.test(name) ? name : yamlString(name)),
  // In a flow collection `[`, `]`, `{`, `}` and `,` end a plain scalar: `string[]` is quoted there and everywhere.
  value: (v, flow = true) => ((flow ? PLAIN_VALUE : PLAIN_BLOCK_VALUE).test(v) && !RESERVED.test(v) ? v : yamlString(v)),
  pair: (k, v) => `${YAML_SYNTAX.key(k)}: ${v}`,
  map: pairs => (pairs.length ? `{ ${pairs.map(([k, v]) => YAML_SYNTAX.pair(k, v)).join(', ')} }` : '{}'),
};

export const syntaxOf = (model: Pick<AdapterModel, 'kind'>): FileSyntax => (model.kind === 'json' ? JSON_SYNTAX : YAML_SYNTAX);

const QUOTES = new Set(['"', "'"]);

/** The range without the quotes around it, when the text under it is a quoted scalar. */
function innerRange(doc: TextDocument, range: Range): Range {
  const text = doc.getText(range);
  if (text.length >= 2 && QUOTES.has(text[0]!) && text[text.length - 1] === text[0]) {
    const start = doc.offsetAt(range.start) + 1,
      end = doc.offsetAt(range.end) - 1;
    return { start: doc.positionAt(start), end: doc.positionAt(end) };
  }
  return range;
}

export { unquotedSpan } from '../util/quotes';

/** The text under a range, without the quotes of a quoted scalar. */
export const unquotedText = (doc: TextDocument, range: Range): string => doc.getText(innerRange(doc, range));

/**
 * Replace the scalar under `range` by the identifier `name`: inside its quotes in JSON (a key or value
 * stays a JSON string); the whole scalar in YAML, written plain when it may be.
 */
export const replaceScalar = (doc: TextDocument, range: Range, name: string, syntax: FileSyntax): TextEdit =>
  syntax.json ? TextEdit.replace(innerRange(doc, range), name) : TextEdit.replace(range, syntax.value(name));

const eolOf = (text: string): string => (text.includes('\r\n') ? '\r\n' : '\n');

/**
 * Insert `pairText` as the last item of a flow mapping (a JSON object, or YAML `{ … }`): on a line
 * of its own when the items are one per line, else after `, `; into `{}` as its only item.
 */
export function insertIntoFlowMap(doc: TextDocument, s: Section, map: YAMLMap, pairText: string): TextEdit | undefined {
  const text = doc.getText();
  if (!map.range) return undefined;
  const open = s.base + map.range[0],
    close = s.base + map.range[1] - 1;
  if (text[open] !== '{' || text[close] !== '}') return undefined;
  const last = map.items[map.items.length - 1];
  const lastNode = (last?.value ?? last?.key) as Node | null | undefined;
  const firstKey = map.items[0]?.key as Node | null | undefined;
  if (!lastNode?.range || !firstKey?.range) {
    const inside = text.slice(open + 1, close);
    return /^\s*$/.test(inside) ? TextEdit.replace({ start: doc.positionAt(open + 1), end: doc.positionAt(close) }, pairText) : undefined;
  }
  const end = s.base + lastNode.range[1];
  const keyStart = s.base + firstKey.range[0];
  const ls = text.lastIndexOf('\n', keyStart - 1) + 1;
  const onOwnLine = text.slice(open, keyStart).includes('\n') && /^[ \t]*$/.test(text.slice(ls, keyStart));
  if (onOwnLine) return TextEdit.insert(doc.positionAt(end), `,${eolOf(text)}${text.slice(ls, keyStart)}${pairText}`);
  return TextEdit.insert(doc.positionAt(end), `, ${pairText}`);
}

/**
 * Remove one item of a flow collection (a JSON member, a YAML `{ … }` pair or `[ … ]` item) with one
 * comma: the one after it, or, for the last item, the one before it; never leaving `,,` or `, }`.
 */
export function removeFlowItem(doc: TextDocument, start: number, end: number): TextEdit {
  const text = doc.getText();
  let j = end;
  while (j < text.length && /\s/.test(text[j]!)) j++;
  if (text[j] === ',') {
    j++;
    while (j < text.length && /\s/.test(text[j]!)) j++;
    return TextEdit.replace({ start: doc.positionAt(start), end: doc.positionAt(j) }, '');
  }
  let i = start;
  while (i > 0 && /\s/.test(text[i - 1]!)) i--;
  if (text[i - 1] === ',') return TextEdit.replace({ start: doc.positionAt(i - 1), end: doc.positionAt(end) }, '');
  return TextEdit.replace({ start: doc.positionAt(start), end: doc.positionAt(end) }, '');
}

/** The mapping that holds the key starting at `offset`, with its section (for fixes on a key). */
export function mapOfKey(model: AdapterModel, offset: number): { s: Section; map: YAMLMap; index: number } | undefined {
  for (const s of model.sections) {
    const rel = offset - s.base;
    if (rel < 0 || rel > s.text.length) continue;
    const walk = (n: unknown): { s: Section; map: YAMLMap; index: number } | undefined => {
      if (!n || typeof n !== 'object' || !(n as Node).range) return undefined;
      const node = n as Node;
      if (rel < node.range![0] || rel > node.range![2]) return undefined;
      if (isMap(node)) {
        const index = node.items.findIndex(p => (p.key as Node | null)?.range?.[0] === rel);
        if (index >= 0) return { s, map: node, index };
        for (const p of node.items) {
          const hit = walk(p.value);
          if (hit) return hit;
        }
      } else if ('items' in node && Array.isArray((node as { items: unknown[] }).items)) {
        for (const it of (node as { items: unknown[] }).items) {
          const hit = walk(it);
          if (hit) return hit;
        }
      }
      return undefined;
    };
    const hit = walk(s.doc.contents);
    if (hit) return hit;
  }
  return undefined;
}
