/**
 * The error-readiness table (`probe --format markdown|html`, docs/cli.md "The error-readiness table"): a
 * row per server — the protocol revision and era it negotiated, the listed tools it was called on, the
 * calls sent, its findings counted per rule, and a grade:
 *   A  no finding at error or warning level (information and hints do not count);
 *   B  warnings, no error;
 *   C  at least one error;
 *   F  it could not be started or reached (the row says why).
 * Markdown for a job summary or a pull-request comment; HTML as one self-contained page (no script, no
 * external resource: a CSP of `default-src 'none'` with inline styles only). Every string a server or a
 * config file gave — its name, revision, rule codes, the reason it did not start — is escaped.
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import { htmlText, mdCode, mdText } from '../../../service';
import { neutralizeCommands } from '../../format';
import type { ToolCoverage } from './coverage';

export type Grade = 'A' | 'B' | 'C' | 'F';

export interface ReadinessRow {
  readonly server: string;
  /** Undefined: it could not be started or reached. */
  readonly revision?: string;
  readonly era?: string;
  readonly toolsListed: number;
  /** Listed tools that were sent at least one call. */
  readonly toolsCalled: number;
  readonly callsPlanned: number;
  readonly callsSent: number;
  /** Findings by rule code, sorted by code (the session's own hint, `runtime.session`, left out). */
  readonly rules: readonly (readonly [string, number])[];
  readonly errors: number;
  readonly warnings: number;
  readonly grade: Grade;
  /** Why it could not be started, or what cut the run short. */
  readonly note?: string;
}

/** What a probed server's row is made of. */
export interface ReadinessInput {
  readonly server: string;
  readonly revision: string;
  readonly era: string;
  readonly diagnostics: readonly Diagnostic[];
  readonly coverage: readonly ToolCoverage[];
  readonly exited: boolean;
  readonly sandbox: boolean;
}

export const SESSION_HINT = 'runtime.session';

export function gradeOf(errors: number, warnings: number): Grade {
  return errors > 0 ? 'C' : warnings > 0 ? 'B' : 'A';
}

export function readinessRow(x: ReadinessInput): ReadinessRow {
  const findings = x.diagnostics.filter(d => d.code !== SESSION_HINT);
  const byRule = new Map<string, number>();
  for (const d of findings) byRule.set(String(d.code ?? ''), (byRule.get(String(d.code ?? '')) ?? 0) + 1);
  const errors = findings.filter(d => (d.severity ?? 1) === 1).length;
  const warnings = findings.filter(d => d.severity === 2).length;
  const tools = new Map<string, boolean>();
  for (const r of x.coverage) if (r.listed) tools.set(r.tool, (tools.get(r.tool) ?? false) || r.sent > 0);
  const notes = [x.exited && 'the server exited during the run', x.sandbox && 'in the sandbox'].filter(Boolean) as string[];
  return {
    server: x.server,
    revision: x.revision,
    era: x.era,
    toolsListed: tools.size,
    toolsCalled: [...tools.values()].filter(Boolean).length,
    callsPlanned: x.coverage.reduce((n, r) => n + r.planned, 0),
    callsSent: x.coverage.reduce((n, r) => n + r.sent, 0),
    rules: [...byRule].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    errors,
    warnings,
    grade: gradeOf(errors, warnings),
    ...(notes.length ? { note: notes.join('; ') } : {}),
  };
}

/** A server that could not be started or reached: grade F, and why. */
export function failedRow(server: string, reason: string): ReadinessRow {
  return {
    server,
    toolsListed: 0,
    toolsCalled: 0,
    callsPlanned: 0,
    callsSent: 0,
    rules: [],
    errors: 0,
    warnings: 0,
    grade: 'F',
    note: reason,
  };
}

export const GRADES_NOTE =
  'A: no finding at error or warning level; B: warnings, no error; C: at least one error; F: could not be started or reached.';

const HEADINGS = ['Server', 'Protocol', 'Tools called', 'Calls sent', 'Findings per rule', 'Errors', 'Warnings', 'Grade', 'Notes'];

/** How many servers got each grade: `2 servers: 1 A, 1 F`. */
function tally(rows: readonly ReadinessRow[]): string {
  const grades = (['A', 'B', 'C', 'F'] as const).map(g => [g, rows.filter(r => r.grade === g).length] as const).filter(([, n]) => n);
  return `${rows.length} server${rows.length === 1 ? '' : 's'}: ${grades.map(([g, n]) => `${n} ${g}`).join(', ')}`;
}

interface Cells {
  readonly code: (s: string) => string;
  readonly text: (s: string) => string;
}

function cells(r: ReadinessRow, c: Cells): string[] {
  const started = r.revision !== undefined;
  return [
    c.text(r.server),
    started ? `${c.code(r.revision!)} (${c.text(r.era ?? '')} era)` : '—',
    started ? `${r.toolsCalled} of ${r.toolsListed}` : '—',
    started ? `${r.callsSent} of ${r.callsPlanned}` : '—',
    r.rules.length ? r.rules.map(([code, n]) => `${c.code(code)} ${n}`).join(', ') : started ? 'none' : '—',
    started ? String(r.errors) : '—',
    started ? String(r.warnings) : '—',
    r.grade,
    r.note === undefined ? '' : c.text(r.note),
  ];
}

export function readinessMarkdown(rows: readonly ReadinessRow[]): string {
  const md: Cells = { code: mdCode, text: mdText };
  const lines = [
    '## MCP error readiness',
    '',
    `| ${HEADINGS.join(' | ')} |`,
    `|${HEADINGS.map(() => '---').join('|')}|`,
    ...rows.map(r => `| ${cells(r, md).join(' | ')} |`),
    '',
    `${tally(rows)}. Grades — ${GRADES_NOTE}`,
  ];
  return neutralizeCommands(lines.join('\n') + '\n', 'text');
}

const STYLE = `
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#1f2328;background:#fff}
table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #d0d7de;padding:.25rem .6rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}code{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}
.grade{font-weight:700;text-align:center}.A{color:#1a7f37}.B{color:#9a6700}.C,.F{color:#cf222e}
@media (prefers-color-scheme: dark){body{background:#0d1117;color:#e6edf3}th{background:#161b22}th,td{border-color:#30363d}}
`;

export function readinessHtml(rows: readonly ReadinessRow[], version: string): string {
  const html: Cells = { code: s => `<code>${htmlText(s)}</code>`, text: htmlText };
  const body = rows
    .map(r => {
      const c = cells(r, html);
      return `<tr>${c.map((x, i) => (i === 7 ? `<td class="grade ${r.grade}">${x}</td>` : i === 0 ? `<th scope="row">${x}</th>` : `<td>${x}</td>`)).join('')}</tr>`;
    })
    .join('\n');
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>MCP error readiness</title>
<style>${STYLE}</style>
</head>
<body>
<h1>MCP error readiness</h1>
<table>
<thead><tr>${HEADINGS.map(h => `<th scope="col">${h}</th>`).join('')}</tr></thead>
<tbody>
${body}
</tbody>
</table>
<p>${htmlText(tally(rows))}. Grades — ${htmlText(GRADES_NOTE)}</p>
<p><small>mcp-aql-errors ${htmlText(version)} probe</small></p>
</body>
</html>
`;
  return neutralizeCommands(page, 'xml');
}
