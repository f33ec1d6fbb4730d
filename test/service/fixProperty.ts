/**
 * The property every offered fix must have: applying it adds no syntax error and
 * removes no diagnostic it does not mean to fix. A fix means to fix its own diagnostic and whatever
 * lies on the text it edits (a rename fixes both naming rules on the key it rewrites), and the unused
 * details key a placeholder is changed to; a "Disable … for
 * this line" comment also means the diagnostics of that code on that line. Every other diagnostic must
 * be found again after the edits, with its range moved by them. Shared by the service and LSP tests.
 */
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, Diagnostic, TextEdit } from 'vscode-languageserver-types';

const SYNTAX = new Set(['yaml.syntax', 'json.syntax']);

/** The edits of an action for `uri`, from `changes` and `documentChanges`. */
export function actionEdits(a: CodeAction, uri: string): TextEdit[] {
  const out: TextEdit[] = [...(a.edit?.changes?.[uri] ?? [])];
  for (const dc of a.edit?.documentChanges ?? []) if ('edits' in dc && dc.textDocument.uri === uri) out.push(...(dc.edits as TextEdit[]));
  return out;
}

/**
 * What breaks the property for one action, as readable lines ([] when it holds). `after` are the
 * diagnostics of the fixed text (the caller validates it, through the service or a server).
 */
export function propertyViolations(
  doc: TextDocument,
  before: readonly Diagnostic[],
  target: Diagnostic,
  action: CodeAction,
  after: readonly Diagnostic[],
): string[] {
  const edits = actionEdits(action, doc.uri).map(e => ({
    start: doc.offsetAt(e.range.start),
    end: doc.offsetAt(e.range.end),
    delta: e.newText.length - (doc.offsetAt(e.range.end) - doc.offsetAt(e.range.start)),
  }));
  const fixed = TextDocument.create(doc.uri, doc.languageId, doc.version + 1, TextDocument.applyEdits(doc, actionEdits(action, doc.uri)));
  const key = (code: unknown, s: number, e: number) => `${String(code)}@${s}-${e}`;
  const moved = (o: number) => o + edits.filter(e => e.end <= o && !(e.start === e.end && e.start === o)).reduce((n, e) => n + e.delta, 0);
  const touched = (s: number, e: number) => edits.some(x => s <= x.end && x.start <= e);
  const afterKeys = new Set(after.map(d => key(d.code, fixed.offsetAt(d.range.start), fixed.offsetAt(d.range.end))));
  const disables = /^Disable /.test(action.title);
  const out: string[] = [];
  const where = (d: Diagnostic) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${String(d.code)}`;
  for (const d of before) {
    const s = doc.offsetAt(d.range.start),
      e = doc.offsetAt(d.range.end);
    if (d === target || (d.code === target.code && d.range.start.line === target.range.start.line && disables)) continue;
    if (touched(s, e)) continue;
    // A placeholder changed to an unused key uses it: that key's template.unused-detail is meant.
    const name = (d.data as { key?: string } | undefined)?.key;
    if (d.code === 'template.unused-detail' && name && actionEdits(action, doc.uri).some(x => x.newText.includes(name))) continue;
    if (d.code === target.code && s === doc.offsetAt(target.range.start) && e === doc.offsetAt(target.range.end)) continue;
    if (!afterKeys.has(key(d.code, moved(s), moved(e)))) out.push(`"${action.title}" (for ${where(target)}) removed ${where(d)}`);
  }
  const beforeSyntax = new Set(
    before
      .filter(d => SYNTAX.has(String(d.code)))
      .map(d => key(d.code, moved(doc.offsetAt(d.range.start)), moved(doc.offsetAt(d.range.end)))),
  );
  for (const d of after) {
    if (!SYNTAX.has(String(d.code))) continue;
    if (!beforeSyntax.has(key(d.code, fixed.offsetAt(d.range.start), fixed.offsetAt(d.range.end))))
      out.push(`"${action.title}" (for ${where(target)}) added ${where(d)}: ${d.message}`);
  }
  return out;
}
