/** The report in the chosen format, to standard output or to --output-file (written whole, atomically). */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileUri } from '../node/bytePaths';
import { VERSION } from './deps';
import { UsageError } from './files';
import { formatCheckstyle } from './format/checkstyle';
import { formatCodeclimate } from './format/codeclimate';
import { formatGithub } from './format/github';
import { formatJson } from './format/json';
import { formatJunit } from './format/junit';
import { formatSarif } from './format/sarif';
import { formatText } from './format/text';
import { neutralizeCommands, type OutputSyntax } from './format/commands';
import type { Io, OutKind } from './io';
import { omittedLine, type FileReport } from './report';
import { shownPath } from './format/escape';

/** The report in a format, with no line a GitHub runner would read as a command but our own annotations. */
export function render(format: string, reports: readonly FileReport[], io: Io, color = io.color, noun?: string): string {
  const text = formatted(format, reports, io, color, noun);
  return neutralizeCommands(text, SYNTAX[format] ?? 'text', { own: format === 'github' });
}

const SYNTAX: Record<string, OutputSyntax> = { json: 'json', sarif: 'json', codeclimate: 'json', junit: 'xml', checkstyle: 'xml' };

/** How render's text goes to standard output: `github` is annotations. */
export const outKind = (format: string): OutKind => (format === 'github' ? 'annotations' : 'text');

function formatted(format: string, reports: readonly FileReport[], io: Io, color: boolean, noun: string | undefined): string {
  switch (format) {
    case 'json':
      return formatJson(reports);
    case 'sarif':
      return formatSarif(reports, VERSION, fileUri(io.cwd));
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

/** The report to --output-file (no colour), or else to standard output: one output path for check and verify. */
export function emitReport(io: Io, args: { format: string; outputFile?: string }, reports: readonly FileReport[], noun?: string): void {
  // What the per-file cap left out: in the text report itself, on standard error for the other formats.
  if (args.format !== 'text' || args.outputFile !== undefined)
    for (const r of reports) {
      const line = omittedLine(r, shownPath(r.rel));
      if (line) io.stderr(line + '\n');
    }
  if (args.outputFile !== undefined) writeOutputFile(io, args.outputFile, render(args.format, reports, io, false, noun));
  else io.stdout(render(args.format, reports, io, io.color, noun), outKind(args.format));
}

/** --quiet: errors only. */
export const errorsOnly = (reports: readonly FileReport[]): FileReport[] =>
  reports.map(r => ({ ...r, diagnostics: r.diagnostics.filter(d => (d.severity ?? 1) === 1) }));

export function writeOutputFile(io: Io, file: string, text: string): void {
  const path = resolve(io.cwd, file);
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (e) {
    throw new UsageError(`cannot write --output-file '${file}': ${(e as Error).message}`);
  }
}
