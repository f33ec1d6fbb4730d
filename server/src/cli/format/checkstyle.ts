/** Checkstyle XML (read by Jenkins warnings-ng, reviewdog, SonarQube importers): one <file>, one <error> per diagnostic. */
import { messageText, severityName, type FileReport } from '../report';
import { xmlEscape as x } from './xml';

const SEVERITY: Record<string, string> = { error: 'error', warning: 'warning', info: 'info', hint: 'info' };

export function formatCheckstyle(reports: readonly FileReport[]): string {
  const files = reports.map(
    r =>
      `  <file name="${x(r.rel)}">\n` +
      r.diagnostics
        .map(
          d =>
            `    <error line="${d.range.start.line + 1}" column="${d.range.start.character + 1}" severity="${SEVERITY[severityName(d)] ?? 'error'}" message="${x(messageText(d))}" source="${x(`mcp-aql.${String(d.code)}`)}"/>\n`,
        )
        .join('') +
      '  </file>\n',
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<checkstyle version="4.3">\n${files.join('')}</checkstyle>\n`;
}
