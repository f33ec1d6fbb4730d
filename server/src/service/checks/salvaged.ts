/**
 * One mistake, one diagnostic around syntax errors (issue 22 item 1). When the YAML parser or the JSON
 * check rejects a scalar (an unclosed quote, a quote that ends the string early, single quotes or
 * unquoted text in JSON), what the parser salvaged from it is not what the author wrote: no other check
 * reports on it. A scalar is rejected when a reported YAML error overlaps it or starts right after it
 * (`'it's'`: the error is on `s'`), or a JSON error overlaps it. A tab error before a key does not
 * reject the key (the line is read with its neighbours' indentation, parse/tabs.ts).
 *
 * Applied to the problem list of every validation (full and incremental alike), so both stay equal.
 */
import { Code } from '../codes';
import type { AdapterModel, Span } from '../model/model';
import { Intervals, scalarsTouching } from '../parse/brokenText';
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
 * The problems minus those on salvaged text: a problem inside a rejected scalar; in an error_codes or
 * error_mapping entry that holds a YAML syntax error, what reads the whole entry (its details and
 * template: a string closed early or never closes takes the lines after it along); and, in a JSON
 * adapter, a YAML error where a JSON error stands (an alias `*` is one JSON mistake, not two).
 */
export function withoutSalvaged(model: AdapterModel, problems: Problem[]): Problem[] {
  if (!model.syntaxErrors.length && !problems.some(isSyntax)) return problems;
  const syntax = problems.filter(isSyntax);
  const json = model.kind === 'json' ? new Intervals(syntax.filter(p => p.code === Code.JsonSyntax)) : undefined;
  const rejected = new Intervals(rejectedScalars(model, syntax));
  if (!rejected.size && !json?.size) return problems;
  const within = (p: { start: number }) => rejected.hits(p.start, p.start + 1);
  // Entries the parser read only in part: one holding a reported error (tabs excepted: that line is read whole).
  const errors = new Intervals(syntax.filter(p => (p.data as { yamlCode?: string } | undefined)?.yamlCode !== 'TAB_AS_INDENT'));
  const partial = [...model.codes, ...model.mappings].filter(e => errors.hits(e.entrySpan.start, e.entrySpan.end)).map(e => e.entrySpan);
  const inPartial = new Intervals(partial);
  return problems.filter(p => {
    if (p.code === Code.YamlSyntax) return !json?.hits(p.start, p.end);
    if (isSyntax(p)) return true;
    if (within(p)) return false;
    if (READS_WHOLE_ENTRY.has(p.code) && inPartial.size && inPartial.hits(p.start, p.start + 1)) return false;
    return true;
  });
}
