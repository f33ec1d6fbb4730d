/**
 * Placeholders in a template, found in the scalar's raw source so spans are exact inside quoted,
 * escaped and folded strings (conventions C3). Linear; no regular expression from input.
 */
import type { MalformedPlaceholder, Placeholder, ScalarStyle, Template } from '../model/model';
import { flat, kept } from './flat';
import type { TextSource } from '../model/textSource';

export const PLACEHOLDER_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Placeholder names seen before, one string each instead of a copy per template (a 14 MiB adapter: 135,000 copies
 * of `resource_id` and `operation`, 4 MB). Bounded: starts again when full. A name kept is a copy (flat), never a view
 * that would keep a template's text alive.
 */
const NAMES = new Map<string, string>();
const MAX_NAMES = 1024;
function named(s: string): string {
  const known = NAMES.get(s);
  if (known !== undefined) return known;
  if (NAMES.size >= MAX_NAMES) NAMES.clear();
  const own = flat(s);
  NAMES.set(own, own);
  return own;
}

export function scanTemplate(raw: string, start: number, value: string, style: ScalarStyle): Template {
  const placeholders: Placeholder[] = [];
  const malformed: MalformedPlaceholder[] = [];
  // Skip the quotes and the block header so they are never taken for template text.
  let i = style === 'single' || style === 'double' ? 1 : 0;
  let end = style === 'single' || style === 'double' ? Math.max(i, raw.length - 1) : raw.length;
  if (style === 'literal' || style === 'folded') i = Math.max(0, raw.indexOf('\n') + 1);
  if ((style === 'single' || style === 'double') && raw.length < 2) end = raw.length;
  for (; i < end; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x7d /* } */) {
      malformed.push({ span: { start: start + i, end: start + i + 1 }, reason: "a '}' with no '{' before it" });
      continue;
    }
    if (c !== 0x7b /* { */) continue;
    const doubled = doubleBraces(raw, i, end);
    if (doubled) {
      // `{{x}}` (Mustache): one mistake, meant as {x}; not a '{' never closed, {x} and a stray '}'.
      malformed.push({
        span: { start: start + i, end: start + doubled.end },
        reason: `double braces: write {${doubled.name}}`,
        name: doubled.name,
      });
      i = doubled.end - 1;
      continue;
    }
    let j = i + 1;
    while (j < end && raw[j] !== '}' && raw[j] !== '{' && raw[j] !== '\n') j++;
    if (j >= end || raw[j] !== '}') {
      const reason = j < end && raw[j] === '{' ? "'{' is not closed before the next '{' (placeholders do not nest)" : "'{' is never closed";
      malformed.push({ span: { start: start + i, end: start + j }, reason });
      i = j - 1;
      continue;
    }
    const inner = raw.slice(i + 1, j);
    const span = { start: start + i, end: start + j + 1 };
    if (PLACEHOLDER_NAME.test(inner)) placeholders.push({ name: named(inner), span });
    else if (inner.length === 0) malformed.push({ span, reason: 'empty placeholder {}' });
    else if (PLACEHOLDER_NAME.test(inner.trim()))
      malformed.push({ span, reason: `spaces inside the braces: write {${inner.trim()}}`, name: inner.trim() });
    else malformed.push({ span, reason: `'${inner}' is not a placeholder name ([A-Za-z_][A-Za-z0-9_]*)` });
    i = j;
  }
  return {
    value,
    span: { start, end: start + raw.length },
    raw,
    style,
    placeholders: kept(placeholders),
    malformed: kept(malformed),
  };
}

/** `{{name}}` (spaces allowed inside) at `i`, up to `end`: the name and the offset after `}}`. */
function doubleBraces(raw: string, i: number, end: number): { name: string; end: number } | undefined {
  if (raw[i + 1] !== '{') return undefined;
  let k = i + 2;
  while (k < end && raw[k] === ' ') k++;
  const from = k;
  while (k < end && /[A-Za-z0-9_]/.test(raw[k]!)) k++;
  const name = raw.slice(from, k);
  while (k < end && raw[k] === ' ') k++;
  return k + 1 < end && raw[k] === '}' && raw[k + 1] === '}' && PLACEHOLDER_NAME.test(name) ? { name, end: k + 2 } : undefined;
}

/** Render a template with values; unknown placeholders stay as written. */
export function renderTemplate(template: string, values: (name: string) => string | undefined): string {
  let out = '';
  for (let i = 0; i < template.length; i++) {
    const c = template[i]!;
    if (c === '{') {
      const j = template.indexOf('}', i + 1);
      const name = j > i ? template.slice(i + 1, j) : '';
      if (j > i && PLACEHOLDER_NAME.test(name)) {
        const v = values(name);
        out += v ?? template.slice(i, j + 1);
        i = j;
        continue;
      }
    }
    out += c;
  }
  return out;
}

/**
 * Where a template read as a flow mapping ends. On one line: the end of that line's content
 * (`{reason} happened` is one template, though YAML stops the map at `}`). Across lines: the node's
 * end when it closes with `}`, else (an unclosed `{reason`) the end of its first line's content.
 */
export function flowTemplateEnd(text: TextSource, start: number, end: number): number {
  const nl = text.indexOf('\n', start);
  const multiLine = nl >= 0 && nl < end && text.slice(nl, end).trim() !== '';
  if (multiLine && text.slice(start, end).trimEnd().endsWith('}')) return end;
  let e = nl < 0 ? text.length : nl;
  const hash = text.slice(start, e).search(/\s#/);
  if (hash >= 0) e = start + hash;
  while (e > start && /\s/.test(text.slice(e - 1, e))) e--;
  const lineEnd = nl < 0 ? end : Math.min(end, nl);
  const node = text.slice(start, lineEnd).trimEnd();
  return Math.max(e, !multiLine && node.endsWith('}') ? start + node.length : start + 1);
}

/**
 * A plain template whose line goes on in a comment that reads like template text: `#` touching a word
 * (`Rule #{n} is …`, `Issue #42 …`) or a placeholder after it. The span is the comment (to the line end).
 */
export function commentCut(text: TextSource, t: Template): { start: number; end: number } | undefined {
  if (t.style !== 'plain') return undefined;
  let i = t.span.end;
  while (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9) i++;
  if (text.charCodeAt(i) !== 35 || i === t.span.end) return undefined;
  const nl = text.indexOf('\n', i);
  let end = nl < 0 ? text.length : nl;
  while (end > i && /\s/.test(text.slice(end - 1, end))) end--;
  const comment = text.slice(i + 1, end);
  if (comment.includes('mcp-aql-disable')) return undefined;
  return /^[^\s#]/.test(comment) || /\{[A-Za-z_][A-Za-z0-9_]*\}/.test(comment) ? { start: i, end } : undefined;
}
