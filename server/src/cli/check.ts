/** `mcp-aql-errors check`: read the files, index their codes, validate each, report. */
import { readFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createAdapterService, createWorkspaceIndex, isCode, type RuleLevel, type ServiceOptions } from '../service';
import { checkExtraArgs, FORMATS, InputError, parseExtraArg, type ExtraArgs } from './args';
import { ConfigLookup } from './config';
import { deps } from './deps';
import { findFiles, UsageError, type Found } from './files';
import { fixDocuments } from './fix';
import { errorsOnly, render, writeOutputFile } from './output';
import { printConfig } from './printConfig';
import { count, type FileReport } from './report';
import type { Io } from './io';

const LEVELS = new Set(['off', 'hint', 'information', 'warning', 'error']);

export interface CheckArgs extends ExtraArgs { paths: string[]; format: string; maxWarnings?: number; rules: Record<string, RuleLevel> }

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
      if (!(FORMATS as readonly string[]).includes(a.format)) throw new UsageError(`unknown format '${a.format}' (${FORMATS.join(', ')})`);
    } else if (x === '--max-warnings' || x.startsWith('--max-warnings=')) {
      const n = Number(val('--max-warnings'));
      if (!Number.isInteger(n) || n < 0) throw new UsageError('--max-warnings takes a whole number ≥ 0');
      a.maxWarnings = n;
    } else if (x === '--rule' || x.startsWith('--rule=')) {
      const [code, level] = val('--rule').split('=');
      if (!code || !isCode(code)) throw new UsageError(`--rule: unknown diagnostic code '${code ?? ''}'`);
      if (!level || !LEVELS.has(level)) throw new UsageError(`--rule ${code}: level must be off, hint, information, warning or error`);
      a.rules[code] = level as RuleLevel;
    } else if (x.startsWith('-') && x !== '-') i = parseExtraArg(argv, i, a);
    else a.paths.push(x);
  }
  checkExtraArgs(a);
  return a;
}

export function runCheck(argv: readonly string[], io: Io): number {
  const args = parseCheckArgs(argv);
  const configs = new ConfigLookup(io.cwd, args);
  if (args.printConfig !== undefined) return printConfig(args.printConfig, configs, io);
  const files: (Found & { bytes?: Uint8Array })[] = args.stdin ? [readStdin(args, io)] : findFiles(args.paths, io.cwd);
  const service = createAdapterService(deps);
  const optsOf = new Map<string, ServiceOptions>();
  const bytesOf = new Map<string, Uint8Array>();
  const docs: TextDocument[] = [];
  const paths = new Map<string, string>();
  let namedIgnored = 0;
  for (const f of files) {
    const opts = configs.optionsFor(f.path);
    if (opts.ignored) {
      if (f.explicit) { namedIgnored++; io.stderr(`${relative(io.cwd, f.path)}: ignored by ${relative(io.cwd, opts.configPath!)}; skipped\n`); }
      continue;
    }
    let text: string;
    let bytes: Uint8Array;
    try {
      // Bytes that are not UTF-8 become U+FFFD, which text.invalid-character reports where it stands.
      bytes = f.bytes ?? readFileSync(f.path);
      text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    } catch (e) {
      throw new UsageError(`cannot read '${relative(io.cwd, f.path)}': ${(e as Error).message}`);
    }
    const uri = pathToFileURL(f.path).href;
    const doc = TextDocument.create(uri, 'yaml', 1, text);
    optsOf.set(uri, opts);
    bytesOf.set(uri, bytes);
    if (!service.isAdapter(doc, opts)) {
      if (f.explicit) io.stderr(`${relative(io.cwd, f.path)}: not an adapter file (see README "Which files"); skipped\n`);
      continue;
    }
    docs.push(doc);
    paths.set(uri, f.path);
  }
  // Every file named (by a pre-commit hook, say) is ignored by the config: nothing to check is fine.
  if (!docs.length && namedIgnored > 0 && namedIgnored === files.length) { io.stdout(render(args.format, [], io)); return 0; }
  if (!docs.length) throw new UsageError(`no adapter files found in ${args.paths.length ? args.paths.join(' ') : 'the current directory'}`);
  const index = createWorkspaceIndex();
  const indexAll = () => { for (const d of docs) index.update(d.uri, service.declaredCodes(d, optsOf.get(d.uri)), service.codeOccurrences(d, optsOf.get(d.uri))); };
  indexAll();
  // --fix / --fix-dry-run: the report is on the fixed texts; when stdout carries the diff or the fixed text, it goes only to --output-file.
  const stdoutTaken = (args.fix || args.fixDryRun) ? fixDocuments({ service, docs, optsOf, bytesOf, paths, index, io, args }) : false;
  if (args.fix || args.fixDryRun) indexAll();
  let reports: FileReport[] = docs.map(d => {
    const path = paths.get(d.uri)!;
    return { path, rel: relative(io.cwd, path).split(sep).join('/'), uri: d.uri, text: d.getText(), diagnostics: service.validate(d, optsOf.get(d.uri), index.except(d.uri)) };
  });
  if (args.quiet) reports = errorsOnly(reports);
  if (args.outputFile !== undefined) writeOutputFile(io, args.outputFile, render(args.format, reports, io, false));
  else if (!stdoutTaken) io.stdout(render(args.format, reports, io));
  const c = count(reports);
  if (c.errors > 0) return 1;
  if (args.maxWarnings !== undefined && c.warnings > args.maxWarnings) {
    io.stderr(`${c.warnings} warnings, more than --max-warnings ${args.maxWarnings}\n`);
    return 1;
  }
  return 0;
}

/** --stdin: one document, named by --stdin-filename (default `stdin.adapter.yaml` in the working folder). */
function readStdin(args: CheckArgs, io: Io): Found & { bytes: Uint8Array } {
  if (!io.readStdin) throw new UsageError('--stdin: standard input is not available');
  let bytes: Uint8Array;
  try { bytes = io.readStdin(); } catch (e) { throw new InputError(`cannot read standard input: ${(e as Error).message}`); }
  return { path: resolve(io.cwd, args.stdinFilename ?? 'stdin.adapter.yaml'), explicit: true, bytes };
}
