/**
 * Runs every check and turns problems into LSP diagnostics: offsets → ranges once, source, code,
 * codeDescription, severity from the rule levels, suppression comments, a cap on the count (errors kept first).
 * A check that throws costs one internal.rule-failure diagnostic; the others still report.
 */
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic } from 'vscode-languageserver-types';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { Code, codeInfo, docsHref, SOURCE, type RuleLevel } from '../codes';
import type { Check, CheckContext, Problem } from './types';
import { toRange } from '../util/ranges';
import { unusedSuppressions } from './unusedSuppressions';
import { withoutSalvaged } from './salvaged';

export const SEVERITY: Record<Exclude<RuleLevel, 'off'>, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

export interface ValidateOptions {
  readonly rules?: Readonly<Record<string, RuleLevel | undefined>>;
  readonly maxProblems?: number;
}

/**
 * Runs every check. Nothing is reported on what the parser salvaged from a rejected scalar (salvaged.ts). One place, one diagnostic per code: a problem at the very span (and code) of an
 * earlier one — a value several entries share through an anchor, an alias or a `<<` merge — is folded
 * into the earlier one as related information, so the shared text shows one squiggle that names every entry.
 */
export function runChecks(checks: readonly Check[], ctx: CheckContext): Problem[] {
  const { problems, emit } = collector();
  for (const check of checks) {
    try {
      check.run(ctx, emit);
    } catch (err) {
      problems.push(ruleFailure(check.name, err));
    }
  }
  return withoutSalvaged(ctx.model, problems);
}

/** The problem list and the `emit` that folds a problem at the very span and code of an earlier one into it. */
export function collector(): { problems: Problem[]; emit: (p: Problem) => void } {
  const problems: Problem[] = [];
  const at = new Map<string, number>();
  const emit = (p: Problem) => {
    const key = `${p.code}:${p.start}:${p.end}`;
    const first = at.get(key);
    if (first === undefined) {
      at.set(key, problems.length);
      problems.push(p);
      return;
    }
    const q = problems[first]!;
    if (q.message === p.message) return;
    problems[first] = {
      ...q,
      related: [...(q.related ?? []), { start: p.start, end: p.end, message: p.message }, ...(p.related ?? [])],
    } as Problem;
  };
  return { problems, emit };
}

const ruleFailure = (rule: string, err: unknown): Problem => ({
  code: Code.InternalRuleFailure,
  message: `Internal error in rule '${rule}': ${err instanceof Error ? err.message : String(err)}. The other rules still ran; please report this file.`,
  start: 0,
  end: 0,
  data: { rule },
});

export function toDiagnostics(
  doc: TextDocument,
  problems: readonly Problem[],
  suppressed: ReadonlyMap<number, ReadonlySet<string>>,
  opts: ValidateOptions,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const used = new Map<number, Set<string>>();
  for (const p of problems) {
    const level = opts.rules?.[p.code] ?? p.level ?? codeInfo[p.code].level;
    if (level === 'off') continue;
    const range = toRange(doc, p.start, p.end);
    const sup = suppressed.get(range.start.line);
    if (sup && (sup.has('*') || sup.has(p.code))) {
      const u = used.get(range.start.line) ?? new Set<string>();
      u.add(sup.has(p.code) ? p.code : '*');
      used.set(range.start.line, u);
      continue;
    }
    const d: Diagnostic = {
      range,
      severity: SEVERITY[level],
      source: SOURCE,
      code: p.code,
      message: p.message,
      codeDescription: { href: docsHref(p.code) },
    };
    if (p.data !== undefined) d.data = p.data;
    const tags: DiagnosticTag[] = [];
    if (codeInfo[p.code].unnecessary) tags.push(DiagnosticTag.Unnecessary);
    if (p.deprecated) tags.push(DiagnosticTag.Deprecated);
    if (tags.length) d.tags = tags;
    if (p.related?.length) {
      d.relatedInformation = p.related.map(r => ({
        location: r.uri && r.range ? { uri: r.uri, range: r.range } : { uri: doc.uri, range: toRange(doc, r.start, r.end) },
        message: r.message,
      }));
    }
    out.push(d);
  }
  out.push(...unusedSuppressions(doc, suppressed, used, opts));
  out.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  return capProblems(out, opts.maxProblems ?? 1000);
}

/**
 * At most `max` diagnostics, chosen by severity first (an error is never cut while a warning, an
 * information or a hint is kept), then by position; returned in position order (test/service/problemCap.test.ts).
 */
export function capProblems(sorted: Diagnostic[], max: number): Diagnostic[] {
  if (sorted.length <= max) return sorted;
  const keep = new Set(
    sorted
      .map((d, i) => [d.severity ?? DiagnosticSeverity.Error, i] as const)
      .sort((a, b) => a[0] - b[0] || a[1] - b[1])
      .slice(0, max)
      .map(([, i]) => i),
  );
  return sorted.filter((_, i) => keep.has(i));
}
