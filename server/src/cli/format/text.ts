/** Human output: `path:line:col  severity  message  code`, a code frame, a summary line. */
import { count, messageText, omittedLine, severityName, type Counts, type FileReport } from '../report';
import { escapeControls, shownPath } from './escape';

interface TextOptions {
  readonly color: boolean;
  /** What the files are called in the summary (default 'adapter file'). */ readonly noun?: string;
}

const paint = (on: boolean, code: string, s: string) => (on ? `\x1b[${code}m${s}\x1b[0m` : s);
const COLOR: Record<string, string> = { error: '31', warning: '33', info: '36', hint: '90' };

/** A source line as shown: tabs expanded, control characters escaped (carets are measured on this). */
const display = (s: string) => escapeControls(s.replace(/\t/g, '  '));

/** Two lines of context, line numbers, and a caret run under the range (tabs expanded to keep columns). */
export function codeFrame(text: string, line: number, startCol: number, endLine: number, endCol: number, color = false): string {
  // Line breaks as the LSP counts them (\r\n, \n, a lone \r), so the frame shows the lines the range names.
  const lines = text.split(/\r\n|\n|\r/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const first = Math.max(0, line - 2),
    last = Math.min(lines.length - 1, line + 2 > endLine ? line + 1 : line + 1);
  const width = String(last + 1).length;
  const out: string[] = [];
  const target = lines[line] ?? '';
  const expand = (col: number) => display(target.slice(0, col)).length;
  // A range far to the right of a long line (a JSON Lines record): show a window of the lines around it.
  const off = expand(startCol) > 140 ? expand(startCol) - 60 : 0;
  const lead = off ? '…' : '';
  for (let i = first; i <= Math.min(last, lines.length - 1); i++) {
    const raw = lines[i] ?? '';
    const shown = lead + display(raw).slice(off);
    const clipped = shown.length > 160 ? shown.slice(0, 157) + '…' : shown;
    out.push(`${i === line ? paint(color, '1', '>') : ' '} ${String(i + 1).padStart(width)} | ${clipped}`);
    if (i === line) {
      const s = Math.min(expand(startCol) - off + lead.length, 160);
      const e = endLine === line ? Math.min(Math.max(expand(endCol) - off + lead.length, s + 1), 160) : Math.max(clipped.length, s + 1);
      out.push(`  ${' '.repeat(width)} | ${' '.repeat(s)}${paint(color, '31', '^'.repeat(Math.max(1, e - s)))}`);
    }
  }
  return out.join('\n');
}

/**
 * One file's lines: its path, then per diagnostic the message line, the code frame and a blank line;
 * last, what the per-file cap left out (report.ts capReports).
 */
export function textFileLines(r: FileReport, color: boolean): string[] {
  const out: string[] = [];
  if (!r.diagnostics.length) return out;
  const rel = shownPath(r.rel);
  out.push(paint(color, '4', rel));
  for (const d of r.diagnostics) {
    const sev = severityName(d);
    const pos = `${rel}:${d.range.start.line + 1}:${d.range.start.character + 1}`;
    out.push(
      `${pos}  ${paint(color, COLOR[sev] ?? '0', sev)}  ${escapeControls(messageText(d))}  ${paint(color, '90', escapeControls(String(d.code)))}`,
    );
    out.push(codeFrame(r.text, d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character, color));
    out.push('');
  }
  const cut = omittedLine(r, rel);
  if (cut) out.push(cut);
  return out;
}

/** The closing line: the totals over `files` files. */
export function textSummary(c: Counts, files: number, noun = 'adapter file'): string {
  const total = c.errors + c.warnings + c.infos + c.hints;
  return total === 0
    ? `No problems in ${files} ${noun}${files === 1 ? '' : 's'}.`
    : `${total} problem${total === 1 ? '' : 's'} (${c.errors} error${c.errors === 1 ? '' : 's'}, ${c.warnings} warning${c.warnings === 1 ? '' : 's'}, ${c.infos} info, ${c.hints} hint${c.hints === 1 ? '' : 's'}) in ${files} ${noun}${files === 1 ? '' : 's'}.`;
}

export function formatText(reports: readonly FileReport[], opts: TextOptions): string {
  const out: string[] = [];
  for (const r of reports) out.push(...textFileLines(r, opts.color));
  out.push(textSummary(count(reports), reports.length, opts.noun));
  return out.join('\n') + '\n';
}
