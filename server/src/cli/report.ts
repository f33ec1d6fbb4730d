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

export function count(reports: readonly FileReport[]): Counts {
  const c = { errors: 0, warnings: 0, infos: 0, hints: 0 };
  for (const r of reports)
    for (const d of r.diagnostics) {
      if (d.severity === 2) c.warnings++;
      else if (d.severity === 3) c.infos++;
      else if (d.severity === 4) c.hints++;
      else c.errors++;
    }
  return c;
}

export const messageText = (d: Diagnostic): string => (typeof d.message === 'string' ? d.message : d.message.value);
