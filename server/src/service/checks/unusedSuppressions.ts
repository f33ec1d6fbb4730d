/**
 * `suppression.unused`: a `# mcp-aql-disable-next-line` comment that suppressed nothing on its next
 * line (the whole comment), or a code it names that was not reported there (that code alone; an
 * unknown code name is said to be one).
 */
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic } from 'vscode-languageserver-types';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { Code, codeInfo, docsHref, isCode, SOURCE, type RuleLevel } from '../codes';
import { REASON } from '../parse/buildModel';

const SEVERITY: Record<Exclude<RuleLevel, 'off'>, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};
const COMMENT = /#[ \t]*mcp-aql-disable-next-line\b([^\r\n]*)/;

export function unusedSuppressions(
  doc: TextDocument,
  suppressed: ReadonlyMap<number, ReadonlySet<string>>,
  used: ReadonlyMap<number, ReadonlySet<string>>,
  opts: { readonly rules?: Readonly<Record<string, RuleLevel | undefined>> },
): Diagnostic[] {
  const level = opts.rules?.[Code.SuppressionUnused] ?? codeInfo[Code.SuppressionUnused].level;
  if (level === 'off' || suppressed.size === 0) return [];
  const out: Diagnostic[] = [];
  const make = (line: number, start: number, end: number, message: string): Diagnostic => ({
    range: { start: { line, character: start }, end: { line, character: end } },
    severity: SEVERITY[level],
    source: SOURCE,
    code: Code.SuppressionUnused,
    message,
    codeDescription: { href: docsHref(Code.SuppressionUnused) },
    tags: [DiagnosticTag.Unnecessary],
  });
  for (const [target, codes] of suppressed) {
    const line = target - 1;
    const text = doc.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } });
    const m = COMMENT.exec(text);
    if (!m) continue;
    const start = m.index,
      end = m.index + m[0].trimEnd().length;
    const u = used.get(target);
    if (!u || u.size === 0) {
      const what = codes.has('*') ? 'no problem' : `no ${[...codes].map(c => `'${c}'`).join(' or ')} problem`;
      out.push(make(line, start, end, `Unused mcp-aql-disable-next-line: ${what} is reported on the next line. Remove the comment.`));
      continue;
    }
    // Some codes were used: name each one that was not, at its own place in the comment.
    const argsAt = m.index + m[0].length - m[1]!.length;
    for (const t of m[1]!.replace(REASON, '').matchAll(/[^\s,]+/g)) {
      const c = t[0];
      if (u.has(c)) continue;
      const s = argsAt + t.index!;
      out.push(
        make(
          line,
          s,
          s + c.length,
          isCode(c)
            ? `'${c}' is not reported on the next line; remove it from the comment.`
            : `'${c}' is not an mcp-aql diagnostic code; remove it from the comment.`,
        ),
      );
    }
  }
  return out;
}
