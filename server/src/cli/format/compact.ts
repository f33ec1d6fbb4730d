/** ESLint's `compact`: one line per problem (`path: line L, col C, Error - message (code)`), then the count. */
import { count, messageText, severityName, type FileReport } from '../report';
import { escapeControls, shownPath } from './escape';

const WORD: Record<string, string> = { error: 'Error', warning: 'Warning', info: 'Info', hint: 'Hint' };

export function formatCompact(reports: readonly FileReport[]): string {
  const out: string[] = [];
  for (const r of reports)
    for (const d of r.diagnostics)
      out.push(
        `${shownPath(r.rel)}: line ${d.range.start.line + 1}, col ${d.range.start.character + 1}, ${WORD[severityName(d)] ?? 'Error'} - ${escapeControls(messageText(d))} (${escapeControls(String(d.code))})`,
      );
  const c = count(reports);
  const total = c.errors + c.warnings + c.infos + c.hints;
  if (total) out.push('', `${total} problem${total === 1 ? '' : 's'}`);
  return out.length ? out.join('\n') + '\n' : '';
}
