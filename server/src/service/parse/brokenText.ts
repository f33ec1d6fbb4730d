/**
 * Where a file's text is broken: the syntax errors that are reported (YAML's inside an unquoted
 * template that YAML read as a flow mapping are not: template.flow-mapping says it once) and the
 * malformed placeholders of every template. The checks report the first (checks/yamlSyntax.ts); no
 * quick fix and no Fix all edit touches either (fixes/index.ts; test/service/fixesOnBrokenText.test.ts).
 */
import type { Node, Scalar } from 'yaml';
import { isAlias, isCollection, isMap, isPair, isScalar } from './yamlNodes';
import type { AdapterModel, ParseProblem, Span } from '../model/model';
import { flowTemplateEnd } from './placeholders';

/**
 * The model's syntax errors that are reported as yaml.syntax / json.syntax. One mistake, one
 * diagnostic: the YAML parser's errors that follow one another with only white space and comments between them
 * (after a string closed too early, every token left on the line and the lines after it is
 * "unexpected") are one error, from the first one's start to the last one's end.
 */
export function reportedSyntaxErrors(model: AdapterModel): ParseProblem[] {
  if (!model.syntaxErrors.length) return [];
  // Only YAML's own errors inside such a template (a JSON adapter's template object is another mistake).
  const covered = model.kind !== 'json' ? flowTemplates(model) : [];
  const kept = covered.length
    ? model.syntaxErrors.filter(e => e.yamlCode === 'JSON_SYNTAX' || !covered.some(([s, t]) => e.start >= s && e.start <= t))
    : model.syntaxErrors;
  return cascadesFolded(model.text, kept).map(e => unclosedAtOpening(model, e) ?? e);
}

/**
 * YAML reports a string that is never closed where its text runs out (often lines later, at the next
 * entry); the mistake is where it opens. Reported from the opening quote to the end of that line.
 */
function unclosedAtOpening(model: AdapterModel, e: ParseProblem): ParseProblem | undefined {
  const m = e.yamlCode === 'MISSING_CHAR' ? /^Missing closing (["'])quote/.exec(e.message) : null;
  if (!m) return undefined;
  const q = m[1]!;
  const hits = scalarsTouching(model, new Intervals([{ start: e.start, end: e.end }]), 1).filter(
    x => x.span.start < e.start && model.text[x.span.start] === q,
  );
  const open = hits.sort((a, b) => b.span.start - a.span.start)[0];
  if (!open) return undefined;
  const nl = model.text.indexOf('\n', open.span.start);
  const lineEnd = model.text.slice(open.span.start, nl < 0 ? model.text.length : nl).trimEnd().length + open.span.start;
  const message = `Close this string with ${q}: it is never closed, so YAML reads the lines after it as part of it.`;
  return { ...e, start: open.span.start, end: Math.max(lineEnd, open.span.start + 1), message };
}

/** Parser codes whose errors follow the tokens (ours are each a mistake of their own). */
const PARSER_CODES = new Set(['UNEXPECTED_TOKEN', 'MISSING_CHAR', 'BAD_INDENT', 'BLOCK_AS_IMPLICIT_KEY', 'MULTILINE_IMPLICIT_KEY']);

function cascadesFolded(text: string, errors: readonly ParseProblem[]): ParseProblem[] {
  const out: ParseProblem[] = [];
  let last: ParseProblem | undefined;
  for (const e of errors) {
    const joins =
      last &&
      PARSER_CODES.has(last.yamlCode) &&
      PARSER_CODES.has(e.yamlCode) &&
      e.start >= last.end &&
      e.start - last.end <= 4096 &&
      onlySpaceAndComments(text.slice(last.end, e.start));
    if (joins) {
      last = { ...last!, end: Math.max(last!.end, e.end) };
      out[out.length - 1] = last;
      continue;
    }
    last = { ...e, message: closedEarly(text, e) ?? e.message };
    out.push(last);
  }
  return out;
}

/** White space and `# comments` only (a comment after the broken token does not end its cascade). */
const onlySpaceAndComments = (gap: string): boolean => gap.replace(/(^|\s)#[^\n]*/g, '$1').trim() === '';

/**
 * A string closed by a quote meant to be inside it (`'Tag '{tag}' exists'`, `"Say "hi""`): the
 * error starts right after the closing quote. Says what to write instead of what the parser saw.
 */
function closedEarly(text: string, e: ParseProblem): string | undefined {
  if (e.yamlCode !== 'UNEXPECTED_TOKEN') return undefined;
  const q = text[e.start - 1];
  if ((q !== "'" && q !== '"') || /\s/.test(text[e.start] ?? ' ')) return undefined;
  const lineStart = text.lastIndexOf('\n', e.start - 2) + 1;
  const before = text.slice(lineStart, e.start - 1);
  // The quote closes a string opened on this line (an odd count of that quote before it).
  if ((before.split(q).length - 1) % 2 !== 1) return undefined;
  return q === "'"
    ? 'Write \'\' for a quote inside a single-quoted string (or quote the whole with "…"): the string ended at the quote before this.'
    : "Write \\\" for a quote inside a double-quoted string (or quote the whole with '…'): the string ended at the quote before this.";
}

/** Where templates read as flow mappings lie (what template.flow-mapping reports, and the node's extent). */
function flowTemplates(model: AdapterModel): [number, number][] {
  const out: [number, number][] = [];
  for (const e of [...model.codes, ...model.mappings]) {
    const n = e.templateNode;
    if (n && isMap(n.node) && n.node.flow)
      out.push([n.span.start, Math.max(n.span.end, flowTemplateEnd(model.text, n.span.start, n.span.end))]);
  }
  return out;
}

/** Reported syntax errors (at least one character wide) and malformed placeholders, in no order. */
export function brokenSpans(model: AdapterModel): Span[] {
  const out: Span[] = reportedSyntaxErrors(model).map(e => ({ start: e.start, end: Math.max(e.end, e.start + 1) }));
  for (const e of [...model.codes, ...model.mappings]) for (const m of e.template?.malformed ?? []) out.push(m.span);
  return out;
}

/** A key left of its siblings: in a mapping (BAD_INDENT), or in a list entry (read as an item without its `-`). */
const underIndent = (e: { readonly yamlCode?: string; readonly message?: string }): boolean =>
  e.yamlCode === 'BAD_INDENT' || (e.yamlCode === 'MISSING_CHAR' && /^Sequence item without - indicator/.test(e.message ?? ''));

/**
 * The pairs YAML rejected for their indentation (a BAD_INDENT error, or a list item without its `-`, at
 * the start of the line of their key: a key left of its siblings), from the line's start to the end of
 * the pair's value. What the parser made of such a key (a key of the mapping further out, or a list
 * entry of its own) is not what the author wrote.
 */
export function underIndentedPairs(
  model: AdapterModel,
  errors: readonly { readonly start: number; readonly yamlCode?: string; readonly message?: string }[],
): Span[] {
  const text = model.text;
  const keys = new Map<number, number>();
  for (const e of errors) {
    if (!underIndent(e)) continue;
    const lineStart = text.lastIndexOf('\n', e.start - 1) + 1;
    let k = lineStart;
    while (text[k] === ' ') k++;
    if (k < text.length && text[k] !== '\n' && text[k] !== '\r' && text[k] !== '#') keys.set(k, lineStart);
  }
  if (!keys.size) return [];
  const out: Span[] = [];
  const targets = new Intervals([...keys.keys()].map(k => ({ start: k, end: k + 1 })));
  for (const s of model.sections) {
    const stack: [Node, number][] = [];
    if (s.doc.contents) stack.push([s.doc.contents as Node, 0]);
    while (stack.length) {
      const [n, depth] = stack.pop()!;
      const r = n.range;
      if (!r || !isCollection(n) || depth >= MAX_DEPTH) continue;
      // As in scalarsTouching: the ranges of an assembled chunked parse's top two levels are not trusted.
      if (depth >= 2 && !targets.hits(s.base + r[0], s.base + r[2] + 1)) continue;
      for (const it of n.items as unknown[]) {
        if (!isPair(it)) {
          if (it) stack.push([it as Node, depth + 1]);
          continue;
        }
        const kr = (it.key as Node | null)?.range;
        const lineStart = kr ? keys.get(s.base + kr[0]) : undefined;
        if (lineStart !== undefined) {
          const vr = (it.value as Node | null)?.range;
          out.push({ start: lineStart, end: s.base + (vr ? vr[1] : kr![1]) });
        }
        if (it.value) stack.push([it.value as Node, depth + 1]);
      }
    }
  }
  return out;
}

/** Nesting past this is not searched (hostile depth; the syntax error itself is still reported). */
const MAX_DEPTH = 512;

/** Sorted, disjoint half-open intervals, with a query for the first one that intersects [start, end). */
export class Intervals {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  constructor(spans: readonly Span[]) {
    const sorted = spans.map(s => [s.start, Math.max(s.end, s.start + 1)] as const).sort((a, b) => a[0] - b[0]);
    for (const [s, e] of sorted) {
      const last = this.ends.length - 1;
      if (last >= 0 && s <= this.ends[last]!) this.ends[last] = Math.max(this.ends[last]!, e);
      else {
        this.starts.push(s);
        this.ends.push(e);
      }
    }
  }
  get size(): number {
    return this.starts.length;
  }
  /** Does [start, end) (at least one character wide) intersect one of the intervals? */
  hits(start: number, end: number): boolean {
    const e = Math.max(end, start + 1);
    let lo = 0,
      hi = this.ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.ends[mid]! <= start) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.starts.length && this.starts[lo]! < e;
  }
}

/**
 * The scalars (keys and values) that intersect `errors`, or end up to `reach` characters before one,
 * with their source spans (value only, comments excluded). Descends only into collections an error
 * touches, so it costs the path to each error, not the document.
 */
export function scalarsTouching(model: AdapterModel, errors: Intervals, reach: number): { span: Span; node: Scalar }[] {
  const out: { span: Span; node: Scalar }[] = [];
  for (const s of model.sections) {
    const stack: [Node, number][] = [];
    if (s.doc.contents) stack.push([s.doc.contents as Node, 0]);
    while (stack.length) {
      const [n, depth] = stack.pop()!;
      const r = n.range;
      if (!r || isAlias(n)) continue;
      const start = s.base + r[0],
        end = s.base + r[1];
      if (isScalar(n)) {
        if (errors.hits(start, end + reach)) out.push({ span: { start, end }, node: n });
        continue;
      }
      // The root and the block mappings of an assembled chunked parse span the whole text, though their
      // ranges are not moved with the chunks: only the ranges below them are trusted for pruning.
      if (!isCollection(n) || depth >= MAX_DEPTH || (depth >= 2 && !errors.hits(start, s.base + r[2] + 1))) continue;
      for (const it of n.items as unknown[]) {
        if (isPair(it)) {
          if (it.value) stack.push([it.value as Node, depth + 1]);
          if (it.key) stack.push([it.key as Node, depth + 1]);
        } else if (it) stack.push([it as Node, depth + 1]);
      }
    }
  }
  return out;
}
