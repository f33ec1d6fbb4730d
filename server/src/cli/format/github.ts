/** GitHub Actions workflow commands: `::error file=…,line=…::message`, escaped per the runner's rules. */
import { messageText, severityName, type FileReport } from '../report';

const escData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escProp = (s: string) => escData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
const LEVEL: Record<string, string> = { error: 'error', warning: 'warning', info: 'notice', hint: 'notice' };

export function formatGithub(reports: readonly FileReport[]): string {
  const out: string[] = [];
  for (const r of reports) for (const d of r.diagnostics) {
    const props = [
      `file=${escProp(r.rel)}`, `line=${d.range.start.line + 1}`, `col=${d.range.start.character + 1}`,
      `endLine=${d.range.end.line + 1}`, `endColumn=${d.range.end.character + 1}`, `title=${escProp(String(d.code))}`,
    ].join(',');
    out.push(`::${LEVEL[severityName(d)] ?? 'error'} ${props}::${escData(messageText(d))}`);
  }
  return out.length ? out.join('\n') + '\n' : '';
}
