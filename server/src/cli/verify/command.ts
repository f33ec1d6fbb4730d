/**
 * `mcp-aql-errors verify <adapter…> <responses…>`: recorded responses (JSON, JSON Lines, MCP tool
 * results, JSON-RPC responses) checked against the adapters' error contract and the registry. The
 * arguments are sorted by content: adapter files give the contract, every other file is a response
 * file (in a folder: `*.responses.jsonl`, `*.responses.json`, `*.envelope.json`). Same formats and
 * exit codes as `check`, through the same output path (--format, -o, -q).
 */
import { relative, sep } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createAdapterService, DEFAULT_MAX_FILE_SIZE, type ServiceOptions } from '../../service';
import { isJsonLinesPath, verifyJsonLines } from './jsonLines';
import { parseCheckArgs } from '../args';
import { fileUri } from '../../node/bytePaths';
import { deps } from '../deps';
import { findFiles, readText, UsageError } from '../files';
import { shownPath } from '../format';
import { emitReport, errorsOnly, exitStatus } from '../output';
import { commandHelp } from '../options';
import type { Io } from '../io';
import { capReports, type FileReport } from '../report';

export function runVerify(argv: readonly string[], io: Io): number {
  const args = parseCheckArgs(argv, 'verify');
  if (args.help) {
    io.stdout(commandHelp('verify'));
    return 0;
  }
  if (!args.paths.length) throw new UsageError('verify needs adapter files and response files');
  const service = createAdapterService(deps);
  const opts: ServiceOptions = { rules: args.rules, maxProblems: Infinity };
  const adapters: TextDocument[] = [];
  const responses: { doc: TextDocument; path: string }[] = [];
  /** JSON Lines logs: never read whole (verifyJsonLines.ts). */
  const logs: { uri: string; path: string }[] = [];
  const notes = (p: string, m: string) => io.stderr(`${shownPath(relative(io.cwd, p) || '.')}: ${m}\n`);
  for (const f of findFiles(args.paths, io.cwd, { followSymlinks: args.followSymlinks, onNote: notes })) {
    const uri = fileUri(f.path);
    if (isJsonLinesPath(f.path) && (f.explicit || service.isResponseFile(uri, opts))) {
      logs.push({ uri, path: f.path });
      continue;
    }
    const doc = TextDocument.create(uri, 'yaml', 1, readText(f.path, io.cwd));
    if (service.isAdapter(doc, opts)) adapters.push(doc);
    else if (f.explicit || service.isResponseFile(uri, opts)) responses.push({ doc, path: f.path });
  }
  if (!adapters.length) throw new UsageError('verify needs at least one adapter file (the contract): none of the arguments is one');
  if (!responses.length && !logs.length)
    throw new UsageError('verify needs at least one response file (a .json or .jsonl file that is not an adapter)');
  const contract = service.contract(adapters, opts);
  const rel = (path: string) => relative(io.cwd, path).split(sep).join('/');
  const reports: FileReport[] = responses.map(({ doc, path }) => ({
    path,
    rel: rel(path),
    uri: doc.uri,
    text: doc.getText(),
    diagnostics: service.verifyResponses(doc, contract, opts),
  }));
  for (const { uri, path } of logs) {
    const r = verifyJsonLines(path, uri, service, contract, opts, DEFAULT_MAX_FILE_SIZE);
    if ('error' in r) throw new UsageError(`cannot read '${shownPath(relative(io.cwd, path))}': ${r.error}`);
    reports.push({ path, rel: rel(path), uri, text: '', lines: r.lines, diagnostics: r.diagnostics });
  }
  reports.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  const shown = capReports(args.quiet ? errorsOnly(reports) : reports);
  emitReport(io, args, shown, 'response file');
  return exitStatus(io, args, shown);
}
