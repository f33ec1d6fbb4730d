/** What a check run produced, per file, in the shape every format reads. */
import type { Diagnostic } from 'vscode-languageserver-types';

export interface FileReport {
  readonly path: string;
  /** Path relative to the working directory, with forward slashes. */
  readonly rel: string;
  readonly uri: string;
  readonly text: string;
  /** For a file too large to keep (a JSON Lines log read record by record): the lines frames may show. */
  readonly lines?: LineSource;
  readonly diagnostics: readonly Diagnostic[];
  /** What the per-file cap left out of `diagnostics` (capReports), counted by severity. */
  readonly omitted?: Counts;
}

/** Some lines of a file, by 0-based number (undefined: not kept); `count` is the file's number of lines. */
export interface LineSource {
  readonly count: number;
  at(line: number): string | undefined;
}

const SEVERITY_NAME = ['', 'error', 'warning', 'info', 'hint'] as const;
export const severityName = (d: Diagnostic): string => SEVERITY_NAME[d.severity ?? 1] ?? 'error';

export interface Counts {
  errors: number;
  warnings: number;
  infos: number;
  hints: number;
}

/** Every problem of the reports, those the cap left out included (so the exit code never depends on the cap). */
export function count(reports: readonly FileReport[]): Counts {
  const c = { errors: 0, warnings: 0, infos: 0, hints: 0 };
  for (const r of reports) {
    if (r.omitted) for (const k of ['errors', 'warnings', 'infos', 'hints'] as const) c[k] += r.omitted[k];
    for (const d of r.diagnostics) {
      if (d.severity === 2) c.warnings++;
      else if (d.severity === 3) c.infos++;
      else if (d.severity === 4) c.hints++;
      else c.errors++;
    }
  }
  return c;
}

/** Problems listed per file at most (the service's default cap; the CLI asks it for all, then cuts here, after --quiet). */
export const PER_FILE_CAP = 1000;

/**
 * At most `max` problems listed per file, errors first, then warnings, information and hints (each in
 * position order), and what was left out counted in `omitted` (docs/robustness.md).
 */
export function capReports(reports: readonly FileReport[], max = PER_FILE_CAP): FileReport[] {
  return reports.map(r => {
    if (r.diagnostics.length <= max) return r;
    const bySeverity = [...r.diagnostics].sort((a, b) => (a.severity ?? 1) - (b.severity ?? 1));
    const kept = new Set(bySeverity.slice(0, max));
    return {
      ...r,
      diagnostics: r.diagnostics.filter(d => kept.has(d)),
      omitted: count([{ ...r, diagnostics: bySeverity.slice(max) }]),
    };
  });
}

/** The line that says what the cap left out of a file's report. */
export function omittedLine(r: FileReport, shownPath: string, max = PER_FILE_CAP): string | undefined {
  const o = r.omitted;
  if (!o) return undefined;
  const n = o.errors + o.warnings + o.infos + o.hints;
  return `${shownPath}: ${n} more problem${n === 1 ? '' : 's'} not shown (${o.errors} error${o.errors === 1 ? '' : 's'}, ${o.warnings} warning${o.warnings === 1 ? '' : 's'}, ${o.infos} info, ${o.hints} hint${o.hints === 1 ? '' : 's'}): at most ${max} are listed per file, errors first.`;
}

export const messageText = (d: Diagnostic): string => (typeof d.message === 'string' ? d.message : d.message.value);
