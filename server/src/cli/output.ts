/** The report in the chosen format, to standard output or to --output-file (written whole, atomically). */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileUri } from '../node/bytePaths';
import { VERSION } from './deps';
import { UsageError } from './files';
import {
  formatCheckstyle,
  formatCodeclimate,
  formatCompact,
  formatGithub,
  formatJson,
  formatJunit,
  formatSarif,
  formatText,
  neutralizeCommands,
  type OutputSyntax,
  shownPath,
} from './format';
import type { Io, OutKind } from './io';
import type { Output } from './args';
import { count, omittedLine, type Counts, type FileReport } from './report';

/** The report in a format, with no line a GitHub runner would read as a command but our own annotations. */
export function render(format: string, reports: readonly FileReport[], io: Io, color = io.color, noun?: string): string {
  const text = formatted(format, reports, io, color, noun);
  return neutralizeCommands(text, SYNTAX[format] ?? 'text', { own: format === 'github' });
}

const SYNTAX: Record<string, OutputSyntax> = { json: 'json', sarif: 'json', codeclimate: 'json', junit: 'xml', checkstyle: 'xml' };

/** The syntax a format's text is escaped in (format/commands.ts). */
export const outputSyntax = (format: string): OutputSyntax => SYNTAX[format] ?? 'text';

/** How render's text goes to standard output: `github` is annotations. */
export const outKind = (format: string): OutKind => (format === 'github' ? 'annotations' : 'text');

/** The command a report comes from, by what its files are called: SARIF's run category (code scanning keeps each apart). */
const COMMAND_OF_NOUN: Record<string, string> = { 'response file': 'verify', 'probe transcript': 'probe', 'watch transcript': 'watch' };

function formatted(format: string, reports: readonly FileReport[], io: Io, color: boolean, noun: string | undefined): string {
  switch (format) {
    case 'json':
      return formatJson(reports);
    case 'sarif':
      return formatSarif(reports, VERSION, fileUri(io.cwd), COMMAND_OF_NOUN[noun ?? ''] ?? 'check');
    case 'github':
      return formatGithub(reports);
    case 'junit':
      return formatJunit(reports);
    case 'checkstyle':
      return formatCheckstyle(reports);
    case 'codeclimate':
      return formatCodeclimate(reports);
    case 'compact':
      return formatCompact(reports);
    default:
      return formatText(reports, { color, noun });
  }
}

/**
 * Whether the text report is coloured: --color / --no-color, else FORCE_COLOR (set and not `0` or
 * `false`: on), else NO_COLOR (set: off), else whether standard output is a terminal.
 */
export function useColor(io: Io, flag: boolean | undefined): boolean {
  if (flag !== undefined) return flag;
  const force = io.env?.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (io.env?.NO_COLOR) return false;
  return io.color;
}

/**
 * Every report of the run (check and verify alike): each -f to the -o after it, or to standard output
 * (unless `stdoutTaken`: --fix-dry-run and --stdin --fix own it). What the per-file cap left out is
 * said in the text report on standard output, and on standard error otherwise.
 */
export function emitReport(
  io: Io,
  args: { outputs: readonly Output[]; color?: boolean },
  reports: readonly FileReport[],
  noun?: string,
  stdoutTaken = false,
): void {
  if (args.outputs.some(o => o.format !== 'text' || o.file !== undefined))
    for (const r of reports) {
      const line = omittedLine(r, shownPath(r.rel));
      if (line) io.stderr(line + '\n');
    }
  for (const o of args.outputs) {
    if (o.file !== undefined) writeOutputFile(io, o.file, render(o.format, reports, io, false, noun));
    else if (!stdoutTaken) io.stdout(render(o.format, reports, io, useColor(io, args.color), noun), outKind(o.format));
  }
}

/** 0, or 1 when a problem reaches --fail-severity (default error) or the warnings pass --max-warnings; counts include what the cap cut. */
export function exitStatus(io: Io, args: { failSeverity: number; maxWarnings?: number }, reports: readonly FileReport[]): number {
  return exitFromCounts(io, args, count(reports));
}

export function exitFromCounts(io: Io, args: { failSeverity: number; maxWarnings?: number }, c: Counts): number {
  const failing = [c.errors, c.warnings, c.infos, c.hints].slice(0, args.failSeverity).reduce((x, y) => x + y, 0);
  if (failing > 0) return 1;
  if (args.maxWarnings !== undefined && c.warnings > args.maxWarnings) {
    io.stderr(`${c.warnings} warnings, more than --max-warnings ${args.maxWarnings}\n`);
    return 1;
  }
  return 0;
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
