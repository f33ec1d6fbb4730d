/** What completion completes at an offset (`slotAt`), found from the parsed tree; what hover and navigation point at is cursor.ts. */
import { isMap, isScalar, isSeq, type Node, type Pair, type Scalar, type YAMLMap } from 'yaml';
import type { AdapterModel, CodeDef, MappingEntry, Section } from '../model/model';
import { unquotedSpan } from '../util/quotes';
import { entryAt } from './cursor';
import { sourceText } from '../util/pieceText';

/**
 * What completion completes at an offset, decided from the parsed tree (the key path of the node
 * under the cursor, and whether it is a key or a value), never from the line's text alone. The same
 * for YAML, Markdown front matter and JSON (a flow mapping in YAML terms).
 */
export type Slot =
  | { readonly kind: 'codeName'; readonly edit: SlotEdit }
  | { readonly kind: 'category'; readonly edit: SlotEdit }
  | { readonly kind: 'retry'; readonly edit: SlotEdit }
  | { readonly kind: 'detailType'; readonly edit: SlotEdit }
  | { readonly kind: 'placeholder'; readonly owner: Owner; readonly start: number; readonly end: number }
  | { readonly kind: 'condition'; readonly before: string; readonly edit: SlotEdit }
  | {
      readonly kind: 'entryKey';
      readonly block: 'error_codes' | 'error_mapping';
      readonly owner?: Owner;
      readonly present: ReadonlySet<string>;
      readonly edit: SlotEdit;
    }
  | { readonly kind: 'detailsKey'; readonly owner?: Owner; readonly present: ReadonlySet<string>; readonly edit: SlotEdit }
  | { readonly kind: 'detailSpecKey'; readonly present: ReadonlySet<string>; readonly edit: SlotEdit }
  | { readonly kind: 'statusKey'; readonly present: ReadonlySet<string>; readonly edit: SlotEdit }
  /** A key directly under `error_codes`: the name of a new code. */
  | { readonly kind: 'newCodeName'; readonly edit: SlotEdit };

export type Owner = { kind: 'code'; def: CodeDef } | { kind: 'mapping'; entry: MappingEntry };

/**
 * Where the completed word goes: `start`–`end` is replaced (the word under the cursor, inside its
 * quotes); `quote` is the quote to write around it when there is none yet (JSON), `colon` whether a
 * key needs its `: ` written.
 */
export interface SlotEdit {
  readonly start: number;
  readonly end: number;
  readonly typed: string;
  readonly quote: '' | '"';
  readonly colon: boolean;
  /** Inside `{ }` / `[ ]` (YAML flow or JSON). */ readonly flow: boolean;
  /** Written before the value: a space right after `key:` (`code:|`), else nothing. */ readonly lead?: ' ';
  /** A JSON key typed inside its quotes with no `:` after them: the range covers the closing quote, to write `key": …`. */ readonly closes?: true;
}

type Path = readonly (string | number)[];
interface Hit {
  readonly role: 'key' | 'value';
  readonly path: Path;
  readonly scalar?: Node;
  readonly map?: YAMLMap;
  readonly s: Section;
}

export function slotAt(model: AdapterModel, offset: number): Slot | undefined {
  // Inside a template or a condition string: the model knows those spans exactly.
  const owner = entryAt(model, offset);
  const t = owner && (owner.kind === 'code' ? owner.def.template : owner.entry.template);
  if (owner && t && offset > t.span.start && offset <= t.span.end) {
    const rel = offset - t.span.start;
    const open = t.raw.lastIndexOf('{', rel - 1);
    if (open >= 0 && /^[A-Za-z0-9_]*$/.test(t.raw.slice(open + 1, rel))) {
      let end = rel;
      while (end < t.raw.length && /[A-Za-z0-9_]/.test(t.raw[end]!)) end++;
      if (t.raw[end] === '}') end++;
      return { kind: 'placeholder', owner, start: t.span.start + open, end: t.span.start + end };
    }
  }
  const hit = locate(model, offset);
  if (!hit) return undefined;
  const p = hit.path;
  const edit = slotEdit(model, hit, offset);
  const block = p[0] === 'error_codes' || p[0] === 'error_mapping' ? p[0] : undefined;
  if (!block) return undefined;
  const present = (m: YAMLMap | undefined) => new Set((m?.items ?? []).map(x => String((x.key as Scalar | null)?.value)));
  const ownerAt = (): Owner | undefined => {
    if (block === 'error_codes') {
      const def = model.codes.find(c => c.name === String(p[1]) && c.node === hit.map);
      return def && { kind: 'code', def };
    }
    const entry = model.mappings.find(m => m.node === hit.map);
    return entry && { kind: 'mapping', entry };
  };
  // Depth of the entry's own keys: error_codes.X.key, error_mapping.404.key, error_mapping.404[i].key.
  const entryDepth = block === 'error_codes' || typeof p[2] !== 'number' ? 2 : 3;
  if (hit.role === 'key') {
    if (p.length === 1)
      return block === 'error_mapping' ? { kind: 'statusKey', present: present(hit.map), edit } : { kind: 'newCodeName', edit };
    if (p.length === entryDepth) return { kind: 'entryKey', block, owner: ownerAt(), present: present(hit.map), edit };
    if (p.length === entryDepth + 1 && p[entryDepth] === 'details') {
      const def = model.codes.find(c => c.detailsNode && c.detailsNode === hit.map);
      const entry = def ? undefined : model.mappings.find(m => m.detailsNode && m.detailsNode === hit.map);
      return {
        kind: 'detailsKey',
        owner: def ? { kind: 'code', def } : entry && { kind: 'mapping', entry },
        present: present(hit.map),
        edit,
      };
    }
    if (p.length === entryDepth + 2 && p[entryDepth] === 'details') return { kind: 'detailSpecKey', present: present(hit.map), edit };
    return undefined;
  }
  const key = p[p.length - 1];
  if (p.length === entryDepth + 1) {
    if (key === 'code' && block === 'error_mapping') return { kind: 'codeName', edit };
    if (key === 'category' && block === 'error_codes') return { kind: 'category', edit };
    if (key === 'retry' && block === 'error_codes') return { kind: 'retry', edit };
    if (key === 'condition') return { kind: 'condition', before: sourceText(model).slice(edit.start, offset), edit };
  }
  if (
    p[entryDepth] === 'details' &&
    typeof key === 'string' &&
    (p.length === entryDepth + 2 || (p.length === entryDepth + 3 && key === 'type'))
  )
    return { kind: 'detailType', edit };
  return undefined;
}

function slotEdit(model: AdapterModel, hit: Hit, offset: number): SlotEdit {
  // Read near the cursor only (in pieces when the document is: completing while typing makes no whole text).
  const text = sourceText(model);
  const json = model.kind === 'json';
  const sc = hit.scalar;
  if (sc?.range && sc.range[1] > sc.range[0]) {
    const span = unquotedSpan(text, { start: hit.s.base + sc.range[0], end: hit.s.base + sc.range[1] });
    const quoted = span.start > hit.s.base + sc.range[0];
    const after = text.slice(hit.s.base + sc.range[1], hit.s.base + sc.range[1] + 40);
    const colon = hit.role === 'key' && !/^\s*:/.test(after);
    const typed = text.slice(span.start, Math.min(offset, span.end));
    if (json && quoted && colon)
      return { start: span.start, end: span.end + 1, typed, quote: '', colon, flow: !!hit.map?.flow, closes: true };
    // An unquoted word in JSON (still being typed) gets its quotes.
    return { start: span.start, end: span.end, typed, quote: json && !quoted ? '"' : '', colon, flow: !!hit.map?.flow };
  }
  // No word yet, or an unclosed quote: the word before the cursor on this line.
  let start = offset;
  const at = (i: number) => text.slice(i, i + 1);
  while (start > 0 && /[A-Za-z0-9_.\-]/.test(at(start - 1))) start--;
  let end = offset;
  while (end < text.length && /[A-Za-z0-9_]/.test(at(end))) end++;
  const inQuote = start > 0 && (at(start - 1) === '"' || at(start - 1) === "'");
  const closing = inQuote && at(end) === at(start - 1) ? 1 : 0;
  const colon = hit.role === 'key' && !/^["']?\s*:/.test(text.slice(end + closing, end + closing + 40));
  const lead = hit.role === 'value' && start > 0 && at(start - 1) === ':' ? (' ' as const) : undefined;
  return {
    start,
    end,
    typed: text.slice(start, offset),
    quote: json && !inQuote ? '"' : '',
    colon,
    flow: !!hit.map?.flow,
    ...(lead ? { lead } : {}),
  };
}

/** The key or value under the offset, with the key path to it; a blank or new line takes its block by indentation. */
function locate(model: AdapterModel, offset: number): Hit | undefined {
  for (const s of model.sections) {
    const rel = offset - s.base;
    if (rel < 0 || rel > sourceText(s).length) continue;
    const root = s.doc.contents as Node | null;
    const hit = walk(s, root, [], rel) ?? byIndent(s, root, rel);
    if (hit) return hit;
  }
  return undefined;
}

const keyOf = (p: Pair): string | number | undefined => {
  const k = p.key as Scalar | null;
  return isScalar(k) && k.value !== null && typeof k.value !== 'object' ? String(k.value) : undefined;
};

const keyStart = (p: Pair | undefined): number | undefined => (p?.key as Node | null)?.range?.[0];

/**
 * Where to start looking for the pair at `rel` in a large mapping: one pair before the last key that
 * starts at or before `rel` (pairs are in source order; an earlier pair's value ends before the next key).
 * Small mappings, or any pair without a key position on the way, start at 0.
 */
function firstPairNear(items: readonly Pair[], rel: number): number {
  if (items.length < 64) return 0;
  let lo = 0,
    hi = items.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    const at = keyStart(items[mid]);
    if (at === undefined) return 0;
    if (at <= rel) lo = mid;
    else hi = mid - 1;
  }
  return Math.max(0, lo - 1);
}

function walk(s: Section, node: Node | null, path: Path, rel: number): Hit | undefined {
  if (!node?.range || rel < node.range[0] || rel > node.range[2]) return undefined;
  if (isMap(node)) {
    for (let i = firstPairNear(node.items, rel); i < node.items.length; i++) {
      const pair = node.items[i]!;
      const k = pair.key as Node | null,
        v = pair.value as Node | null;
      if (!k?.range) continue;
      // Pairs are in source order: none from here on starts before the cursor (a large mapping is not walked past it).
      if (k.range[0] > rel) break;
      const name = keyOf(pair);
      if (name === undefined) continue;
      if (rel <= k.range[1]) return { role: 'key', path, scalar: k, map: node, s };
      if (isMap(v) || isSeq(v)) {
        // Only a value that spans the cursor is walked (and its path built).
        if (v.range && rel >= v.range[0] && rel <= v.range[2]) {
          const h = walk(s, v, [...path, name], rel);
          if (h) return h;
        }
        continue;
      }
      // The value of this pair: on the key's line after its ':' (block), or before the next ',' / '}' (flow).
      if (v && isScalar(v) && v.value !== null && v.range && rel >= v.range[0] && rel <= v.range[1])
        return { role: 'value', path: [...path, name], scalar: v, map: node, s };
      if (
        (!v || (isScalar(v) && (v.value === null || v.range?.[0] === v.range?.[1]))) &&
        /^["']?[ \t]*:[^\n,}]*$/.test(sourceText(s).slice(k.range[1], rel))
      )
        return { role: 'value', path: [...path, name], map: node, s };
    }
    // Between the pairs of a flow mapping: a new key.
    if (node.flow && rel > node.range[0] && rel < node.range[1]) {
      const before = sourceText(s).slice(node.range[0], rel);
      if (/[{,][ \t\r\n]*["']?[A-Za-z0-9_]*$/.test(before)) return { role: 'key', path, map: node, s };
    }
    return undefined;
  }
  if (isSeq(node)) {
    for (const [i, it] of node.items.entries()) {
      const h = walk(s, it as Node | null, [...path, i], rel);
      if (h) return h;
    }
  }
  return undefined;
}

/**
 * A blank line, or a word being typed that the parser did not take for a key: the block mapping whose
 * keys stand at the cursor's column (or the empty value of the last key above, one level deeper).
 */
function byIndent(s: Section, root: Node | null, rel: number): Hit | undefined {
  const text = sourceText(s);
  const ls = text.lastIndexOf('\n', rel - 1) + 1;
  const m = /^( *)(?:- +)?[A-Za-z0-9_]*$/.exec(text.slice(ls, rel));
  if (!m) return undefined;
  const indent = m[1]!.length + (/^ *(- +)/.exec(m[0])?.[1]!.length ?? 0);
  // One scan up from the cursor: the last content line (`prev`) and the nearest one indented less than
  // the cursor (`bound`). Every line between `bound` and the cursor is indented at least as deep, so a
  // mapping whose keys stand at the cursor's column and that starts after `bound` is still open there.
  let bound = 0,
    prev = -1;
  for (let e = ls - 1; e > 0;) {
    const b = text.lastIndexOf('\n', e - 1) + 1;
    const line = text.slice(b, e);
    const body = line.trimStart();
    if (body && !body.startsWith('#')) {
      if (prev < 0) prev = b;
      if (line.length - body.length < indent) {
        bound = b;
        break;
      }
    }
    e = b - 1;
  }
  let best: Hit | undefined;
  const colOf = (o: number) => o - (text.lastIndexOf('\n', o - 1) + 1);
  const visit = (node: Node | null, path: Path) => {
    // Only collections that reach into [bound, cursor] (or start on the next content line) can hold the answer.
    if (!node?.range || node.range[2] < bound || (node.range[0] > rel && text.slice(rel, node.range[0]).trim())) return;
    if (isSeq(node)) {
      node.items.forEach((it, i) => visit(it as Node | null, [...path, i]));
      return;
    }
    if (!isMap(node) || node.flow) return;
    const first = node.items[0]?.key as Node | null;
    if (!first?.range) return;
    const keyCol = colOf(first.range[0]);
    if (keyCol === indent && first.range[0] >= bound) best = { role: 'key', path, map: node, s };
    for (const p of node.items) {
      const name = keyOf(p);
      if (name === undefined) continue;
      const v = p.value as Node | null,
        k = p.key as Node | null;
      if (isMap(v) || isSeq(v)) visit(v, [...path, name]);
      // `404:` with nothing under it yet, on the last content line: the cursor, indented deeper, starts its mapping.
      else if (
        (!v || (isScalar(v) && v.value === null)) &&
        k?.range &&
        prev >= 0 &&
        k.range[0] >= prev &&
        k.range[0] < ls &&
        indent > colOf(k.range[0])
      ) {
        best = { role: 'key', path: [...path, name], s };
      }
    }
  };
  visit(root, []);
  return best;
}
