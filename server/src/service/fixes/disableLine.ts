/**
 * "Disable mcp-aql(<code>) for this line" (test/service/disableLine.test.ts), as ESLint offers: a
 * `# mcp-aql-disable-next-line <code>` comment on its own line above the diagnostic's first line, with
 * that line's indentation; when the line above already is such a comment, the code is added to it.
 * Not in JSON (no comments), and not where a comment line would become text: a line inside a
 * multi-line string (a block scalar, a quoted string over several lines).
 */
import { TextEdit, type CodeAction, type Diagnostic } from 'vscode-languageserver-types';
import type { FeatureContext } from '../model/context';
import { Intervals, scalarsTouching } from '../parse/brokenText';
import { action, lineStart, single } from './edits';

const DIRECTIVE = /^([ \t]*)#[ \t]*mcp-aql-disable-next-line\b([^\r\n]*)$/;

export function disableForLine(ctx: FeatureContext, d: Diagnostic, code: string): CodeAction | undefined {
  if (ctx.model.kind === 'json') return undefined;
  const text = ctx.doc.getText();
  const at = lineStart(text, ctx.doc.offsetAt(d.range.start));
  const first = at + /^[ \t]*/.exec(text.slice(at, at + 200))![0].length;
  if (insideMultilineScalar(ctx, at)) return undefined;
  const title = `Disable mcp-aql(${code}) for this line`;
  const prevStart = at > 0 ? lineStart(text, at - 1) : -1;
  const prev = prevStart >= 0 ? text.slice(prevStart, at).replace(/\r?\n$/, '') : '';
  const m = prevStart >= 0 ? DIRECTIVE.exec(prev) : null;
  if (m) {
    const [codes] = m[2]!.split(/\s--(?:\s|$)/);
    const names = codes!.split(/[\s,]+/).filter(Boolean);
    if (names.length === 0 || names.includes(code)) return undefined; // already disabled for every code, or this one
    const end = prevStart + m[1]!.length + prev.slice(m[1]!.length).indexOf(codes!.trimEnd()) + codes!.trimEnd().length;
    return action(title, d, single(ctx.doc, [TextEdit.insert(ctx.doc.positionAt(end), ` ${code}`)]));
  }
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = text.slice(at, first);
  return action(title, d, single(ctx.doc, [TextEdit.insert(ctx.doc.positionAt(at), `${indent}# mcp-aql-disable-next-line ${code}${eol}`)]));
}

/** Is `offset` (a line start) strictly inside a scalar that spans lines? Such a line is text, not YAML. */
function insideMultilineScalar(ctx: FeatureContext, offset: number): boolean {
  return scalarsTouching(ctx.model, new Intervals([{ start: offset, end: offset + 1 }]), 0).some(x => x.span.start < offset);
}
