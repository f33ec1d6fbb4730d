/** GitHub Actions workflow commands: `::error file=…,line=…::message`, escaped per the runner's rules. */
import { messageText, severityName, type FileReport } from '../report';
import { escapeControls } from './escape';

/**
 * The runner's own escapes (% CR LF, and : , in properties) after our control-character escaping:
 * a message keeps its line breaks (as %0A), a property shows them as `\n`; no escape sequence reaches the log.
 */
export const escData = (s: string) =>
  escapeControls(s, { keepLineBreaks: true }).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
export const escProp = (s: string) => escapeControls(s).replace(/%/g, '%25').replace(/:/g, '%3A').replace(/,/g, '%2C');
const LEVEL: Record<string, string> = { error: 'error', warning: 'warning', info: 'notice', hint: 'notice' };

export function formatGithub(reports: readonly FileReport[]): string {
  const out: string[] = [];
  for (const r of reports)
    for (const d of r.diagnostics) {
      const props = [
        `file=${escProp(r.rel)}`,
        `line=${d.range.start.line + 1}`,
        `col=${d.range.start.character + 1}`,
        `endLine=${d.range.end.line + 1}`,
        `endColumn=${d.range.end.character + 1}`,
        `title=${escProp(String(d.code))}`,
      ].join(',');
      out.push(`::${LEVEL[severityName(d)] ?? 'error'} ${props}::${escData(messageText(d))}`);
    }
  return out.length ? out.join('\n') + '\n' : '';
}
