/**
 * `mcp-aql-errors verify <adapter…> <responses…>`: recorded responses (JSON, JSON Lines, MCP tool
 * results, JSON-RPC responses) checked against the adapters' error contract and the registry. The
 * arguments are sorted by content: adapter files give the contract, every other file is a response
 * file (in a folder: `*.responses.jsonl`, `*.responses.json`, `*.envelope.json`). Same formats and
 * exit codes as `check`.
 */
import { relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createAdapterService, DEFAULT_MAX_FILE_SIZE, type ServiceOptions } from '../service';
import { isJsonLinesPath, verifyJsonLines } from './verifyJsonLines';
import { parseCheckArgs } from './check';
import { deps, VERSION } from './deps';
import { findFiles, UsageError } from './files';
import { escapeControls } from './format/escape';
import { readRegularFile } from '../node/readRegularFile';
import { formatGithub } from './format/github';
import { formatJson } from './format/json';
import { formatSarif } from './format/sarif';
import { formatText } from './format/text';
import type { Io } from './io';
import { count, type FileReport } from './report';

/** A file's text (regular files only: a FIFO never hangs the run); bytes that are not UTF-8 become U+FFFD. */
export function readText(path: string, cwd: string): string {
  const r = readRegularFile(path);
  if (!r.ok) throw new UsageError(`cannot read '${escapeControls(relative(cwd, path))}': ${r.message}`);
  return new TextDecoder('utf-8', { fatal: false }).decode(r.bytes);
}

export function runVerify(argv: readonly string[], io: Io): number {
  const args = parseCheckArgs(argv);
  if (!args.paths.length) throw new UsageError('verify needs adapter files and response files');
  const service = createAdapterService(deps);
  const opts: ServiceOptions = { rules: args.rules };
  const adapters: TextDocument[] = [];
  const responses: { doc: TextDocument; path: string }[] = [];
  /** JSON Lines logs: never read whole (verifyJsonLines.ts). */
  const logs: { uri: string; path: string }[] = [];
  const notes = (p: string, m: string) => io.stderr(`${escapeControls(relative(io.cwd, p) || '.')}: ${m}\n`);
  for (const f of findFiles(args.paths, io.cwd, { followSymlinks: args.followSymlinks, onNote: notes })) {
    const uri = pathToFileURL(f.path).href;
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
    if ('error' in r) throw new UsageError(`cannot read '${escapeControls(relative(io.cwd, path))}': ${r.error}`);
    reports.push({ path, rel: rel(path), uri, text: '', lines: r.lines, diagnostics: r.diagnostics });
  }
  reports.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  const out =
    args.format === 'json'
      ? formatJson(reports)
      : args.format === 'sarif'
        ? formatSarif(reports, VERSION, pathToFileURL(io.cwd).href)
        : args.format === 'github'
          ? formatGithub(reports)
          : formatText(reports, { color: io.color, noun: 'response file' });
  io.stdout(out);
  const c = count(reports);
  if (c.errors > 0) return 1;
  if (args.maxWarnings !== undefined && c.warnings > args.maxWarnings) {
    io.stderr(`${c.warnings} warnings, more than --max-warnings ${args.maxWarnings}\n`);
    return 1;
  }
  return 0;
}
