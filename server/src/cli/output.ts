/** The report in the chosen format, to standard output or to --output-file (written whole, atomically). */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { VERSION } from './deps';
import { UsageError } from './files';
import { formatCheckstyle } from './format/checkstyle';
import { formatCodeclimate } from './format/codeclimate';
import { formatGithub } from './format/github';
import { formatJson } from './format/json';
import { formatJunit } from './format/junit';
import { formatSarif } from './format/sarif';
import { formatText } from './format/text';
import type { Io } from './io';
import type { FileReport } from './report';

export function render(format: string, reports: readonly FileReport[], io: Io, color = io.color, noun?: string): string {
  switch (format) {
    case 'json':
      return formatJson(reports);
    case 'sarif':
      return formatSarif(reports, VERSION, pathToFileURL(io.cwd).href);
    case 'github':
      return formatGithub(reports);
    case 'junit':
      return formatJunit(reports);
    case 'checkstyle':
      return formatCheckstyle(reports);
    case 'codeclimate':
      return formatCodeclimate(reports);
    default:
      return formatText(reports, { color, noun });
  }
}

/** --quiet: errors only. */
export const errorsOnly = (reports: readonly FileReport[]): FileReport[] =>
  reports.map(r => ({ ...r, diagnostics: r.diagnostics.filter(d => (d.severity ?? 1) === 1) }));

export function writeOutputFile(io: Io, file: string, text: string): void {
  writeFileAtomically(io, file, text, '--output-file');
}

/** Write a file the user named, whole (a temporary file renamed over it). */
export function writeFileAtomically(io: Io, file: string, text: string, option = '--record'): void {
  const path = resolve(io.cwd, file);
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (e) {
    throw new UsageError(`cannot write ${option} '${file}': ${(e as Error).message}`);
  }
}
