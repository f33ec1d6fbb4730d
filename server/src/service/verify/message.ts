/**
 * Does a recorded message come from one of the code's templates with the details substituted?
 * A placeholder whose details key is absent matches any text. When no template matches, the
 * closest one (the latest divergence) gives the column; a message far from every template that
 * still carries the substituted values is taken for a translation (docs/spec-decisions.md).
 */
import type { ContractCode, ContractTemplate } from '../contract/contract';
import { display } from '../envelopes/samples';
import { PLACEHOLDER_NAME } from '../parse/placeholders';
import { editDistance } from '../util/closest';

type Part = { readonly text: string; readonly value: boolean } | { readonly wild: string };

type MessageVerdict =
  | { readonly kind: 'match'; readonly template: ContractTemplate }
  | {
      readonly kind: 'mismatch';
      readonly template: ContractTemplate;
      readonly at: number;
      readonly end: number;
      readonly expected: string;
      readonly rendered: string;
    }
  | { readonly kind: 'localized'; readonly template: ContractTemplate; readonly rendered: string };

/** The template cut into literal text, substituted values and wildcards (keys the details lack). */
export function parts(template: string, code: Pick<ContractCode, 'aliases'>, details: Readonly<Record<string, unknown>>): Part[] {
  const out: Part[] = [];
  let lit = '';
  const has = (k: string) => Object.prototype.hasOwnProperty.call(details, k);
  for (let i = 0; i < template.length; i++) {
    const c = template[i]!;
    const j = c === '{' ? template.indexOf('}', i + 1) : -1;
    const name = j > i ? template.slice(i + 1, j) : '';
    if (j > i && PLACEHOLDER_NAME.test(name)) {
      if (lit) out.push({ text: lit, value: false });
      lit = '';
      const alias = Object.hasOwn(code.aliases, name) ? code.aliases[name] : undefined;
      if (has(name)) out.push({ text: display(details[name]), value: true });
      else if (alias && has(alias.key)) out.push({ text: display(details[alias.key], alias.join ?? ', '), value: true });
      else out.push({ wild: name });
      i = j;
      continue;
    }
    lit += c;
  }
  if (lit) out.push({ text: lit, value: false });
  return out;
}

const common = (a: string, from: number, b: string): number => {
  let k = 0;
  while (k < b.length && a[from + k] === b[k]) k++;
  return k;
};

/** Walk the message along the parts; the offset where it stops matching, or -1 when it matches. */
function align(message: string, ps: readonly Part[], from = 0, toEnd = true): { at: number; expected: string } | undefined {
  let pos = from;
  for (let p = 0; p < ps.length; p++) {
    const part = ps[p]!;
    if ('text' in part) {
      if (message.startsWith(part.text, pos)) {
        pos += part.text.length;
        continue;
      }
      return { at: pos + common(message, pos, part.text), expected: part.text.slice(common(message, pos, part.text)) };
    }
    const next = ps[p + 1];
    if (!next) return undefined; // a trailing wildcard takes the rest
    if (!('text' in next)) continue; // two wildcards in a row: the next one decides
    // The last literal must end the message; otherwise take the first occurrence.
    const idx =
      toEnd && p + 2 >= ps.length
        ? message.endsWith(next.text) && message.length - next.text.length >= pos
          ? message.length - next.text.length
          : -1
        : message.indexOf(next.text, pos);
    if (idx < 0) return { at: pos, expected: `{${part.wild}}${next.text}` };
    pos = idx;
  }
  return pos === message.length || !toEnd ? undefined : { at: pos, expected: '' };
}

/** The rendered message occurs somewhere inside the message. */
function includesInOrder(message: string, ps: readonly Part[]): boolean {
  const first = ps[0];
  if (!first || !('text' in first)) return align(message, ps, 0, false) === undefined || ps.length === 0;
  for (let s = message.indexOf(first.text); s >= 0; s = message.indexOf(first.text, s + 1)) {
    if (!align(message, ps, s, false)) return true;
  }
  return false;
}

const rendered = (ps: readonly Part[]) => ps.map(p => ('text' in p ? p.text : `{${p.wild}}`)).join('');

/** `contains`: the message wraps the rendered one (the JSON-RPC question style); only inclusion is judged. */
export function judgeMessage(
  message: string,
  code: ContractCode,
  details: Readonly<Record<string, unknown>>,
  contains = false,
): MessageVerdict | undefined {
  const templates = code.templates.filter(t => t.text);
  if (!templates.length) return undefined;
  if (contains) {
    for (const t of templates) if (includesInOrder(message, parts(t.text, code, details))) return { kind: 'match', template: t };
    const ps = parts(templates[0]!.text, code, details);
    return { kind: 'mismatch', template: templates[0]!, at: 0, end: message.length, expected: rendered(ps), rendered: rendered(ps) };
  }
  let best: { t: ContractTemplate; ps: Part[]; at: number; expected: string } | undefined;
  for (const t of templates) {
    const ps = parts(t.text, code, details);
    const a = align(message, ps);
    if (!a) return { kind: 'match', template: t };
    if (!best || a.at > best.at) best = { t, ps, at: a.at, expected: a.expected };
  }
  const b = best!;
  const full = rendered(b.ps);
  if (looksLocalized(message, b.ps, full)) return { kind: 'localized', template: b.t, rendered: full };
  const end = Math.min(message.length, b.at + Math.max(1, b.expected.length));
  return { kind: 'mismatch', template: b.t, at: b.at, end: Math.max(end, b.at), expected: b.expected, rendered: full };
}

/**
 * Localized: far from the template (more than half of it differs) yet every substituted value the
 * template uses is in the message. A message with no substituted value to recognise is never taken
 * for a translation.
 */
function looksLocalized(message: string, ps: readonly Part[], full: string): boolean {
  const values = ps.filter((p): p is { text: string; value: boolean } => 'text' in p && p.value && p.text.length > 0);
  if (!values.length || !values.every(v => message.includes(v.text))) return false;
  if (message.length > 400 || full.length > 400) return true; // too long to compare quadratically: the values decide
  const literal = ps
    .filter(p => 'text' in p && !p.value)
    .map(p => (p as { text: string }).text)
    .join('');
  const msgRest = values.reduce((m, v) => m.replace(v.text, ''), message);
  const d = editDistance(literal, msgRest);
  return d > Math.max(literal.length, msgRest.length) / 2;
}
