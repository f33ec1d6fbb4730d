/**
 * `mcp-aql-errors verify <adapter…> <responses…>`: recorded responses (JSON, JSON Lines, MCP tool
 * results, JSON-RPC responses) checked against the adapters' error contract and the registry. The
 * arguments are sorted by content: adapter files give the contract, every other file is a response
 * file (in a folder: `*.responses.jsonl`, `*.responses.json`, `*.envelope.json`). Same formats and
 * exit codes as `check`, through the same output path (--format, -o, -q).
 */
import { relative, sep } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createAdapterService, type ServiceOptions } from '../service';
import { parseCheckArgs } from './check';
import { fileUri } from '../node/bytePaths';
import { deps } from './deps';
import { findFiles, UsageError } from './files';
import { escapeControls, shownPath } from './format/escape';
import { readRegularFile } from '../node/readRegularFile';
import { emitReport, errorsOnly } from './output';
import type { Io } from './io';
import { capReports, count, type FileReport } from './report';

/** A file's text (regular files only: a FIFO never hangs the run); bytes that are not UTF-8 become U+FFFD. */
export function readText(path: string, cwd: string): string {
  const r = readRegularFile(path);
  if (!r.ok) throw new UsageError(`cannot read '${escapeControls(relative(cwd, path))}': ${r.message}`);
  return new TextDecoder('utf-8', { fatal: false }).decode(r.bytes);
}

export function runVerify(argv: readonly string[], io: Io): number {
  const args = parseCheckArgs(argv);
  const notHere = (['fix', 'fixDryRun', 'stdin', 'cache', 'printConfig', 'jobs', 'config', 'noConfig', 'codeScope'] as const).find(
    k => args[k] !== undefined,
  );
  if (notHere) throw new UsageError(`verify: --${notHere.replace(/[A-Z]/g, c => '-' + c.toLowerCase())} is a check option`);
  if (!args.paths.length) throw new UsageError('verify needs adapter files and response files');
  const service = createAdapterService(deps);
  const opts: ServiceOptions = { rules: args.rules, maxProblems: Infinity };
  const adapters: TextDocument[] = [];
  const responses: { doc: TextDocument; path: string }[] = [];
  const notes = (p: string, m: string) => io.stderr(`${shownPath(relative(io.cwd, p) || '.')}: ${m}\n`);
  for (const f of findFiles(args.paths, io.cwd, { followSymlinks: args.followSymlinks, onNote: notes })) {
    const uri = fileUri(f.path);
    const doc = TextDocument.create(uri, 'yaml', 1, readText(f.path, io.cwd));
    if (service.isAdapter(doc, opts)) adapters.push(doc);
    else if (f.explicit || service.isResponseFile(uri, opts)) responses.push({ doc, path: f.path });
  }
  if (!adapters.length) throw new UsageError('verify needs at least one adapter file (the contract): none of the arguments is one');
  if (!responses.length) throw new UsageError('verify needs at least one response file (a .json or .jsonl file that is not an adapter)');
  const contract = service.contract(adapters, opts);
  const reports: FileReport[] = responses.map(({ doc, path }) => ({
    path,
    rel: relative(io.cwd, path).split(sep).join('/'),
    uri: doc.uri,
    text: doc.getText(),
    diagnostics: service.verifyResponses(doc, contract, opts),
  }));
  const shown = capReports(args.quiet ? errorsOnly(reports) : reports);
  emitReport(io, args, shown, 'response file');
  const c = count(shown);
  if (c.errors > 0) return 1;
  if (args.maxWarnings !== undefined && c.warnings > args.maxWarnings) {
    io.stderr(`${c.warnings} warnings, more than --max-warnings ${args.maxWarnings}\n`);
    return 1;
  }
  return 0;
}
