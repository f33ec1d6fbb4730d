/**
 * One mistake, one diagnostic around syntax errors (docs/robustness.md, "text the parser rejected";
 * test/service/salvaged.test.ts). When the YAML parser or the JSON check rejects a scalar (an unclosed quote,
 * a quote that ends the string early, single quotes or unquoted text in JSON), what the parser salvaged from
 * it is not what the author wrote: no other check reports on it. A scalar is rejected when a reported YAML
 * error overlaps it or starts right after it (`'it's'`: the error is on `s'`), or a JSON error overlaps it. A
 * tab error before a key does not reject the key (the line is read with its neighbours' indentation,
 * parse/tabs.ts).
 *
 * Applied to the problem list of every validation (full and incremental alike), so both stay equal.
 */
import { Code } from '../codes';
import type { AdapterModel, Span } from '../model/model';
import { Intervals, scalarsTouching, underIndentedPairs } from '../parse/brokenText';
import type { Problem } from './types';

const isSyntax = (p: Problem): boolean => p.code === Code.YamlSyntax || p.code === Code.JsonSyntax;

/** The scalars (keys and values) a syntax problem rejects, as spans of their source. */
export function rejectedScalars(model: AdapterModel, syntax: readonly Problem[]): Span[] {
  const errors = new Intervals(syntax.filter(p => p.data && (p.data as { yamlCode?: string }).yamlCode !== 'TAB_AS_INDENT'));
  // A YAML error right after a scalar (at its end) rejects it too; a JSON error must overlap it.
  return errors.size ? scalarsTouching(model, errors, model.kind === 'json' ? 0 : 1).map(x => x.span) : [];
}

/** What an entry's template checks and required keys read: wrong when the parser lost part of the entry. */
const READS_WHOLE_ENTRY: ReadonlySet<string> = new Set([
  Code.TemplateUnknownPlaceholder,
  Code.TemplateUnusedDetail,
  Code.TemplateInvalidDetailName,
  Code.SchemaRequired,
]);

/**
 * The regions the parser rejected as a whole, where only the syntax error speaks: in a JSON adapter,
 * from a fatal mistake on (the JSON read ends there, and the YAML parse may read the rest into an object
 * left open: parse/jsonSyntax.ts); in YAML, a key under-indented among its siblings and its value (read
 * as a key of the mapping further out). Each with the offset just before it, in the entry it fell out of.
 */
export function rejectedRegions(model: AdapterModel, syntax: readonly Problem[]): Span[] {
  const out: Span[] = [];
  if (model.kind === 'json') {
    const reported = new Set(syntax.filter(p => p.code === Code.JsonSyntax).map(p => p.start));
    for (const e of model.syntaxErrors)
      if (e.rejectsFrom !== undefined && reported.has(e.start)) out.push({ start: e.rejectsFrom, end: model.text.length });
    return out;
  }
  const bad = syntax.filter(p => p.code === Code.YamlSyntax).map(p => ({ start: p.start, yamlCode: yamlCodeOf(p), message: p.message }));
  return underIndentedPairs(model, bad);
}

const yamlCodeOf = (p: Problem): string | undefined => (p.data as { yamlCode?: string } | undefined)?.yamlCode;

/** The last offset before `at` that is not white space (the end of what precedes a region). */
function before(text: string, at: number): number {
  let i = at - 1;
  while (i > 0 && /\s/.test(text[i]!)) i--;
  return Math.max(i, 0);
}

/**
 * The problems minus those on salvaged text: a problem inside a rejected scalar or a rejected region
 * (rejectedRegions); in an error_codes or error_mapping entry that holds a YAML syntax error or runs into
 * a rejected region, what reads the whole entry (its details and template: a string closed early or never
 * closes takes the lines after it along); and, in a JSON adapter, a YAML error where a JSON error stands
 * (an alias `*` is one JSON mistake, not two) or in a rejected region.
 */
export function withoutSalvaged(model: AdapterModel, problems: Problem[]): Problem[] {
  if (!model.syntaxErrors.length && !problems.some(isSyntax)) return problems;
  const syntax = problems.filter(isSyntax);
  const json = model.kind === 'json' ? new Intervals(syntax.filter(p => p.code === Code.JsonSyntax)) : undefined;
  const rejected = new Intervals(rejectedScalars(model, syntax));
  const spans = rejectedRegions(model, syntax);
  const regions = new Intervals(spans);
  if (!rejected.size && !json?.size && !regions.size) return problems;
  // A problem in a rejected region, or one whose reason lies there (its related spans in this file: the entry
  // that "matches first", the status claimed).
  const within = (p: Problem) =>
    rejected.hits(p.start, p.start + 1) ||
    (regions.size > 0 &&
      (regions.hits(p.start, p.start + 1) || !!p.related?.some(r => r.uri === undefined && regions.hits(r.start, r.end))));
  // Entries the parser read only in part: one holding a reported error (tabs excepted: that line is read whole),
  // one a rejected region starts in or right after.
  const errors = new Intervals([
    ...syntax.filter(p => yamlCodeOf(p) !== 'TAB_AS_INDENT'),
    ...spans.map(r => ({ start: before(model.text, r.start), end: r.end })),
  ]);
  const partial = [...model.codes, ...model.mappings].filter(e => errors.hits(e.entrySpan.start, e.entrySpan.end)).map(e => e.entrySpan);
  const inPartial = new Intervals(partial);
  return problems.filter(p => {
    if (p.code === Code.YamlSyntax) return !json?.hits(p.start, p.end) && !(json && regions.hits(p.start, p.start + 1));
    if (isSyntax(p)) return true;
    if (within(p)) return false;
    if (READS_WHOLE_ENTRY.has(p.code) && inPartial.size && inPartial.hits(p.start, p.start + 1)) return false;
    return true;
  });
}
