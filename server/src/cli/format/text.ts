/** Human output: `path:line:col  severity  message  code`, a code frame, a summary line. */
import { count, messageText, omittedLine, severityName, type Counts, type FileReport, type LineSource } from '../report';
import { escapeControls, shownPath } from './escape';

interface TextOptions {
  readonly color: boolean;
  /** What the files are called in the summary (default 'adapter file'). */ readonly noun?: string;
}

const paint = (on: boolean, code: string, s: string) => (on ? `\x1b[${code}m${s}\x1b[0m` : s);
const COLOR: Record<string, string> = { error: '31', warning: '33', info: '36', hint: '90' };

/** A source line as shown: tabs expanded, control characters escaped (carets are measured on this). */
const display = (s: string) => escapeControls(s.replace(/\t/g, '  '));
/** How wide one UTF-16 unit of a source line is once shown (remembered per unit). */
const widths = new Map<number, number>();
const widthOf = (c: number): number => {
  let w = widths.get(c);
  if (w === undefined) widths.set(c, (w = display(String.fromCharCode(c)).length));
  return w;
};

interface ShownLine {
  readonly shown: string;
  /** width[k]: how wide the first k characters of the line are once shown. */
  readonly width: Uint32Array;
}

/**
 * Code frames for one file: its lines are found once, and each line is escaped once (with the shown
 * width of every prefix), so a frame costs its window, not its line's length (a 4 MB line of control
 * characters with a hundred problems on it).
 */
export function createFramer(
  source: string | LineSource,
): (line: number, startCol: number, endLine: number, endCol: number, color?: boolean) => string {
  const { count, raw } = typeof source === 'string' ? linesOf(source) : { count: source.count, raw: (i: number) => source.at(i) ?? '' };
  const cache = new Map<number, ShownLine>();
  const lineAt = (i: number): ShownLine => {
    let l = cache.get(i);
    if (l) return l;
    const r = raw(i);
    const width = new Uint32Array(r.length + 1);
    for (let k = 0; k < r.length; k++) {
      const c = r.charCodeAt(k);
      if (c >= 0xd800 && c <= 0xdbff && (r.charCodeAt(k + 1) & 0xfc00) === 0xdc00) {
        // A surrogate pair shows as itself (2 units); a prefix that ends inside it shows a lone, escaped half.
        width[k + 1] = width[k]! + widthOf(c);
        width[k + 2] = width[k]! + 2;
        k++;
        continue;
      }
      width[k + 1] = width[k]! + (c >= 0x20 && c < 0x7f ? 1 : widthOf(c));
    }
    l = { shown: display(r), width };
    cache.set(i, l);
    return l;
  };
  return (line, startCol, endLine, endCol, color = false) => {
    const first = Math.max(0, line - 2),
      last = Math.min(count - 1, line + 1);
    const width = String(last + 1).length;
    const out: string[] = [];
    const target = lineAt(line);
    const expand = (col: number) => target.width[Math.max(0, Math.min(col, target.width.length - 1))]!;
    // A range far to the right of a long line (a JSON Lines record): show a window of the lines around it.
    const off = expand(startCol) > 140 ? expand(startCol) - 60 : 0;
    const lead = off ? '…' : '';
    for (let i = first; i <= last; i++) {
      const shown = lead + lineAt(i).shown.slice(off, off + 161);
      const clipped = shown.length > 160 ? shown.slice(0, 157) + '…' : shown;
      out.push(`${i === line ? paint(color, '1', '>') : ' '} ${String(i + 1).padStart(width)} | ${clipped}`);
      if (i === line) {
        const s = Math.min(expand(startCol) - off + lead.length, 160);
        const e = endLine === line ? Math.min(Math.max(expand(endCol) - off + lead.length, s + 1), 160) : Math.max(clipped.length, s + 1);
        out.push(`  ${' '.repeat(width)} | ${' '.repeat(s)}${paint(color, '31', '^'.repeat(Math.max(1, e - s)))}`);
      }
    }
    return out.join('\n');
  };
}

/** The lines of a text, as the LSP counts line breaks (\\r\\n, \\n, a lone \\r), found once. */
function linesOf(text: string): { count: number; raw: (i: number) => string } {
  const starts: number[] = [0];
  for (const m of text.matchAll(/\r\n|\n|\r/g)) starts.push(m.index + m[0].length);
  let count = starts.length;
  if (count > 1 && starts[count - 1] === text.length) count--;
  const raw = (i: number) =>
    i < count ? text.slice(starts[i]!, i + 1 < starts.length ? starts[i + 1]! : text.length).replace(/(?:\r\n|\n|\r)$/, '') : '';
  return { count, raw };
}

/** Two lines of context, line numbers, and a caret run under the range (tabs expanded to keep columns). */
export function codeFrame(text: string, line: number, startCol: number, endLine: number, endCol: number, color = false): string {
  return createFramer(text)(line, startCol, endLine, endCol, color);
}

/**
 * One file's lines: its path, then per diagnostic the message line, the code frame and a blank line;
 * last, what the per-file cap left out (report.ts capReports).
 */
export function textFileLines(r: FileReport, color: boolean): string[] {
  const out: string[] = [];
  if (!r.diagnostics.length) return out;
  const rel = shownPath(r.rel);
  const frame = createFramer(r.lines ?? r.text);
  out.push(paint(color, '4', rel));
  for (const d of r.diagnostics) {
    const sev = severityName(d);
    const pos = `${rel}:${d.range.start.line + 1}:${d.range.start.character + 1}`;
    out.push(
      `${pos}  ${paint(color, COLOR[sev] ?? '0', sev)}  ${escapeControls(messageText(d))}  ${paint(color, '90', escapeControls(String(d.code)))}`,
    );
    out.push(frame(d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character, color));
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
