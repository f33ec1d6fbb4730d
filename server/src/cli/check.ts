/** `mcp-aql-errors check`: read the files, index their codes, validate each, report. */
import { relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createAdapterService, createWorkspaceIndex, isCode, type RuleLevel, type ServiceOptions } from '../service';
import { readRegularFile } from '../fs/readRegularFile';
import { deps, VERSION } from './deps';
import { findFiles, UsageError } from './files';
import { escapeControls } from './format/escape';
import { formatGithub } from './format/github';
import { formatJson } from './format/json';
import { formatSarif } from './format/sarif';
import { formatText } from './format/text';
import { count, type FileReport } from './report';
import type { Io } from './io';

const LEVELS = new Set(['off', 'hint', 'information', 'warning', 'error']);
const FORMATS = new Set(['text', 'json', 'sarif', 'github']);

export interface CheckArgs { paths: string[]; format: string; maxWarnings?: number; rules: Record<string, RuleLevel>; followSymlinks?: boolean }

export function parseCheckArgs(argv: readonly string[]): CheckArgs {
  const a: CheckArgs = { paths: [], format: 'text', rules: {} };
  for (let i = 0; i < argv.length; i++) {
    const x = argv[i]!;
    const val = (name: string) => {
      const eq = x.indexOf('=');
      if (x.startsWith('--') && eq > 0) return x.slice(eq + 1);
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${name} needs a value`);
      return v;
    };
    if (x === '--format' || x.startsWith('--format=')) {
      a.format = val('--format');
      if (!FORMATS.has(a.format)) throw new UsageError(`unknown format '${a.format}' (text, json, sarif, github)`);
    } else if (x === '--max-warnings' || x.startsWith('--max-warnings=')) {
      const n = Number(val('--max-warnings'));
      if (!Number.isInteger(n) || n < 0) throw new UsageError('--max-warnings takes a whole number ≥ 0');
      a.maxWarnings = n;
    } else if (x === '--rule' || x.startsWith('--rule=')) {
      const [code, level] = val('--rule').split('=');
      if (!code || !isCode(code)) throw new UsageError(`--rule: unknown diagnostic code '${code ?? ''}'`);
      if (!level || !LEVELS.has(level)) throw new UsageError(`--rule ${code}: level must be off, hint, information, warning or error`);
      a.rules[code] = level as RuleLevel;
    } else if (x === '--follow-symlinks') a.followSymlinks = true;
    else if (x.startsWith('-') && x !== '-') throw new UsageError(`unknown option '${x}'`);
    else a.paths.push(x);
  }
  return a;
}

export function runCheck(argv: readonly string[], io: Io): number {
  const args = parseCheckArgs(argv);
  const shown = (p: string) => escapeControls(relative(io.cwd, p) || '.');
  const files = findFiles(args.paths, io.cwd, { followSymlinks: args.followSymlinks, onNote: (p, m) => io.stderr(`${shown(p)}: ${m}\n`) });
  const service = createAdapterService(deps);
  const opts: ServiceOptions = { rules: args.rules };
  const docs: TextDocument[] = [];
  const paths = new Map<string, string>();
  let unreadable = 0;
  for (const f of files) {
    // Only regular files are read, without blocking; a file gone or swapped since the listing is one message, not the end of the run.
    const read = readRegularFile(f.path);
    if (!read.ok) {
      io.stderr(`${shown(f.path)}: cannot read: ${read.message}; skipped\n`);
      if (read.reason === 'error') unreadable++;
      continue;
    }
    // Bytes that are not UTF-8 become U+FFFD, which text.invalid-character reports where it stands.
    const text = new TextDecoder('utf-8', { fatal: false }).decode(read.bytes);
    const uri = pathToFileURL(f.path).href;
    const doc = TextDocument.create(uri, 'yaml', 1, text);
    if (!service.isAdapter(doc, opts)) {
      if (f.explicit) io.stderr(`${shown(f.path)}: not an adapter file (see README "Which files"); skipped\n`);
      continue;
    }
    docs.push(doc);
    paths.set(uri, f.path);
  }
  if (!docs.length) throw new UsageError(`no adapter files found in ${args.paths.length ? args.paths.join(' ') : 'the current directory'}`);
  const index = createWorkspaceIndex();
  for (const d of docs) index.update(d.uri, service.declaredCodes(d, opts), service.codeOccurrences(d, opts));
  const reports: FileReport[] = docs.map(d => {
    const path = paths.get(d.uri)!;
    return { path, rel: relative(io.cwd, path).split(sep).join('/'), uri: d.uri, text: d.getText(), diagnostics: service.validate(d, opts, index.except(d.uri)) };
  });
  const out = args.format === 'json' ? formatJson(reports)
    : args.format === 'sarif' ? formatSarif(reports, VERSION, pathToFileURL(io.cwd).href)
    : args.format === 'github' ? formatGithub(reports)
    : formatText(reports, { color: io.color });
  io.stdout(out);
  const c = count(reports);
  if (unreadable) { io.stderr(`${unreadable} file${unreadable === 1 ? '' : 's'} could not be read\n`); return 2; }
  if (c.errors > 0) return 1;
  if (args.maxWarnings !== undefined && c.warnings > args.maxWarnings) {
    io.stderr(`${c.warnings} warnings, more than --max-warnings ${args.maxWarnings}\n`);
    return 1;
  }
  return 0;
}
