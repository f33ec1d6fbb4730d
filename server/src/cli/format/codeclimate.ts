/**
 * Code Climate JSON as GitLab Code Quality reads it (`artifacts: reports: codequality`): description,
 * check_name, fingerprint, severity, location.path, location.lines.begin. The fingerprint hashes the
 * path, code, message, the source line's text and the occurrence number, not the line number, so an
 * issue keeps its identity when lines above it move.
 */
import { createHash } from 'node:crypto';
import { messageText, severityName, type FileReport } from '../report';

const SEVERITY: Record<string, string> = { error: 'major', warning: 'minor', info: 'info', hint: 'info' };

/** One file's issues. */
export function codeclimateIssues(r: FileReport) {
  const lines = r.text.split(/\r?\n/);
  const seen = new Map<string, number>();
  return r.diagnostics.map(d => {
    const code = String(d.code),
      message = messageText(d);
    const key = [r.rel, code, message, (lines[d.range.start.line] ?? '').trim()].join('\u0000');
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return {
      type: 'issue',
      check_name: code,
      description: message,
      categories: ['Bug Risk'],
      fingerprint: createHash('md5').update(`${key}\u0000${n}`).digest('hex'),
      severity: SEVERITY[severityName(d)] ?? 'major',
      location: { path: r.rel, lines: { begin: d.range.start.line + 1, end: d.range.end.line + 1 } },
    };
  });
}

export function formatCodeclimate(reports: readonly FileReport[]): string {
  return JSON.stringify(reports.flatMap(codeclimateIssues), null, 2) + '\n';
}
