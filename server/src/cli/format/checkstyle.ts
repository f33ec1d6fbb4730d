/** Checkstyle XML (read by Jenkins warnings-ng, reviewdog, SonarQube importers): one <file>, one <error> per diagnostic. */
import { messageText, severityName, type FileReport } from '../report';
import { xmlEscape as x } from './xml';

const SEVERITY: Record<string, string> = { error: 'error', warning: 'warning', info: 'info', hint: 'info' };

/** One file's <file> element. */
export const checkstyleFile = (r: FileReport): string =>
  `  <file name="${x(r.rel)}">\n` +
  r.diagnostics
    .map(
      d =>
        `    <error line="${d.range.start.line + 1}" column="${d.range.start.character + 1}" severity="${SEVERITY[severityName(d)] ?? 'error'}" message="${x(messageText(d))}" source="${x(`mcp-aql.${String(d.code)}`)}"/>\n`,
    )
    .join('') +
  '  </file>\n';

export const CHECKSTYLE_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<checkstyle version="4.3">\n';
export const CHECKSTYLE_TAIL = '</checkstyle>\n';

export function formatCheckstyle(reports: readonly FileReport[]): string {
  return CHECKSTYLE_HEAD + reports.map(checkstyleFile).join('') + CHECKSTYLE_TAIL;
}
