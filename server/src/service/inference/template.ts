/**
 * A message template from the messages of one kind of failure. Each message is first cut where it
 * carries a value the failure names — a details value (the placeholder is the details key, which
 * `verify` substitutes), a request argument (named after the argument), the tool's name — then the
 * messages are aligned word by word (longest common subsequence) and what differs between them
 * becomes a placeholder named after the word before it (`expected {expected}`), else `value`.
 * A word holding `{` or `}` cannot be written in a template: it becomes a placeholder too.
 */
import { display } from '../envelopes/samples';
import { PLACEHOLDER_NAME } from '../parse/placeholders';

export interface Sample {
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
  readonly args: Readonly<Record<string, unknown>>;
  readonly tool?: string;
}

/** `span`: the text from the first difference to the last, where the messages differ in many places (collapse). */
export type PlaceholderSource = 'details' | 'argument' | 'tool' | 'varies' | 'span';

export interface InferredTemplate {
  readonly text: string;
  /** Every placeholder once, in template order, with where its value came from. */
  readonly placeholders: readonly { readonly name: string; readonly from: PlaceholderSource }[];
}

type Token =
  { readonly lit: string } | { readonly name: string; readonly from: PlaceholderSource } | { readonly gap: true; readonly span?: true };

const WORD = /[A-Za-z0-9_]+|\s+|[^A-Za-z0-9_\s]/g;
/** Above this many tokens a message is not aligned: the common prefix is kept and the rest is one placeholder. */
const MAX_TOKENS = 400;
const STOP = new Set([
  'a',
  'an',
  'the',
  'at',
  'in',
  'on',
  'of',
  'to',
  'for',
  'is',
  'be',
  'and',
  'or',
  'with',
  'by',
  'from',
  'as',
  'but',
  'not',
]);

const isWordChar = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_]/.test(c);

/** The message cut into literal words and the placeholders of the values it carries. */
export function tokensOf(s: Sample): Token[] {
  const values: { name: string; from: PlaceholderSource; text: string }[] = [];
  for (const [k, v] of Object.entries(s.details ?? {}))
    if (PLACEHOLDER_NAME.test(k) && v !== null && typeof v !== 'object') values.push({ name: k, from: 'details', text: display(v) });
    else if (PLACEHOLDER_NAME.test(k) && Array.isArray(v) && v.every(x => typeof x !== 'object'))
      values.push({ name: k, from: 'details', text: display(v) });
  for (const [k, v] of Object.entries(s.args))
    if (PLACEHOLDER_NAME.test(k) && (typeof v === 'string' || typeof v === 'number') && String(v).length >= 2)
      values.push({ name: k, from: 'argument', text: String(v) });
  if (s.tool && s.tool.length >= 2) values.push({ name: 'tool', from: 'tool', text: s.tool });
  // Longer values first (a path before the file name inside it); details before arguments at a tie.
  const order = { details: 0, argument: 1, tool: 2, varies: 3, span: 3 };
  values.sort((a, b) => b.text.length - a.text.length || order[a.from] - order[b.from] || (a.name < b.name ? -1 : 1));
  const msg = s.message;
  const taken: { at: number; end: number; name: string; from: PlaceholderSource }[] = [];
  for (const v of values) {
    if (!v.text) continue;
    for (let i = msg.indexOf(v.text); i >= 0; i = msg.indexOf(v.text, i + 1)) {
      const end = i + v.text.length;
      if (isWordChar(msg[i - 1]) && isWordChar(v.text[0])) continue;
      if (isWordChar(msg[end]) && isWordChar(v.text[v.text.length - 1])) continue;
      if (taken.some(t => i < t.end && end > t.at)) continue;
      taken.push({ at: i, end, name: v.name, from: v.from });
    }
  }
  taken.sort((a, b) => a.at - b.at);
  const out: Token[] = [];
  let pos = 0;
  const literal = (text: string) => {
    for (const w of text.match(WORD) ?? []) out.push(/[{}]/.test(w) ? { gap: true } : { lit: w });
  };
  for (const t of taken) {
    literal(msg.slice(pos, t.at));
    out.push({ name: t.name, from: t.from });
    pos = t.end;
  }
  literal(msg.slice(pos));
  return out;
}

const same = (a: Token, b: Token) => ('lit' in a ? 'lit' in b && a.lit === b.lit : 'name' in a ? 'name' in b && a.name === b.name : false);

/** `p` and `q` aligned: their common tokens in order, a gap wherever either has something the other lacks. */
export function merge(p: readonly Token[], q: readonly Token[]): Token[] {
  if (p.length > MAX_TOKENS || q.length > MAX_TOKENS) {
    let k = 0;
    while (k < p.length && k < q.length && same(p[k]!, q[k]!)) k++;
    return k === p.length && k === q.length ? [...p] : [...p.slice(0, k), { gap: true }];
  }
  const n = p.length,
    m = q.length;
  const L: Uint16Array[] = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) L[i]![j] = same(p[i]!, q[j]!) ? L[i + 1]![j + 1]! + 1 : Math.max(L[i + 1]![j]!, L[i]![j + 1]!);
  const out: Token[] = [];
  const gap = () => {
    if (!out.length || !('gap' in out[out.length - 1]!)) out.push({ gap: true });
  };
  let i = 0,
    j = 0;
  let pending = false;
  while (i < n && j < m) {
    if (same(p[i]!, q[j]!)) {
      if (pending) gap();
      pending = false;
      out.push(p[i]!);
      i++;
      j++;
    } else {
      pending = true;
      if (L[i + 1]![j]! >= L[i]![j + 1]!) i++;
      else j++;
    }
  }
  if (pending || i < n || j < m) gap();
  // A gap swallows the spaces and punctuation around it only when they are part of what differed.
  return out;
}

/** Similarity of two messages' words (0 to 1): the literal words they share, over their average count. */
export function similarity(p: readonly Token[], q: readonly Token[]): number {
  const words = (t: readonly Token[]) => t.filter(x => !('lit' in x) || /\S/.test(x.lit));
  const a = words(p),
    b = words(q);
  if (!a.length && !b.length) return 1;
  if (a.length > MAX_TOKENS || b.length > MAX_TOKENS) return a.length === b.length && a.every((x, k) => same(x, b[k]!)) ? 1 : 0;
  let prev = new Uint16Array(b.length + 1);
  for (let i = a.length - 1; i >= 0; i--) {
    const row = new Uint16Array(b.length + 1);
    for (let j = b.length - 1; j >= 0; j--) row[j] = same(a[i]!, b[j]!) ? prev[j + 1]! + 1 : Math.max(prev[j]!, row[j + 1]!);
    prev = row;
  }
  return (2 * prev[0]!) / (a.length + b.length);
}

/** The template of these messages (at least one). */
export function inferTemplate(samples: readonly Sample[]): InferredTemplate {
  let pattern = tokensOf(samples[0]!);
  for (let k = 1; k < samples.length; k++) pattern = merge(pattern, tokensOf(samples[k]!));
  pattern = tidyRagged(collapse(pattern), samples);
  const used = new Set<string>();
  const named = new Set(pattern.flatMap(t => ('name' in t ? [t.name] : [])));
  const placeholders: { name: string; from: PlaceholderSource }[] = [];
  let text = '';
  for (let k = 0; k < pattern.length; k++) {
    const t = pattern[k]!;
    if ('lit' in t) {
      text += t.lit;
      continue;
    }
    let name: string, from: PlaceholderSource;
    if ('name' in t) {
      name = t.name;
      from = t.from;
    } else {
      name = gapName(pattern, k, new Set([...used, ...named]));
      from = t.span ? 'span' : 'varies';
    }
    if (!used.has(name)) {
      used.add(name);
      placeholders.push({ name, from });
    }
    text += `{${name}}`;
  }
  return { text, placeholders };
}

const isSpace = (t: Token | undefined) => t !== undefined && 'lit' in t && !/\S/.test(t.lit);
const isGap = (t: Token | undefined): t is { gap: true; span?: true } => t !== undefined && 'gap' in t;

/** Each message's text under each placeholder of the pattern, or undefined when one does not fit it. */
function captures(pattern: readonly Token[], samples: readonly Sample[]): string[][] | undefined {
  // Literal tokens hold no brace (a word with one is a gap: tokensOf), so the text reads back as the same pattern.
  const re = templatePattern(pattern.map(t => ('lit' in t ? t.lit : '{}')).join(''), true);
  const out: string[][] = [];
  for (const s of samples) {
    const m = re.exec(s.message);
    if (!m) return undefined;
    out.push(m.slice(1));
  }
  return out;
}

/**
 * Two gaps with only a space between them, where some message had nothing under one of them, are one run
 * of words that differ in length between messages (`Required` against `Expected string, received number`):
 * the alignment matched the space after the first word of one with a space inside the other, which left
 * the template's own space inside a placeholder (`{value} {value_2}at`). They become one gap followed by
 * that space (`{value} at`) when every message still fits, else one gap.
 */
function tidyRagged(pattern: readonly Token[], samples: readonly Sample[]): Token[] {
  let out = [...pattern];
  for (let k = 0; k + 2 < out.length; k++) {
    if (!isGap(out[k]) || !isSpace(out[k + 1]) || !isGap(out[k + 2])) continue;
    const caught = captures(out, samples);
    if (!caught) return out;
    const index = out.slice(0, k).filter(t => !('lit' in t)).length;
    if (!caught.some(c => c[index] === '' || c[index + 1] === '')) continue;
    const spaced = [...out.slice(0, k + 2), ...out.slice(k + 3)];
    out = captures(spaced, samples) ? spaced : [...out.slice(0, k + 1), ...out.slice(k + 3)];
  }
  return out;
}

/** More varying words than this in one template: they are one placeholder (see collapse). */
const MAX_GAPS = 3;

/**
 * Messages that differ in many places (a validator's list of issues, a JSON dump in the text) do not
 * have a template with a placeholder per difference: everything from the first varying word to the
 * last is one placeholder, with the punctuation glued to its left and any that ends the message
 * (`Invalid input: [{…}]` → `Invalid input: {value}`). Placeholders named after a value (details, argument, tool) inside that
 * span go with it.
 */
export function collapse(pattern: readonly Token[]): Token[] {
  const gaps = pattern.flatMap((t, k) => ('gap' in t ? [k] : []));
  if (gaps.length <= MAX_GAPS) return [...pattern];
  const punct = (t: Token | undefined) => t !== undefined && 'lit' in t && !/^[A-Za-z0-9_\s]/.test(t.lit);
  let first = gaps[0]!;
  let last = gaps[gaps.length - 1]!;
  while (first > 0 && punct(pattern[first - 1])) first--;
  if (pattern.slice(last + 1).every(punct)) last = pattern.length - 1;
  return [...pattern.slice(0, first), { gap: true, span: true }, ...pattern.slice(last + 1)];
}

/** A gap is named after the word before it (`expected {expected}`), else `value`; unique in its template. */
function gapName(pattern: readonly Token[], k: number, used: ReadonlySet<string>): string {
  let base = 'value';
  for (let b = k - 1; b >= 0; b--) {
    const t = pattern[b]!;
    if (!('lit' in t)) break;
    if (!/\S/.test(t.lit)) continue;
    const w = t.lit.toLowerCase();
    if (/^[a-z][a-z0-9_]*$/.test(w) && !STOP.has(w) && w.length > 1) base = w;
    break;
  }
  let name = base;
  for (let n = 2; used.has(name); n++) name = `${base}_${n}`;
  return name;
}

/**
 * A template as a pattern of whole messages: its text literal, each placeholder any text (shortest first);
 * `capture`: each placeholder's text a group of the match.
 */
export function templatePattern(template: string, capture = false): RegExp {
  return new RegExp(
    `^${template
      .split(/\{[^{}]*\}/)
      .map(p => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join(capture ? '([\\s\\S]*?)' : '[\\s\\S]*?')}$`,
  );
}
